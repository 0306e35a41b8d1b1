import type { DetectedNote } from '../types.js';

/**
 * A note joins a group when its onset is within GROUP_GAP of the group's latest onset and
 * within GROUP_SPAN of its first, and every note of the group still sounds at least
 * GROUP_OVERLAP past it. A strum sweeps six strings in 20-80 ms, 5-15 ms a string, and its notes
 * ring on; two picked notes of a fast run (16ths at 180 bpm) are 83 ms apart; a grace-note
 * hammer-on on one string is fast too, but its first note stops where the second begins.
 */
export const GROUP_GAP = 0.035;
export const GROUP_SPAN = 0.1;
export const GROUP_OVERLAP = 0.02;
/** A guitar sounds at most six notes at once. */
export const MAX_GROUP_NOTES = 6;

/** Notes struck together, in onset order. */
export interface NoteGroup {
  /** Onset of the group's first note, seconds. */
  time: number;
  notes: DetectedNote[];
}

/**
 * Groups notes by onset (sorted by time, then pitch). A group of more than six notes keeps the
 * six strongest (by amplitude); the others are returned in `dropped`.
 */
export function groupNotes(notes: readonly DetectedNote[]): {
  groups: NoteGroup[];
  dropped: DetectedNote[];
} {
  const sorted = [...notes].sort((a, b) => a.time - b.time || a.pitch - b.pitch);
  const groups: NoteGroup[] = [];
  for (const note of sorted) {
    const last = groups.at(-1);
    const latest = last ? Math.max(...last.notes.map((n) => n.time)) : -Infinity;
    const joins =
      last !== undefined &&
      note.time - latest <= GROUP_GAP &&
      note.time - last.time <= GROUP_SPAN &&
      last.notes.every((n) => n.endTime >= note.time + GROUP_OVERLAP);
    if (joins) last.notes.push(note);
    else groups.push({ time: note.time, notes: [note] });
  }
  const dropped: DetectedNote[] = [];
  for (const group of groups) {
    if (group.notes.length <= MAX_GROUP_NOTES) continue;
    const ranked = [...group.notes].sort((a, b) => b.amplitude - a.amplitude);
    const keep = new Set(ranked.slice(0, MAX_GROUP_NOTES));
    dropped.push(...group.notes.filter((n) => !keep.has(n)));
    group.notes = group.notes.filter((n) => keep.has(n));
  }
  return { groups, dropped };
}

/** groupNotes by index: which notes form each strum, and the onset each note is read at. */
export interface Strums {
  /** Indices (into the notes given) of each group's notes, in onset order; six at most. */
  groups: number[][];
  /** Per note: its group's onset (a chord's notes share one time, as a tab writes them); a
   * note left out of a group of more than six keeps its own onset. */
  time: number[];
}

/** The strums of `notes` (groupNotes), by index. */
export function strumsOf(notes: readonly DetectedNote[]): Strums {
  const index = new Map(notes.map((n, i) => [n, i]));
  const { groups } = groupNotes(notes);
  const time = notes.map((n) => n.time as number);
  const byIndex = groups.map((g) =>
    g.notes.map((n) => {
      const i = index.get(n) ?? -1;
      time[i] = g.time;
      return i;
    }),
  );
  return { groups: byIndex, time };
}
