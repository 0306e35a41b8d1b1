import type { ClipAudio } from '../types.js';

/**
 * Light spectral analysis of the clip for technique detection (pure, no allocation per bin beyond
 * what one frame needs): a radix-2 FFT, Hann-windowed frames centred on model frames (frame i at
 * sample i * HOP), and per-frame attack features.
 */

interface FftTables {
  reverse: Uint32Array;
  cos: Float64Array;
  sin: Float64Array;
}

const fftTables = new Map<number, FftTables>();

function tablesFor(n: number): FftTables {
  let t = fftTables.get(n);
  if (t === undefined) {
    const bits = Math.round(Math.log2(n));
    const reverse = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      reverse[i] = r;
    }
    const cos = new Float64Array(n / 2);
    const sin = new Float64Array(n / 2);
    for (let k = 0; k < n / 2; k++) {
      cos[k] = Math.cos((2 * Math.PI * k) / n);
      sin[k] = -Math.sin((2 * Math.PI * k) / n);
    }
    t = { reverse, cos, sin };
    fftTables.set(n, t);
  }
  return t;
}

/** In-place iterative radix-2 FFT of (re, im); length must be a power of two. */
export function fft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  if (n < 2) return;
  const { reverse, cos, sin } = tablesFor(n);
  for (let i = 0; i < n; i++) {
    const j = reverse[i] ?? 0;
    if (i < j) {
      const tr = re[i] ?? 0;
      re[i] = re[j] ?? 0;
      re[j] = tr;
      const ti = im[i] ?? 0;
      im[i] = im[j] ?? 0;
      im[j] = ti;
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const half = len >> 1;
    const step = n / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < half; k++) {
        const cr = cos[k * step] ?? 1;
        const ci = sin[k * step] ?? 0;
        const a = i + k;
        const b = a + half;
        const br = re[b] ?? 0;
        const bi = im[b] ?? 0;
        const xr = br * cr - bi * ci;
        const xi = br * ci + bi * cr;
        const ar = re[a] ?? 0;
        const ai = im[a] ?? 0;
        re[b] = ar - xr;
        im[b] = ai - xi;
        re[a] = ar + xr;
        im[a] = ai + xi;
      }
    }
  }
}

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

/** A windowed frame's spectrum: real and imaginary parts, `size / 2 + 1` bins used. */
export interface Spectrum {
  re: Float64Array;
  im: Float64Array;
}

/** Room for the spectrum of a `size`-sample frame, to reuse across frames. */
export function spectrumBuffer(size: number): Spectrum {
  return { re: new Float64Array(size), im: new Float64Array(size) };
}

/**
 * Spectrum of `size` samples centred on `center` (zeros outside the clip), Hann window, written
 * into `into` when given (a frame at a time, without allocating), else into new arrays.
 */
export function frameSpectrum(
  audio: ClipAudio,
  center: number,
  size: number,
  into: Spectrum = spectrumBuffer(size),
): Spectrum {
  const { re, im } = into;
  windowed(audio, center, size, re);
  im.fill(0);
  fft(re, im);
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
  for (let k = 0; k < n; k++) out[k] = Math.hypot(spec.re[k] ?? 0, spec.im[k] ?? 0);
  return out;
}

/** Root mean square of a clip (0 for an empty one), read in blocks in order. */
export function clipRms(audio: ClipAudio): number {
  if (audio.length === 0) return 0;
  const BLOCK = 1 << 16;
  let sum = 0;
  for (let from = 0; from < audio.length; from += BLOCK) {
    for (const v of audio.subarray(from, from + BLOCK)) sum += v * v;
  }
  return Math.sqrt(sum / audio.length);
}
