import type { NoteEvent } from '@riffscribe/core';

/**
 * Notes sorted by start time with what the player asks of them every frame: which notes overlap
 * a time window (binary search plus the longest note as look-back, so a 5,000-note lesson costs
 * the same per frame as a short one) and each note's neighbours on its string (for slides and
 * hammer-on/pull-off arcs). Built once per version of the notes; never mutated.
 */
export interface NoteIndex {
  readonly notes: readonly NoteEvent[];
  /** Longest note, seconds: how far before a window a note may start and still reach into it. */
  readonly maxDuration: number;
  /** Index of the previous note on the same string, -1 when none. */
  readonly prevOnString: Int32Array;
  /** Index of the next note on the same string, -1 when none. */
  readonly nextOnString: Int32Array;
}

/** Builds the index; `notes` must already be sorted by time (see sortEvents). */
export function buildNoteIndex(notes: readonly NoteEvent[]): NoteIndex {
  const prevOnString = new Int32Array(notes.length).fill(-1);
  const nextOnString = new Int32Array(notes.length).fill(-1);
  const last = new Map<number, number>();
  let maxDuration = 0;
  notes.forEach((note, i) => {
    maxDuration = Math.max(maxDuration, note.end_time - note.time);
    const before = last.get(note.string);
    if (before !== undefined) {
      prevOnString[i] = before;
      nextOnString[before] = i;
    }
    last.set(note.string, i);
  });
  return { notes, maxDuration, prevOnString, nextOnString };
}

/** First index whose note starts at or after `time` (notes.length when none). */
export function firstStartingAt(notes: readonly { time: number }[], time: number): number {
  let lo = 0;
  let hi = notes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((notes[mid]?.time ?? Infinity) < time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Index range [from, to) of the notes that may overlap [t0, t1]: every note in it starts before
 * t1 and at most maxDuration before t0. Callers drop the few in it that ended before t0.
 */
export function windowRange(index: NoteIndex, t0: number, t1: number): [number, number] {
  const from = firstStartingAt(index.notes, t0 - index.maxDuration);
  const to = firstStartingAt(index.notes, t1);
  return [from, Math.max(from, to)];
}

/** Indices of the notes sounding at `time` (start <= time < end), in time order. */
export function soundingAt(index: NoteIndex, time: number): number[] {
  const [from, to] = windowRange(index, time, time + 1e-9);
  const out: number[] = [];
  for (let i = from; i < to; i += 1) {
    const n = index.notes[i];
    if (n && n.time <= time && time < n.end_time) out.push(i);
  }
  return out;
}
