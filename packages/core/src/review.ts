import { FRET_MAX, FRET_MIN, STRING_COUNT } from './constants.js';
import { moveToString } from './edit-rules.js';
import type { NoteEvent, SuggestedTechnique, TechniqueSuggestion } from './events.js';
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

/**
 * The AI's note is doubtful: it has a confidence below DOUBTFUL_CONFIDENCE, or a technique the
 * engine was not sure of waits for a person's answer (NoteEvent.suggestions).
 */
export function isDoubtful(note: Pick<NoteEvent, 'confidence' | 'suggestions'>): boolean {
  return (
    (note.confidence !== undefined && note.confidence < DOUBTFUL_CONFIDENCE) ||
    (note.suggestions?.length ?? 0) > 0
  );
}

/**
 * The note as a person has checked it, as it stands: without the AI's confidence and without the
 * techniques it only suggested (same object when it has neither).
 */
export function confirmNote(note: NoteEvent): NoteEvent {
  if (note.confidence === undefined && note.suggestions === undefined) return note;
  const checked = { ...note };
  delete checked.confidence;
  delete checked.suggestions;
  return checked;
}

/** How the review queue names a doubtful technique: "bend?", "hammer-on?". */
export function suggestionLabel(technique: SuggestedTechnique): string {
  return `${SUGGESTION_NAMES[technique]}?`;
}

/** The techniques' names as the review queue's buttons use them ("Add bend", "No bend"). */
export const SUGGESTION_NAMES: Readonly<Record<SuggestedTechnique, string>> = {
  bend: 'bend',
  release: 'release',
  vibrato: 'vibrato',
  slide: 'slide',
  hammer_on: 'hammer-on',
  pull_off: 'pull-off',
};

/** The note without its first suggestion (a person said no to it); same object when none. */
export function dismissSuggestion(note: NoteEvent): NoteEvent {
  const [, ...rest] = note.suggestions ?? [];
  if (note.suggestions === undefined) return note;
  const next = { ...note };
  if (rest.length > 0) next.suggestions = rest;
  else delete next.suggestions;
  return next;
}

/**
 * The notes with the first suggestion of `notes[index]` written onto the tab (a person said yes).
 * A slide, hammer-on or pull-off into the note also marks the note before it on its string as
 * leading into it (a technique joins two notes); one out of the note marks the note after it.
 * Returns the indices changed and their new notes; an empty list when there is nothing to add.
 */
export function addSuggestion(
  notes: readonly NoteEvent[],
  index: number,
): { index: number; note: NoteEvent }[] {
  const note = notes[index];
  const first: TechniqueSuggestion | undefined = note?.suggestions?.[0];
  if (note === undefined || first === undefined) return [];
  const changed = [{ index, note: { ...dismissSuggestion(note), ...first.fields } }];
  const joins: [side: 'leading' | 'trailing', other: 'leading' | 'trailing'][] = [
    ['leading', 'trailing'],
    ['trailing', 'leading'],
  ];
  for (const [side, other] of joins) {
    for (const t of ['slide', 'hammer_on', 'pull_off'] as const) {
      if (first.fields[`${side}_${t}`] !== true) continue;
      const j = neighbourOnString(notes, index, side === 'leading' ? -1 : 1);
      const n = j === null ? undefined : notes[j];
      if (j === null || n === undefined) continue;
      changed.push({
        index: j,
        note: {
          ...n,
          [`${other}_slide`]: false,
          [`${other}_hammer_on`]: false,
          [`${other}_pull_off`]: false,
          [`${other}_${t}`]: true,
        },
      });
    }
  }
  return changed;
}

/**
 * The pitched note on the same string just before (direction -1) or after (1) `notes[index]`
 * (notes sorted by time), however far; null when none. The note a slide or slur joins it to.
 */
export function noteOnString(
  notes: readonly NoteEvent[],
  index: number,
  direction: -1 | 1,
): number | null {
  const note = notes[index];
  if (note === undefined) return null;
  for (let j = index + direction; j >= 0 && j < notes.length; j += direction) {
    const n = notes[j];
    if (n?.string === note.string && !n.mute) return j;
  }
  return null;
}

/** noteOnString when it ends or starts within a quarter second of `notes[index]`; else null. */
function neighbourOnString(
  notes: readonly NoteEvent[],
  index: number,
  direction: -1 | 1,
): number | null {
  const j = noteOnString(notes, index, direction);
  const note = notes[index];
  const n = j === null ? undefined : notes[j];
  if (note === undefined || n === undefined) return null;
  const gap = direction === -1 ? note.time - n.end_time : n.time - note.end_time;
  return gap <= 0.25 ? j : null;
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
