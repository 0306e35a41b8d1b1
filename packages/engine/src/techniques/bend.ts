import { PITCH_POINT_MAX, PITCH_POINT_MIN, PITCH_STEPS_PER_FRET } from '@riffscribe/core';
import { HOP, SAMPLE_RATE } from '../units.js';
import { meanFilter } from './curves.js';

/**
 * Bends on one note's pitch curve (pure). The curve is in semitones relative to the fretted
 * pitch, one value per model frame. A running mean over about two-thirds of a vibrato cycle first
 * flattens vibrato (so a wide upward vibrato, which never leaves its half-step, is not a bend)
 * while a bend, held for a tenth of a second or more, keeps its height.
 */

export interface BendOptions {
  /** Lowest height (semitones) of a bend: a quarter-tone curl is not written as a bend. */
  minSemitones: number;
  /** Frames the curve must stay at least that high. */
  minFrames: number;
  /** A release comes back down by at least this much from the top (semitones). */
  releaseSemitones: number;
  /** Radius (frames) of the running mean that flattens vibrato. */
  smoothRadius: number;
}

export const BEND_OPTIONS: BendOptions = {
  minSemitones: 0.7,
  minFrames: 4,
  releaseSemitones: 0.6,
  smoothRadius: 4,
};

export interface Bend {
  /** Semitones at the top, rounded: bend_to_fret = fret + this. */
  up: number;
  /** Semitones above the fret after the release, rounded, or null when the bend is held. */
  releasedTo: number | null;
}

/** The bend on a relative pitch curve, or null. */
export function findBend(curve: ArrayLike<number>, opts: BendOptions = BEND_OPTIONS): Bend | null {
  const smooth = meanFilter(curve, opts.smoothRadius);
  let peak = Number.NEGATIVE_INFINITY;
  let peakAt = -1;
  let above = 0;
  let longest = 0;
  smooth.forEach((v, i) => {
    if (Number.isNaN(v)) return;
    if (v > peak) {
      peak = v;
      peakAt = i;
    }
    above = v >= opts.minSemitones ? above + 1 : 0;
    longest = Math.max(longest, above);
  });
  if (peakAt < 0 || peak < opts.minSemitones || longest < opts.minFrames) return null;
  let low = peak;
  for (let i = peakAt; i < smooth.length; i++) {
    const v = smooth[i] ?? Number.NaN;
    if (!Number.isNaN(v)) low = Math.min(low, v);
  }
  const up = Math.max(1, Math.round(peak));
  const releasedTo =
    peak - low >= opts.releaseSemitones ? Math.max(0, Math.min(up - 1, Math.round(low))) : null;
  return { up, releasedTo };
}

/**
 * pitch_arr of the spec: points = floor(duration * 22050 / 256) + 1, value 1 + 3 * semitones,
 * clamped -8..10, two decimals. `curve` starts at the note's start; points past its end repeat
 * its last value. A flat curve gives all ones.
 */
export function pitchArray(curve: ArrayLike<number>, durationSeconds: number): number[] {
  const points = Math.max(2, Math.floor((durationSeconds * SAMPLE_RATE) / HOP) + 1);
  const out: number[] = [];
  let last = 0;
  for (let i = 0; i < points; i++) {
    const v = i < curve.length ? (curve[i] ?? Number.NaN) : Number.NaN;
    if (!Number.isNaN(v)) last = v;
    const p = 1 + PITCH_STEPS_PER_FRET * last;
    out.push(Math.round(Math.min(PITCH_POINT_MAX, Math.max(PITCH_POINT_MIN, p)) * 100) / 100);
  }
  return out;
}

/** A bent note's curve for pitch_arr: vibrato-flattened, bend shape kept. */
export function smoothedBend(
  curve: ArrayLike<number>,
  opts: BendOptions = BEND_OPTIONS,
): Float64Array {
  return meanFilter(curve, Math.max(1, opts.smoothRadius >> 1));
}
