import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ChordEvent } from '@riffscribe/core';
import { detectChords, detectKey } from '../harmony/index.js';
import { analyseAttacks, type AttackAnalysis } from '../techniques/attacks.js';
import type { ClipAudio, DetectedNote } from '../types.js';
import type { AsideAnswer, AsideRequest } from './aside-worker.js';
import { SpilledAudio } from './spill.js';

/**
 * Stages run on the engine's second thread (aside-worker.ts) while the caller goes on (issue 41,
 * build item 4: the stages after the note model used one core of two): the clip's attack
 * analysis beside note extraction and fingering, the chords and key beside the techniques. One
 * thread per process, started on first use (or by loadModels) and kept; it does not keep the
 * process alive. Requests run one at a time in order. Each answer is exactly what the same
 * function gives on the engine's thread, which is where it runs instead when the thread cannot
 * start or fails (its compiled file missing in a bare source checkout, a clip in another store),
 * on a single core, and where RIFFSCRIBE_SIDE_THREAD=0.
 */

/** The compiled worker: `dist/adapters` from both src/adapters and dist/adapters. */
const WORKER_FILE = fileURLToPath(new URL('../../dist/adapters/aside-worker.js', import.meta.url));

type Waiting = (answer: AsideAnswer | Error) => void;

let worker: Worker | null = null;
const waiting = new Map<number, Waiting>();
let nextId = 1;

function failAll(error: Error): void {
  for (const settle of waiting.values()) settle(error);
  waiting.clear();
}

/**
 * Whether a side thread may run: not on a single core (it would only take turns with the
 * engine's thread), nor where RIFFSCRIBE_SIDE_THREAD=0 (an operator's choice, measurement).
 */
function sideThreadWanted(): boolean {
  return process.env.RIFFSCRIBE_SIDE_THREAD !== '0' && os.availableParallelism() > 1;
}

function theWorker(): Worker | null {
  if (worker) return worker;
  if (!sideThreadWanted() || !existsSync(WORKER_FILE)) return null;
  // No inherited Node options: a test runner's module conditions would have the compiled
  // worker import TypeScript sources.
  const started = new Worker(WORKER_FILE, { execArgv: [] });
  started.unref();
  started.on('message', (answer: AsideAnswer) => {
    const settle = waiting.get(answer.id);
    waiting.delete(answer.id);
    if (waiting.size === 0) started.unref();
    settle?.(answer);
  });
  started.on('error', (error) => {
    if (worker === started) worker = null;
    failAll(error);
  });
  started.on('exit', () => {
    if (worker === started) worker = null;
    failAll(new Error('the engine side thread stopped'));
  });
  worker = started;
  return started;
}

/** The thread's answer to `request`, or an Error (then the caller computes it here). */
function ask(request: AsideRequest, thread: Worker): Promise<AsideAnswer | Error> {
  return new Promise((settle) => {
    waiting.set(request.id, settle);
    // Referenced while it works for someone: the process waits for the answer.
    thread.ref();
    thread.postMessage(request);
  });
}

/**
 * analyseAttacks(audio), computed on the side thread. The caller must keep `audio` open (a
 * spilled clip's file) until the promise settles.
 */
export async function analyseAttacksAside(audio: ClipAudio): Promise<AttackAnalysis> {
  const id = nextId++;
  const request: AsideRequest | null =
    audio instanceof SpilledAudio
      ? { id, kind: 'attacks', audio: { shared: audio.shared() } }
      : audio instanceof Float32Array
        ? { id, kind: 'attacks', audio: { samples: audio } }
        : null;
  const thread = request ? theWorker() : null;
  if (request && thread) {
    const answer = await ask(request, thread);
    if (!(answer instanceof Error) && answer.kind === 'attacks')
      return { flux: answer.flux, energy: answer.energy };
  }
  return analyseAttacks(audio);
}

/** The lesson's chords and key from its detected notes. */
export interface Harmony {
  chords: ChordEvent[];
  musicalKey: string;
}

/** detectChords and detectKey of `notes`, computed on the side thread. */
export async function nameHarmonyAside(notes: readonly DetectedNote[]): Promise<Harmony> {
  const thread = theWorker();
  if (thread) {
    const answer = await ask({ id: nextId++, kind: 'harmony', notes: [...notes] }, thread);
    if (!(answer instanceof Error) && answer.kind === 'harmony')
      return { chords: answer.chords, musicalKey: answer.musicalKey };
  }
  return { chords: detectChords(notes), musicalKey: notes.length > 0 ? detectKey(notes) : '' };
}

/**
 * Starts the thread and has it analyse a moment of silence, so that a first clip does not wait
 * for it to load (pipeline.ts loadModels).
 */
export async function startSideThread(): Promise<void> {
  await analyseAttacksAside(new Float32Array(4096));
}

/** Whether the thread is running (it is not where its compiled file is missing, or it failed). */
export function sideThreadRunning(): boolean {
  return worker !== null;
}
