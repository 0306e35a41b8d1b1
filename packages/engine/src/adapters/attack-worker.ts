import { parentPort } from 'node:worker_threads';
import { SpilledAudio, type SharedAudio } from './spill.js';
import type { ClipAudio } from '../types.js';
import { analyseAttacks } from '../techniques/attacks.js';

/**
 * The attack analysis on a thread of its own (attacks-aside.ts): it reads only the
 * clip, so it runs while the engine's thread extracts and places the notes, on the core the
 * JavaScript stages after the note model would otherwise leave idle. A clip on disk is read
 * through the owner's open file (SpilledAudio.reader); samples in memory come as a copy.
 */

/** A request: the clip to analyse. */
export interface AttackRequest {
  id: number;
  audio: { shared: SharedAudio } | { samples: Float32Array };
}

/** The answer: the analysis, or why it failed. */
export type AttackAnswer =
  { id: number; flux: Float32Array; energy: Float32Array } | { id: number; error: string };

parentPort?.on('message', (request: AttackRequest) => {
  let audio: ClipAudio | undefined;
  let reader: SpilledAudio | undefined;
  try {
    if ('shared' in request.audio) {
      reader = SpilledAudio.reader(request.audio.shared);
      audio = reader;
    } else {
      audio = request.audio.samples;
    }
    const { flux, energy } = analyseAttacks(audio);
    const answer: AttackAnswer = { id: request.id, flux, energy };
    parentPort?.postMessage(answer, [flux.buffer as ArrayBuffer, energy.buffer as ArrayBuffer]);
  } catch (error) {
    const answer: AttackAnswer = {
      id: request.id,
      error: error instanceof Error ? error.message : String(error),
    };
    parentPort?.postMessage(answer);
  } finally {
    reader?.close();
  }
});
