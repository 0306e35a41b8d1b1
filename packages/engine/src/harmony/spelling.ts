/**
 * Spelling of pitch classes (0 = C ... 11 = B) in chord and key names. In a flat key every black
 * key is a flat (Eb, Bb, Ab, Db, Gb); in a sharp key a sharp (F#, C#, G#, D#, A#). In C major
 * and A minor, or with no key, the spelling guitar charts use most: C#, Eb, F#, Ab, Bb.
 */

export const SHARP_NAMES = [
  'C',
  'C#',
  'D',
  'D#',
  'E',
  'F',
  'F#',
  'G',
  'G#',
  'A',
  'A#',
  'B',
] as const;
export const FLAT_NAMES = [
  'C',
  'Db',
  'D',
  'Eb',
  'E',
  'F',
  'Gb',
  'G',
  'Ab',
  'A',
  'Bb',
  'B',
] as const;
export const COMMON_NAMES = [
  'C',
  'C#',
  'D',
  'Eb',
  'E',
  'F',
  'F#',
  'G',
  'Ab',
  'A',
  'Bb',
  'B',
] as const;

/** How black keys are written. */
export type Spelling = 'flats' | 'sharps' | 'common';

/** Pitch class 0..11 of a MIDI pitch (rounded). */
export const pitchClass = (pitch: number): number => ((Math.round(pitch) % 12) + 12) % 12;

/** The seven note letters, C first. */
export const LETTERS = ['C', 'D', 'E', 'F', 'G', 'A', 'B'] as const;
const LETTER_PITCH_CLASSES = [0, 2, 4, 5, 7, 9, 11] as const;

/** Pitch class of a written note name: a letter and any run of sharps or flats ("Eb", "F#", "Cb", "D##"); null otherwise. */
export function namePitchClass(name: string): number | null {
  const m = /^([A-G])([#b]*)$/.exec(name.trim());
  if (!m?.[1]) return null;
  let shift = 0;
  for (const mark of m[2] ?? '') shift += mark === '#' ? 1 : -1;
  const letter = LETTERS.indexOf(m[1] as (typeof LETTERS)[number]);
  return pitchClass((LETTER_PITCH_CLASSES[letter] ?? 0) + shift);
}

/** Name of a pitch class under a spelling. */
export function noteName(pc: number, spelling: Spelling): string {
  const names =
    spelling === 'flats' ? FLAT_NAMES : spelling === 'sharps' ? SHARP_NAMES : COMMON_NAMES;
  return names[pitchClass(pc)] ?? 'C';
}
