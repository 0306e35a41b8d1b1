import { byStart, type NoteCandidate } from './candidate.js';

/**
 * At most `max` simultaneous notes (pure): a guitar has six strings, so a seventh note cannot
 * sound. When a new attack would exceed the limit, the notes that have rung longest end where it
 * begins (a string is re-plucked or damped by the new chord). When one attack alone holds more
 * notes than the limit, its weakest notes are dropped.
 */

/** Onsets this close (frames, about 35 ms) belong to one attack, such as a strum. */
export const ATTACK_FRAMES = 3;

export function limitPolyphony(notes: readonly NoteCandidate[], max: number): NoteCandidate[] {
  const ordered = notes
    .map((n) => ({ ...n }))
    .sort((a, b) => a.start - b.start || b.amplitude - a.amplitude);
  const kept: NoteCandidate[] = [];
  for (const c of ordered) {
    const sounding = kept.filter((k) => k.end > c.start);
    if (sounding.length < max) {
      kept.push(c);
      continue;
    }
    const oldest = sounding
      .filter((k) => k.start < c.start - ATTACK_FRAMES)
      .sort((a, b) => a.start - b.start || a.amplitude - b.amplitude)[0];
    if (oldest !== undefined) {
      oldest.end = Math.max(oldest.start + 1, c.start);
      kept.push(c);
      continue;
    }
    const weakest = sounding.reduce((w, k) => (k.amplitude < w.amplitude ? k : w), c);
    if (weakest !== c) {
      kept.splice(kept.indexOf(weakest), 1);
      kept.push(c);
    }
  }
  return kept.sort(byStart);
}
