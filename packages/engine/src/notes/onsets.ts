import type { ModelOutput } from '../types.js';
import { MIDI_OFFSET, NOTE_BINS, peakOver, valueAt } from './posteriorgram.js';

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

/** Frames read from the grids at a time by findOnsets. */
const CHUNK_FRAMES = 512;
/** Frames before a chunk that its frames' strengths read (t - 1 and that frame's rise). */
const BEFORE = 3;

/**
 * Onsets sorted by frame, then pitch. A peak is a frame whose strength is above the previous
 * frame's and at least the next frame's (the first frame of a plateau). The strength is the onset
 * activation, optionally raised to the inferred onsets (the smaller of the note activation's rises
 * over one and over two frames, so that a single noisy frame does not count), scaled to the onset
 * activation's range. The grids are read a chunk of frames at a time, in two passes (the scale,
 * then the peaks).
 */
export function findOnsets(output: ModelOutput, opts: OnsetOptions): Onset[] {
  const { frames, onsets } = output;
  const n = frames.length;
  const infer = opts.inferOnsets !== false;
  const floor =
    opts.weakOnsets === false ? opts.onsetThreshold : opts.onsetThreshold * WEAK_ONSET_FACTOR;
  const lowBin = Math.max(0, opts.minPitch - MIDI_OFFSET);
  const highBin = Math.min(NOTE_BINS - 1, opts.maxPitch - MIDI_OFFSET);
  const rows = CHUNK_FRAMES + BEFORE + 1;
  const noteValues = new Float64Array(rows * NOTE_BINS);
  const onsetValues = new Float64Array(rows * NOTE_BINS);
  /** Frames [chunk - BEFORE, chunk + CHUNK_FRAMES + 1) of both grids; returns the first. */
  const load = (chunk: number): number => {
    const first = chunk - BEFORE;
    frames.readFrames(first, first + rows, noteValues);
    onsets.readFrames(first, first + rows, onsetValues);
    return first;
  };
  // The rise of the note activation at frame t, value index i (the frame's row at i - bin).
  const rise = (t: number, i: number): number => {
    if (t < 2) return 0;
    const f = noteValues[i] ?? 0;
    return Math.max(
      0,
      Math.min(f - (noteValues[i - NOTE_BINS] ?? 0), f - (noteValues[i - 2 * NOTE_BINS] ?? 0)),
    );
  };
  let scale = 0;
  if (infer) {
    let riseMax = 0;
    let onsetMax = 0;
    for (let chunk = 0; chunk < n; chunk += CHUNK_FRAMES) {
      const first = load(chunk);
      const end = Math.min(n, chunk + CHUNK_FRAMES);
      for (let t = chunk; t < end; t++) {
        const row = (t - first) * NOTE_BINS;
        for (let b = lowBin; b <= highBin; b++) {
          onsetMax = Math.max(onsetMax, onsetValues[row + b] ?? 0);
          riseMax = Math.max(riseMax, rise(t, row + b));
        }
      }
    }
    scale = riseMax > 0 ? onsetMax / riseMax : 0;
  }
  const strength = (t: number, i: number): number =>
    infer ? Math.max(onsetValues[i] ?? 0, rise(t, i) * scale) : (onsetValues[i] ?? 0);
  const out: Onset[] = [];
  for (let chunk = 0; chunk < n; chunk += CHUNK_FRAMES) {
    const first = load(chunk);
    const end = Math.min(n, chunk + CHUNK_FRAMES);
    for (let t = chunk; t < end; t++) {
      const row = (t - first) * NOTE_BINS;
      for (let b = lowBin; b <= highBin; b++) {
        const i = row + b;
        const v = strength(t, i);
        if (v <= floor) continue;
        if (!(
          v > (t > 0 ? strength(t - 1, i - NOTE_BINS) : 0) &&
          (t === n - 1 || v >= strength(t + 1, i + NOTE_BINS))
        ))
          continue;
        const p = b + MIDI_OFFSET;
        if (v <= opts.onsetThreshold) {
          const before = Math.min(valueAt(frames, t - 1, p), valueAt(frames, t - 2, p));
          const after = peakOver(frames, p, t, t + CONFIRM_FRAMES);
          if (after < opts.amplitudeThreshold || after - before < CONFIRMING_RISE) continue;
        }
        out.push({ frame: t, pitch: p });
      }
    }
  }
  return out;
}
