import type { RowSource } from './posteriorgram.js';
import { CONTOUR_BINS_PER_SEMITONE, MIDI_OFFSET } from './posteriorgram.js';

/**
 * The sounding pitch of a note frame by frame, from Basic Pitch's contour posteriorgram (pure).
 *
 * Per frame, the strongest contour bin within BEND_RANGE semitones of the nominal pitch, weighted
 * by a broad Gaussian so that a neighbouring note's contour does not capture the curve, then
 * refined between bins by a parabola through the peak and its two neighbours. Guitar bends reach
 * about two to three semitones up; releases come back to the nominal pitch.
 */

/** Semitones searched on each side of the nominal pitch. */
const BEND_RANGE = 3.5;
/** Width (semitones) of the weighting that prefers the nominal pitch when peaks compete. */
const PRIOR_SIGMA = 2;
/** Below this contour activation a frame says nothing; it keeps the previous frame's value. */
const MIN_ACTIVATION = 0.05;

/**
 * @returns one value per frame in [start, end): semitones relative to `pitch` (0 = in tune).
 */
export function bendCurve(
  contours: RowSource,
  pitch: number,
  start: number,
  end: number,
): number[] {
  const center = (pitch - MIDI_OFFSET) * CONTOUR_BINS_PER_SEMITONE;
  const reach = Math.round(BEND_RANGE * CONTOUR_BINS_PER_SEMITONE);
  const sigmaBins = PRIOR_SIGMA * CONTOUR_BINS_PER_SEMITONE;
  const out: number[] = [];
  let previous = 0;
  for (let t = Math.max(0, start); t < Math.min(contours.length, end); t++) {
    const row = contours.at(t);
    if (row === undefined) break;
    let bestBin = -1;
    let bestScore = 0;
    for (let b = Math.max(0, center - reach); b <= Math.min(row.length - 1, center + reach); b++) {
      const v = row[b] ?? 0;
      if (v < MIN_ACTIVATION) continue;
      const score = v * Math.exp(-((b - center) ** 2) / (2 * sigmaBins ** 2));
      if (score > bestScore) {
        bestScore = score;
        bestBin = b;
      }
    }
    if (bestBin < 0) {
      out.push(previous);
      continue;
    }
    const left = row[bestBin - 1] ?? 0;
    const mid = row[bestBin] ?? 0;
    const right = row[bestBin + 1] ?? 0;
    const curvature = left - 2 * mid + right;
    const shift =
      curvature < 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (left - right)) / curvature)) : 0;
    previous = (bestBin + shift - center) / CONTOUR_BINS_PER_SEMITONE;
    out.push(previous);
  }
  return out;
}
