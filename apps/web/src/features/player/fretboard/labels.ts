import { openStringPitch, type Tuning } from '@riffscribe/core';
import { noteName } from '../tuner/tunerMath';

/** Pitch-class name of string `s` as it sounds with the capo ("E", "F#"), for the nut labels. */
export function noteNameOfOpen(tuning: Tuning, s: number, capo: number): string {
  return noteName(openStringPitch(tuning, s) + capo).replace(/-?\d+$/, '');
}
