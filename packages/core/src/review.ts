import { FRET_MAX, FRET_MIN, STRING_COUNT } from './constants.js';
import { moveToString } from './edit-rules.js';
import type { NoteEvent } from './events.js';
import { openStringPitch, type Tuning } from './guitar.js';

/**
 * The review queue's rules (issue 11): which of the AI's notes are doubtful, how a person clears
 * that doubt, and where else on the neck a note could be played. Shared by the player and the
 * engine's evaluation, which measures how well "doubtful" finds the wrong notes.
 */

/**
 * A note whose confidence is below this is doubtful. Chosen on the engine's rendered corpus
 * (`npm run eval`, "Review queue"): the third of the notes it flags hold half of the wrong ones
 * (precision 0.39 against 0.26 wrong overall); lower thresholds miss most errors, higher ones
 * flag half the tab. docs/review-queue.md has the figures at each threshold.
 */
export const DOUBTFUL_CONFIDENCE = 0.5;

/** The AI's note is doubtful: it has a confidence and it is below DOUBTFUL_CONFIDENCE. */
export function isDoubtful(note: Pick<NoteEvent, 'confidence'>): boolean {
  return note.confidence !== undefined && note.confidence < DOUBTFUL_CONFIDENCE;
}

/** The note as a person has checked it: without the AI's confidence (same object when none). */
export function confirmNote(note: NoteEvent): NoteEvent {
  if (note.confidence === undefined) return note;
  const checked = { ...note };
  delete checked.confidence;
  return checked;
}

/** A place on the neck: string 1..6 and fret relative to the capo. */
export interface Position {
  string: number;
  fret: number;
}

/**
 * Every place the note's pitch can be played, strings 1..6 in order, its own place included:
 * frets 0..maxFret relative to the capo (the capo moves every string alike, so it changes no
 * answer but the highest fret the neck still has: pass `maxFret` = the neck's frets - capo).
 */
export function playablePositions(
  note: Pick<NoteEvent, 'string' | 'fret'>,
  tuning: Tuning,
  maxFret: number = FRET_MAX,
): Position[] {
  const pitch = openStringPitch(tuning, note.string) + note.fret;
  const top = Math.min(FRET_MAX, maxFret);
  const out: Position[] = [];
  for (let s = 1; s <= STRING_COUNT; s += 1) {
    const fret = pitch - openStringPitch(tuning, s);
    if (fret >= FRET_MIN && fret <= top) out.push({ string: s, fret });
  }
  return out;
}

/**
 * The note moved to `position` keeping its pitch (bends move with it), checked by the user; null
 * when that place does not play the same pitch (spec section 5: a whole fret 0..24).
 */
export function moveToPosition(
  note: NoteEvent,
  position: Position,
  tuning: Tuning,
): NoteEvent | null {
  const moved = moveToString(note, position.string, tuning);
  if (moved?.fret !== position.fret) return null;
  return confirmNote(moved);
}
