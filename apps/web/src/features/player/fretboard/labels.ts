import { STRING_COUNT } from '@riffscribe/core';
import { noteName } from '../tuner/tunerMath';

/** Pitch-class name of string `s` as it sounds with the capo ("E", "F#"), for the nut labels. */
export function noteNameOfOpen(tuning: readonly number[], s: number, capo: number): string {
  return noteName((tuning[STRING_COUNT - s] ?? 0) + capo).replace(/-?\d+$/, '');
}
