import { byStart, type NoteCandidate } from './candidate.js';

/**
 * Notes without an attack of their own (pure). On a guitar a note can begin without a pluck only
 * by continuing the string's previous note: a hammer-on, a pull-off or the arrival of a slide, a
 * few frets away, as that note stops. Leftover activation anywhere else is a ghost or a
 * re-detection of a ringing note (measured: most such notes were false). So a 'legato' candidate
 * is kept only when an attacked note 1 to LEGATO_MAX_INTERVAL semitones away ends within
 * LEGATO_GAP_FRAMES of its start.
 */

/** Largest interval of a hammer-on, pull-off or slide taken as one string's continuation. */
export const LEGATO_MAX_INTERVAL = 5;
/** Frames (about 35 ms) between the previous note's end and the legato note's start. */
export const LEGATO_GAP_FRAMES = 3;

export function keepLegatoContinuations(notes: readonly NoteCandidate[]): NoteCandidate[] {
  const attacked = notes.filter((n) => n.source === 'attack');
  return notes
    .filter(
      (c) =>
        c.source === 'attack' ||
        attacked.some((q) => {
          const interval = Math.abs(q.pitch - c.pitch);
          return (
            interval >= 1 &&
            interval <= LEGATO_MAX_INTERVAL &&
            q.start < c.start &&
            Math.abs(q.end - c.start) <= LEGATO_GAP_FRAMES
          );
        }),
    )
    .sort(byStart);
}
