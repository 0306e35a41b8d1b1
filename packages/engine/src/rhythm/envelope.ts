import { NOTE_BINS } from '../notes/posteriorgram.js';
import type { ModelOutput } from '../types.js';
import { FRAME_RATE } from '../units.js';

/**
 * Onset strength: how much new sound starts at each model frame (FRAME_RATE a second), the
 * signal the tempo estimate and the beat tracker follow: the sum of Basic Pitch's onset
 * activations over the 88 bins, log-compressed, or, when no posteriorgrams are given, an impulse
 * at each note's onset. High-passed (a running mean taken away), half-wave rectified and scaled
 * to unit standard deviation, so that the trackers' costs have fixed units whatever the loudness.
 *
 * Measured on the string-model corpus and the SoundFont tuned part (tempo accuracy against their
 * nominal tempos, 18 + 14 clips): adding the rise of the note activations (weight 0.5 or 1) or an
 * impulse per detected note (weight 0.5 to 2) on top of the onset activations lost 1 to 4 clips
 * (onsets alone: 0.778 / 0.857; with rise 0.5 and notes 1: 0.667 / 0.786), so the onset head,
 * which Basic Pitch trains for exactly this, is used alone.
 */

/** A note as the rhythm stage reads it: onset time in seconds, MIDI pitch, attack strength. */
export interface RhythmNote {
  time: number;
  endTime: number;
  pitch: number;
  /** Peak onset activation 0..1 (DetectedNote.onset). */
  onset: number;
}

/** The posteriorgrams the rhythm stage reads (a subset of ModelOutput). */
export type RhythmActivations = Pick<ModelOutput, 'onsets'>;

/** Running mean taken away: about 0.5 s (Ellis 2007 high-passes the envelope the same way). */
const MEAN_SECONDS = 0.5;

/** Frames of a clip of `duration` seconds. */
export function frameCount(duration: number): number {
  return Math.max(0, Math.ceil(duration * FRAME_RATE));
}

/** Frames of onset activation read at a time. */
const ENVELOPE_RUN = 1024;

/**
 * The onset strength envelope over `length` frames, from the onset activations, or from the
 * notes when `activations` is null.
 */
export function onsetEnvelope(
  activations: RhythmActivations | null,
  notes: readonly RhythmNote[],
  length: number,
): Float32Array {
  const raw = new Float32Array(length);
  if (activations) {
    const { onsets } = activations;
    const n = Math.min(length, onsets.length);
    // Read a run of frames at a time (a long video's are on disk).
    const run = new Float64Array(ENVELOPE_RUN * NOTE_BINS);
    for (let from = 0; from < n; from += ENVELOPE_RUN) {
      const to = Math.min(n, from + ENVELOPE_RUN);
      onsets.readFrames(from, to, run);
      for (let t = from; t < to; t++) {
        const row = (t - from) * NOTE_BINS;
        let onset = 0;
        for (let b = 0; b < NOTE_BINS; b++) onset += run[row + b] ?? 0;
        // log1p compresses a six-string strum against one picked note.
        raw[t] = Math.log1p(2 * onset);
      }
    }
  } else {
    for (const note of notes) {
      const t = Math.round(note.time * FRAME_RATE);
      if (t >= 0 && t < length) raw[t] = (raw[t] ?? 0) + 0.5 + note.onset;
    }
  }
  return normalise(highPass(raw));
}

/** Takes away a centred running mean and keeps the positive part. */
function highPass(x: Float32Array): Float32Array {
  const half = Math.max(1, Math.round((MEAN_SECONDS * FRAME_RATE) / 2));
  const out = new Float32Array(x.length);
  let sum = 0;
  let lo = 0;
  let hi = 0;
  for (let t = 0; t < x.length; t++) {
    while (hi < x.length && hi <= t + half) sum += x[hi++] ?? 0;
    while (lo < t - half) sum -= x[lo++] ?? 0;
    const mean = sum / (hi - lo);
    out[t] = Math.max(0, (x[t] ?? 0) - mean);
  }
  return out;
}

function normalise(x: Float32Array): Float32Array {
  let sum = 0;
  let sq = 0;
  for (const v of x) {
    sum += v;
    sq += v * v;
  }
  const n = Math.max(1, x.length);
  const sd = Math.sqrt(Math.max(0, sq / n - (sum / n) ** 2));
  if (sd > 1e-9) for (let t = 0; t < x.length; t++) x[t] = (x[t] ?? 0) / sd;
  return x;
}

/** A Gaussian-smoothed copy (sigma in frames). */
export function smooth(x: Float32Array, sigma: number): Float32Array {
  const radius = Math.max(1, Math.ceil(3 * sigma));
  const kernel = Array.from({ length: 2 * radius + 1 }, (_, k) =>
    Math.exp(-0.5 * ((k - radius) / sigma) ** 2),
  );
  const out = new Float32Array(x.length);
  for (let t = 0; t < x.length; t++) {
    let s = 0;
    for (let k = -radius; k <= radius; k++) s += (x[t + k] ?? 0) * (kernel[k + radius] ?? 0);
    out[t] = s;
  }
  return out;
}
