import { parentPort } from 'node:worker_threads';
import { detectChords, detectKey } from '../harmony/index.js';
import { analyseAttacks } from '../techniques/attacks.js';
import type { ClipAudio, DetectedNote } from '../types.js';
import { SpilledAudio, type SharedAudio } from './spill.js';

/**
 * The engine's second thread (aside.ts): stages that read only the clip or only the detected
 * notes run here while the engine's thread goes on with the others, on the core the JavaScript
 * stages after the note model would otherwise leave idle. A clip on disk is read through the
 * owner's open file (SpilledAudio.reader); samples in memory and notes come as copies.
 */

/** A request: the clip's attack analysis, or the chords and key of the detected notes. */
export type AsideRequest =
  | { id: number; kind: 'attacks'; audio: { shared: SharedAudio } | { samples: Float32Array } }
  | { id: number; kind: 'harmony'; notes: DetectedNote[] };

/** The answer to a request of the same id, or why it failed. */
export type AsideAnswer =
  | { id: number; kind: 'attacks'; flux: Float32Array; energy: Float32Array }
  | { id: number; kind: 'harmony'; chords: ReturnType<typeof detectChords>; musicalKey: string }
  | { id: number; kind: 'error'; error: string };

function answer(request: AsideRequest): { answer: AsideAnswer; transfer: ArrayBuffer[] } {
  if (request.kind === 'harmony') {
    const notes = request.notes;
    return {
      answer: {
        id: request.id,
        kind: 'harmony',
        chords: detectChords(notes),
        musicalKey: notes.length > 0 ? detectKey(notes) : '',
      },
      transfer: [],
    };
  }
  let reader: SpilledAudio | undefined;
  try {
    let audio: ClipAudio;
    if ('shared' in request.audio) {
      reader = SpilledAudio.reader(request.audio.shared);
      audio = reader;
    } else {
      audio = request.audio.samples;
    }
    const { flux, energy } = analyseAttacks(audio);
    return {
      answer: { id: request.id, kind: 'attacks', flux, energy },
      transfer: [flux.buffer as ArrayBuffer, energy.buffer as ArrayBuffer],
    };
  } finally {
    reader?.close();
  }
}

parentPort?.on('message', (request: AsideRequest) => {
  try {
    const { answer: reply, transfer } = answer(request);
    parentPort?.postMessage(reply, transfer);
  } catch (error) {
    const reply: AsideAnswer = {
      id: request.id,
      kind: 'error',
      error: error instanceof Error ? error.message : String(error),
    };
    parentPort?.postMessage(reply);
  }
});
