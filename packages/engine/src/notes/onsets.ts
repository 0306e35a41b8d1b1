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
  /**
   * Calls `visit` for every frame t < n and bin of the pitch range, with the value index i of
   * (t, bin) in noteValues and onsetValues, which hold frames [chunk - BEFORE, chunk +
   * CHUNK_FRAMES + 1) of both grids around t's chunk: the rows before and after t are at i -
   * NOTE_BINS and i + NOTE_BINS.
   */
  const forEachValue = (visit: (t: number, i: number, bin: number) => void): void => {
    for (let chunk = 0; chunk < n; chunk += CHUNK_FRAMES) {
      const first = chunk - BEFORE;
      frames.readFrames(first, first + rows, noteValues);
      onsets.readFrames(first, first + rows, onsetValues);
      const end = Math.min(n, chunk + CHUNK_FRAMES);
      for (let t = chunk; t < end; t++) {
        const row = (t - first) * NOTE_BINS;
        for (let b = lowBin; b <= highBin; b++) visit(t, row + b, b);
      }
    }
  };
  // The rise of the note activation at frame t, value index i.
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
    forEachValue((t, i) => {
      onsetMax = Math.max(onsetMax, onsetValues[i] ?? 0);
      riseMax = Math.max(riseMax, rise(t, i));
    });
    scale = riseMax > 0 ? onsetMax / riseMax : 0;
  }
  const strength = (t: number, i: number): number =>
    infer ? Math.max(onsetValues[i] ?? 0, rise(t, i) * scale) : (onsetValues[i] ?? 0);
  const out: Onset[] = [];
  forEachValue((t, i, b) => {
    const v = strength(t, i);
    if (v <= floor) return;
    const before = t > 0 ? strength(t - 1, i - NOTE_BINS) : 0;
    if (v <= before || (t < n - 1 && v < strength(t + 1, i + NOTE_BINS))) return;
    const p = b + MIDI_OFFSET;
    if (v <= opts.onsetThreshold) {
      const low = Math.min(valueAt(frames, t - 1, p), valueAt(frames, t - 2, p));
      const after = peakOver(frames, p, t, t + CONFIRM_FRAMES);
      if (after < opts.amplitudeThreshold || after - low < CONFIRMING_RISE) return;
    }
    out.push({ frame: t, pitch: p });
  });
  return out;
}
