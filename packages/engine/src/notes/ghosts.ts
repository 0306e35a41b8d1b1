import { byStart, type NoteCandidate } from './candidate.js';

/**
 * Octave and harmonic ghosts (pure). Basic Pitch sometimes reports, besides a plucked note, a note
 * at one of its overtones (an octave, an octave and a fifth, two octaves up: a string's second,
 * third and fourth harmonics) or an octave below it. Such a ghost starts in the very frame of the
 * real note, because it is the same attack heard through the wrong pitch, and it is weaker in
 * both onset and note activation. A second string played in octaves has its own pluck: in a strum
 * it starts a frame or more apart, and it carries comparable energy. So a note is a ghost when a
 * note at one of these intervals starts within GHOST_WINDOW frames of it, is stronger by the
 * factor below, and has the stronger onset too.
 */

/** Semitones from the real note to its ghost: harmonics 2, 3 and 4, and the octave below. */
export const GHOST_INTERVALS: readonly number[] = [12, 19, 24, -12];
/** Frames (about 12 ms) between the starts of a note and its ghost. */
export const GHOST_WINDOW = 1;
/** A ghost's peak note activation is below this fraction of the real note's. */
export const GHOST_RATIO = 0.8;

/** Whether `c` is a ghost of `q` (start frames aside): a ghost interval away, and weaker. */
export function isGhostOf(c: NoteCandidate, q: NoteCandidate): boolean {
  return (
    GHOST_INTERVALS.includes(c.pitch - q.pitch) &&
    c.amplitude < GHOST_RATIO * q.amplitude &&
    c.onset < q.onset
  );
}

export function removeGhosts(notes: readonly NoteCandidate[]): NoteCandidate[] {
  const byFrame = new Map<number, NoteCandidate[]>();
  const kept: NoteCandidate[] = [];
  // Strongest first, so that a real note is settled before its ghosts are judged against it.
  const strongestFirst = [...notes].sort((a, b) => b.amplitude - a.amplitude || byStart(a, b));
  for (const c of strongestFirst) {
    let ghost = false;
    for (let f = c.start - GHOST_WINDOW; f <= c.start + GHOST_WINDOW && !ghost; f++) {
      ghost = (byFrame.get(f) ?? []).some((q) => isGhostOf(c, q));
    }
    if (ghost) continue;
    kept.push(c);
    const list = byFrame.get(c.start);
    if (list === undefined) byFrame.set(c.start, [c]);
    else list.push(c);
  }
  return kept.sort(byStart);
}
