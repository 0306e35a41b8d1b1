import { fft, realFft, type Spectrum } from '@riffscribe/core';
import type { ClipAudio } from '../types.js';

/**
 * Light spectral analysis of the clip for technique detection (pure, no allocation per bin beyond
 * what one frame needs): Hann-windowed frames centred on model frames (frame i at sample i * HOP)
 * through core's FFT, and per-frame attack features.
 */

export type { Spectrum };

const hannCache = new Map<number, Float64Array>();
function hann(size: number): Float64Array {
  let w = hannCache.get(size);
  if (w === undefined) {
    w = new Float64Array(size);
    for (let i = 0; i < size; i++) w[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size);
    hannCache.set(size, w);
  }
  return w;
}

/** Room for the spectrum of a `size`-sample frame, to reuse across frames. */
export function spectrumBuffer(size: number): Spectrum {
  return { re: new Float64Array(size), im: new Float64Array(size) };
}

/** A frame's samples before the transform, one buffer per size (the analysis is synchronous). */
const frameScratch = new Map<number, Float64Array>();

/**
 * Spectrum of `size` samples centred on `center` (zeros outside the clip), Hann window, written
 * into `into` when given (a frame at a time, without allocating), else into new arrays. Bins
 * 0..size/2 are the spectrum; the rest of `into` is working space (see realFft).
 */
export function frameSpectrum(
  audio: ClipAudio,
  center: number,
  size: number,
  into: Spectrum = spectrumBuffer(size),
): Spectrum {
  let x = frameScratch.get(size);
  if (x === undefined) {
    x = new Float64Array(size);
    frameScratch.set(size, x);
  }
  windowed(audio, center, size, x);
  realFft(x, into);
  return into;
}

/** Writes `size` samples centred on `center` (zeros outside the clip), Hann-windowed, into `out`. */
function windowed(audio: ClipAudio, center: number, size: number, out: Float64Array): void {
  out.fill(0);
  const w = hann(size);
  const start = center - size / 2;
  const from = Math.max(0, start);
  const x = audio.subarray(from, start + size);
  for (let j = 0; j < x.length; j++)
    out[from - start + j] = (x[j] ?? 0) * (w[from - start + j] ?? 0);
}

/**
 * The spectra of two frames (as frameSpectrum) from one complex FFT: frame A as the real part,
 * frame B as the imaginary part, separated by the transform's symmetry. Bins 0..size/2 of `a`
 * and `b` are written; the rest are left as they were.
 */
export function frameSpectrumPair(
  audio: ClipAudio,
  centerA: number,
  centerB: number,
  size: number,
  a: Spectrum,
  b: Spectrum,
  scratch: Spectrum,
): void {
  const { re, im } = scratch;
  windowed(audio, centerA, size, re);
  windowed(audio, centerB, size, im);
  fft(re, im);
  for (let k = 0; k <= size / 2; k++) {
    const m = k === 0 ? 0 : size - k;
    const zr = re[k] ?? 0;
    const zi = im[k] ?? 0;
    const cr = re[m] ?? 0;
    const ci = im[m] ?? 0;
    a.re[k] = (zr + cr) / 2;
    a.im[k] = (zi - ci) / 2;
    b.re[k] = (zi + ci) / 2;
    b.im[k] = (cr - zr) / 2;
  }
}

/**
 * Magnitudes of bins 0..size/2 of a spectrum (into `out` when given); with `upTo`, only bins
 * 0..upTo (the rest of `out` is left as it was).
 */
export function magnitudes(
  spec: Spectrum,
  out: Float64Array = new Float64Array(spec.re.length / 2 + 1),
  upTo = spec.re.length / 2,
): Float64Array {
  const n = Math.min(spec.re.length / 2, upTo) + 1;
  for (let k = 0; k < n; k++) {
    const r = spec.re[k] ?? 0;
    const i = spec.im[k] ?? 0;
    out[k] = Math.sqrt(r * r + i * i);
  }
  return out;
}

/**
 * Root mean square of a clip (0 for an empty one): from the sum the clip keeps when it has one,
 * else read in blocks in order (the same additions in the same order, so the same number).
 */
export function clipRms(audio: ClipAudio): number {
  if (audio.length === 0) return 0;
  if (audio.sumOfSquares !== undefined) return Math.sqrt(audio.sumOfSquares / audio.length);
  const BLOCK = 1 << 16;
  let sum = 0;
  for (let from = 0; from < audio.length; from += BLOCK) {
    for (const v of audio.subarray(from, from + BLOCK)) sum += v * v;
  }
  return Math.sqrt(sum / audio.length);
}
