import { openStringPitch, type Tuning } from '@riffscribe/core';
import { noteName } from '../tuner/tunerMath';

/** Pitch-class name of string `s` as it sounds with the capo ("E", "F#"), for the nut labels. */
export function noteNameOfOpen(tuning: Tuning, s: number, capo: number): string {
  return noteName(openStringPitch(tuning, s) + capo).replace(/-?\d+$/, '');
}

/**
 * The names at the left of the tab staff, string 1 (top) to 6, as tab writes them: the open
 * strings as they sound with the capo, the top string in lower case ("e B G D A E").
 */
export function staffStringNames(tuning: Tuning, capo: number): string[] {
  return [1, 2, 3, 4, 5, 6].map((s) => {
    const name = noteNameOfOpen(tuning, s, capo);
    return s === 1 ? name.toLowerCase() : name;
  });
}
