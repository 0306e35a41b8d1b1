import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AttackAnswer, AttackRequest } from './attack-worker.js';
import { analyseAttacks, type AttackAnalysis } from '../techniques/attacks.js';
import type { ClipAudio } from '../types.js';
import { SpilledAudio } from './spill.js';

/**
 * The clip's attack analysis (techniques/attacks.ts) on a worker thread, started as soon as the
 * clip is decoded so that it runs beside the note stages (issue 41, build item 4: the stages
 * after the note model used one core of two). One thread per process, started on first use and
 * kept (it does not keep the process alive); requests run one at a time in order. The answer is
 * exactly what analyseAttacks gives on the engine's thread, which is where it runs instead when
 * the thread cannot start or fails (the compiled worker missing in a bare source checkout, a
 * clip in another kind of store).
 */

/** The compiled worker: `dist/adapters` from both src/adapters and dist/adapters. */
const WORKER_FILE = fileURLToPath(new URL('../../dist/adapters/attack-worker.js', import.meta.url));

interface Waiting {
  resolve: (analysis: AttackAnalysis) => void;
  reject: (error: Error) => void;
}

let worker: Worker | null = null;
const waiting = new Map<number, Waiting>();
let nextId = 1;

function failAll(error: Error): void {
  for (const w of waiting.values()) w.reject(error);
  waiting.clear();
}

function theWorker(): Worker | null {
  if (worker) return worker;
  if (!existsSync(WORKER_FILE)) return null;
  // No inherited Node options: a test runner's module conditions would have the compiled
  // worker import TypeScript sources.
  const started = new Worker(WORKER_FILE, { execArgv: [] });
  started.unref();
  started.on('message', (answer: AttackAnswer) => {
    const w = waiting.get(answer.id);
    if (!w) return;
    waiting.delete(answer.id);
    if ('error' in answer) w.reject(new Error(answer.error));
    else w.resolve({ flux: answer.flux, energy: answer.energy });
  });
  started.on('error', (error) => {
    if (worker === started) worker = null;
    failAll(error);
  });
  started.on('exit', () => {
    if (worker === started) worker = null;
    failAll(new Error('the attack analysis thread stopped'));
  });
  worker = started;
  return started;
}

/** What the worker is sent for `audio`, or null when it cannot read that kind of clip. */
function requestFor(id: number, audio: ClipAudio): AttackRequest | null {
  if (audio instanceof SpilledAudio) return { id, audio: { shared: audio.shared() } };
  if (audio instanceof Float32Array) return { id, audio: { samples: audio } };
  return null;
}

/**
 * analyseAttacks(audio), computed on the worker thread while the caller goes on. The caller
 * must keep `audio` open (a spilled clip's file) until the promise settles.
 */
export async function analyseAttacksAside(audio: ClipAudio): Promise<AttackAnalysis> {
  const id = nextId++;
  const request = requestFor(id, audio);
  const thread = request ? theWorker() : null;
  if (!request || !thread) return analyseAttacks(audio);
  try {
    return await new Promise<AttackAnalysis>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      thread.ref();
      // Samples in memory are copied to the thread (the caller keeps its own).
      thread.postMessage(request);
    }).finally(() => {
      if (waiting.size === 0) thread.unref();
    });
  } catch {
    // The same numbers, on this thread.
    return analyseAttacks(audio);
  }
}

/**
 * Starts the thread and has it analyse a moment of silence, so that a first clip does not wait
 * for it to load (pipeline.ts loadModels).
 */
export async function startAttackThread(): Promise<void> {
  await analyseAttacksAside(new Float32Array(4096));
}

/** Whether the thread is running (it is not where its compiled file is missing, or it failed). */
export function attackThreadRunning(): boolean {
  return worker !== null;
}
