import {
  DEFAULT_LOOP_SECONDS,
  FRETBOARD_FRETS,
  isDoubtful,
  playablePositions,
  type NoteEvent,
  type Position,
  type Tuning,
} from '@riffscribe/core';
import type { Loop } from '../model/playerState';

/**
 * The review queue (issue 11): the AI's doubtful notes in time order, one key to go to the next,
 * a loop around it, and the other places on the neck it could be played. Pure; the notes are the
 * lesson's, sorted by time (sortEvents).
 */

/** How many notes are still doubtful (the counter). */
export function doubtfulCount(notes: readonly NoteEvent[]): number {
  let n = 0;
  for (const note of notes) if (isDoubtful(note)) n += 1;
  return n;
}

/**
 * The index of the next doubtful note (direction 1) or the one before (-1), wrapping around; null
 * when none is left. From the selected note `current` when there is one, else from the playhead
 * `time` (the first doubtful note starting at or after it, or at or before it going back).
 */
export function nextDoubtful(
  notes: readonly NoteEvent[],
  current: number | null,
  time: number,
  direction: 1 | -1 = 1,
): number | null {
  const count = notes.length;
  if (count === 0) return null;
  let start: number;
  if (current !== null && current >= 0 && current < count) {
    start = current + direction;
  } else if (direction === 1) {
    start = notes.findIndex((n) => n.time >= time - 1e-9);
    if (start < 0) start = 0;
  } else {
    start = count - 1;
    while (start > 0 && (notes[start]?.time ?? 0) > time + 1e-9) start -= 1;
  }
  for (let k = 0; k < count; k += 1) {
    const i = (((start + direction * k) % count) + count) % count;
    const note = notes[i];
    if (note && isDoubtful(note)) return i;
  }
  return null;
}

/**
 * The loop a review plays: DEFAULT_LOOP_SECONDS (2 s) centred on the note, moved inside the
 * video (0..duration) when the note is near either end.
 */
export function reviewLoop(note: Pick<NoteEvent, 'time' | 'end_time'>, duration: number): Loop {
  const length = duration > 0 ? Math.min(DEFAULT_LOOP_SECONDS, duration) : DEFAULT_LOOP_SECONDS;
  const middle = (note.time + Math.min(note.end_time, note.time + length)) / 2;
  const latest = duration > 0 ? duration - length : Infinity;
  const start = Math.max(0, Math.min(middle - length / 2, latest));
  return { start, end: start + length };
}

/** A note's place and the others that play its pitch, as the fretboard offers them. */
export interface FretChoice {
  /** Where the note is now. */
  current: Position;
  /** The other places (strings in order), on the neck the fretboard draws. */
  others: Position[];
}

/**
 * The places on the live fretboard (FRETBOARD_FRETS frets from the nut, so 22 - capo above the
 * capo) that play `note`'s pitch, the note's own apart. A dead note (X) has no pitch to keep:
 * none.
 */
export function fretChoice(note: NoteEvent, tuning: Tuning, capo: number): FretChoice {
  const current = { string: note.string, fret: note.fret };
  if (note.mute) return { current, others: [] };
  const others = playablePositions(note, tuning, FRETBOARD_FRETS - capo).filter(
    (p) => p.string !== note.string,
  );
  return { current, others };
}
