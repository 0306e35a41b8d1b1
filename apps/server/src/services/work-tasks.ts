import type { BeatGrid, ExportFormat, NotationMeta } from '@riffscribe/core';

// What the worker pools' thread is asked and answers (worker-pool.ts, worker-thread.ts), and the
// two ways a task fails; shared by both sides of the thread.

/**
 * One export of one lesson: its stored notes and chords files as they are (JSON bytes, parsed on
 * the worker), placed in bars on `grid` (or, when the lesson has none, a steady 4/4 at 120 over
 * `gridSeconds`, else up to the last note's end) and written in `format`.
 */
export interface ExportTask {
  kind: 'export';
  format: ExportFormat;
  notes: Uint8Array | null;
  chords: Uint8Array | null;
  grid: BeatGrid | null;
  gridSeconds: number | null;
  meta: Omit<NotationMeta, 'chords'>;
}

/**
 * An edit-notes or edit-chords body as it came (JSON bytes): parsed, checked as the route's
 * schema and the edit rules say (against the video's length), sorted by time and written back
 * as the JSON to store.
 */
export interface EditsTask {
  kind: 'edits';
  events: 'notes' | 'chords';
  body: Uint8Array;
  duration: number | null;
}

export type WorkTask = ExportTask | EditsTask;

/** The worker's answer: bytes (and, for edits, how many events they hold), or why not. */
export type WorkAnswer =
  | { id: number; ok: true; bytes: Uint8Array; count: number }
  | { id: number; ok: false; message: string; refused: 400 | 413 | null };

/** Work that ran past its time, a worker that died under it, or a queue already full. */
export class WorkFailed extends Error {}

/** Input the worker refused (a 400, or 413 for too many notes): `message` says what is wrong. */
export class WorkRefused extends Error {
  constructor(
    message: string,
    readonly status: 400 | 413 = 400,
  ) {
    super(message);
  }
}
