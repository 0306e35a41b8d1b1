import type { ClipAudio } from '../types.js';
import { FRAME_RATE, HOP, SAMPLE_RATE } from '../units.js';
import { clipRms, frameSpectrum, magnitudes, spectrumBuffer } from './spectrum.js';

/**
 * Where the strings are struck (pure): a pick, a finger pluck or a dead-note slap puts a
 * broadband burst into the sound, heard above the partials that were already ringing; a
 * hammer-on, a pull-off or the arrival of a slide changes the pitch of a string that keeps
 * vibrating and adds little or nothing above 2 kHz. Per model frame (frame i centred on sample
 * i * HOP) this computes:
 *
 * - `flux`: log-magnitude spectral flux over ATTACK_BAND_HZ, each bin's rise against the loudest of
 *   its GLIDE_BINS neighbours in the frame two hops earlier (23 ms, so an attack is not split over
 *   two frames), averaged over the band. Log magnitudes make it a ratio: a soft pick after
 *   silence and a hard one over a ringing chord score alike, and the level of the recording does
 *   not matter.
 * - `energy`: power in 60 Hz..5 kHz (the partials), for the shape of what follows an attack.
 */

/** Window (samples) of the attack analysis: 23 ms, short enough to place an attack in time. */
export const ATTACK_WINDOW = 512;
/** Band of the attack flux: above most partials' energy, where a pick's noise is. */
export const ATTACK_BAND_HZ = [2000, 8000] as const;
/**
 * Bins (43 Hz each) either side of a bin whose level in the earlier frame it is measured against:
 * a partial that moved by up to this much between the two frames (a vibrato, a bend, the start
 * of a slide; about three quarters of a semitone at 2 kHz) is not an attack, while a pick's noise
 * fills the band between the partials (a maximum filter over frequency, as SuperFlux does against
 * vibrato). Chosen on the string model and the SoundFont tuned part from 0 to 3 bins
 * (docs/evaluation.md).
 */
export const GLIDE_BINS = 2;
/** Floor under magnitudes, relative to the clip's RMS, so silence does not make huge ratios. */
const FLOOR = 1e-3;

export interface AttackAnalysis {
  /** Attack flux per model frame (mean log rise, natural-log units). */
  flux: Float32Array;
  /** Power of the partials per model frame (arbitrary units, comparable within the clip). */
  energy: Float32Array;
}

/** Per-frame attack flux and energy of a clip (mono, SAMPLE_RATE). Empty for empty audio. */
export function analyseAttacks(audio: ClipAudio): AttackAnalysis {
  const frames = audio.length === 0 ? 0 : Math.floor(audio.length / HOP) + 1;
  const flux = new Float32Array(frames);
  const energy = new Float32Array(frames);
  if (frames === 0) return { flux, energy };
  const rms = clipRms(audio);
  const floor = Math.max(1e-9, FLOOR * rms * ATTACK_WINDOW);
  const lo = Math.round((ATTACK_BAND_HZ[0] * ATTACK_WINDOW) / SAMPLE_RATE);
  const hi = Math.round((ATTACK_BAND_HZ[1] * ATTACK_WINDOW) / SAMPLE_RATE);
  const eLo = Math.max(1, Math.round((60 * ATTACK_WINDOW) / SAMPLE_RATE));
  const eHi = Math.round((5000 * ATTACK_WINDOW) / SAMPLE_RATE);
  const bins = ATTACK_WINDOW / 2 + 1;
  // Log spectra of the last two frames, reused in a ring so the clip is never held whole.
  const history = [new Float64Array(bins), new Float64Array(bins), new Float64Array(bins)];
  const spectrum = spectrumBuffer(ATTACK_WINDOW);
  const mag = new Float64Array(bins);
  // Only the bins the flux reads (the band and its glide neighbours) need their logarithm.
  const logLo = Math.max(0, lo - GLIDE_BINS);
  const logHi = Math.min(bins - 1, hi + GLIDE_BINS);
  for (let t = 0; t < frames; t++) {
    magnitudes(frameSpectrum(audio, t * HOP, ATTACK_WINDOW, spectrum), mag, Math.max(eHi, logHi));
    const current = history[t % 3] ?? new Float64Array(bins);
    let e = 0;
    for (let k = eLo; k <= eHi; k++) {
      const m = mag[k] ?? 0;
      e += m * m;
    }
    for (let k = logLo; k <= logHi; k++) current[k] = Math.log(floor + (mag[k] ?? 0));
    energy[t] = e;
    if (t >= 2) {
      const earlier = history[(t - 2) % 3] ?? current;
      let rise = 0;
      for (let k = lo; k <= hi; k++) {
        let ref = Number.NEGATIVE_INFINITY;
        for (let j = k - GLIDE_BINS; j <= k + GLIDE_BINS; j++) ref = Math.max(ref, earlier[j] ?? 0);
        rise += Math.max(0, (current[k] ?? 0) - ref);
      }
      flux[t] = rise / (hi - lo + 1);
    }
  }
  return { flux, energy };
}

/**
 * Frames around a note's reported start in which its attack may lie: the model places onsets
 * within a frame or two, and a note that continues another can be reported a few frames early.
 */
export const ATTACK_SEARCH: readonly [number, number] = [-1, 4];

/** Strongest attack flux from `before` to `after` frames around `time` (seconds). */
export function attackAt(
  analysis: AttackAnalysis,
  time: number,
  [before, after]: readonly [number, number] = ATTACK_SEARCH,
): number {
  const center = Math.round(time * FRAME_RATE);
  let best = 0;
  for (let f = center + before; f <= center + after; f++)
    best = Math.max(best, analysis.flux[f] ?? 0);
  return best;
}

/**
 * Rise of the partials' power across `time`, in dB: the loudest of the two or three frames after
 * against the mean of the frames 35-46 ms before. A fresh pluck raises it; a legato note carries
 * on the energy the string already had.
 */
export function energyRiseAt(analysis: AttackAnalysis, time: number): number {
  const f = Math.round(time * FRAME_RATE);
  const e = analysis.energy;
  const before = ((e[f - 3] ?? 0) + (e[f - 4] ?? 0)) / 2;
  const after = Math.max(e[f + 2] ?? 0, e[f + 3] ?? 0);
  return 10 * Math.log10((after + 1e-12) / (before + 1e-12));
}
