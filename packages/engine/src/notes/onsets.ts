import type { ModelOutput } from '../types.js';
import { peakOver, valueAt } from './posteriorgram.js';

/**
 * Where notes begin (pure): local maxima over time of each pitch's onset activation.
 *
 * Like Basic Pitch, the onset activation is first combined with "inferred" onsets (sudden rises
 * of the note activation, scaled to the onset activation's range), because some attacks show up
 * only as a jump in energy. Beyond Basic Pitch, a peak below the onset threshold still counts
 * when the note activation confirms that a note starts there: it rises clearly within a few
 * frames and becomes strong. Plucks under a strummed chord and notes attacked softly have onset
 * peaks of 0.4 to 0.7; a peak that the note activation does not follow is cross-talk from
 * another string's attack, and is dropped.
 */

export interface OnsetOptions {
  onsetThreshold: number;
  amplitudeThreshold: number;
  minPitch: number;
  maxPitch: number;
  /** Add Basic Pitch's inferred onsets (default true). */
  inferOnsets?: boolean;
  /** Accept confirmed peaks down to WEAK_ONSET_FACTOR * onsetThreshold (default true). */
  weakOnsets?: boolean;
}

export interface Onset {
  frame: number;
  pitch: number;
}

/** Weak peaks count from this fraction of the onset threshold (0.42 at the spec's 0.7). */
export const WEAK_ONSET_FACTOR = 0.6;
/** Rise of the note activation (0..1) that confirms a weak peak as the start of a note. */
export const CONFIRMING_RISE = 0.2;
/** Frames after the peak in which the confirming rise must happen (about 46 ms). */
export const CONFIRM_FRAMES = 4;

/** The onset activation, optionally raised to the inferred onsets. Rows cover every bin. */
function onsetStrength(output: ModelOutput, opts: OnsetOptions): (t: number, p: number) => number {
  const { frames, onsets } = output;
  if (opts.inferOnsets === false) return (t, p) => valueAt(onsets, t, p);
  // Inferred onset: the smaller of the rises over one and over two frames, so that a single
  // noisy frame does not count.
  const rise = (t: number, p: number): number => {
    if (t < 2) return 0;
    const f = valueAt(frames, t, p);
    return Math.max(0, Math.min(f - valueAt(frames, t - 1, p), f - valueAt(frames, t - 2, p)));
  };
  let riseMax = 0;
  let onsetMax = 0;
  for (let t = 0; t < frames.length; t++) {
    for (let p = opts.minPitch; p <= opts.maxPitch; p++) {
      onsetMax = Math.max(onsetMax, valueAt(onsets, t, p));
      riseMax = Math.max(riseMax, rise(t, p));
    }
  }
  const scale = riseMax > 0 ? onsetMax / riseMax : 0;
  return (t, p) => Math.max(valueAt(onsets, t, p), rise(t, p) * scale);
}

/**
 * Onsets sorted by frame, then pitch. A peak is a frame whose strength is above the previous
 * frame's and at least the next frame's (the first frame of a plateau).
 */
export function findOnsets(output: ModelOutput, opts: OnsetOptions): Onset[] {
  const { frames } = output;
  const n = frames.length;
  const strength = onsetStrength(output, opts);
  const floor =
    opts.weakOnsets === false ? opts.onsetThreshold : opts.onsetThreshold * WEAK_ONSET_FACTOR;
  const out: Onset[] = [];
  for (let t = 0; t < n; t++) {
    for (let p = opts.minPitch; p <= opts.maxPitch; p++) {
      const v = strength(t, p);
      if (v <= floor) continue;
      if (!(v > (t > 0 ? strength(t - 1, p) : 0) && (t === n - 1 || v >= strength(t + 1, p))))
        continue;
      if (v <= opts.onsetThreshold) {
        const before = Math.min(valueAt(frames, t - 1, p), valueAt(frames, t - 2, p));
        const after = peakOver(frames, p, t, t + CONFIRM_FRAMES);
        if (after < opts.amplitudeThreshold || after - before < CONFIRMING_RISE) continue;
      }
      out.push({ frame: t, pitch: p });
    }
  }
  return out;
}
