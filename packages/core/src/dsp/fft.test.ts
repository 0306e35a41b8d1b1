import { describe, expect, it } from 'vitest';
import { fft, realFft } from './fft.js';

/** The transform by its definition, O(n^2). */
function dft(re: ArrayLike<number>, im: ArrayLike<number>): [Float64Array, Float64Array] {
  const n = re.length;
  const outRe = new Float64Array(n);
  const outIm = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    for (let t = 0; t < n; t++) {
      const a = (-2 * Math.PI * k * t) / n;
      outRe[k]! += (re[t] ?? 0) * Math.cos(a) - (im[t] ?? 0) * Math.sin(a);
      outIm[k]! += (re[t] ?? 0) * Math.sin(a) + (im[t] ?? 0) * Math.cos(a);
    }
  }
  return [outRe, outIm];
}

describe('fft', () => {
  // Odd and even powers of two: a radix-2 pass before the radix-4 ones, or none.
  it.each([2, 4, 8, 32, 64, 512, 1024])('is the discrete Fourier transform at %i points', (n) => {
    const re = Float64Array.from({ length: n }, (_, i) => Math.sin(i * 0.37) + (i % 5) * 0.1);
    const im = Float64Array.from({ length: n }, (_, i) => Math.cos(i * 1.3) - (i % 3) * 0.2);
    const [wantRe, wantIm] = dft(re, im);
    fft(re, im);
    for (let k = 0; k < n; k++) {
      expect(re[k]).toBeCloseTo(wantRe[k] ?? 0, 9);
      expect(im[k]).toBeCloseTo(wantIm[k] ?? 0, 9);
    }
  });
});

describe('realFft', () => {
  it.each([4, 8, 64, 512])(
    'gives bins 0..n/2 of the transform of a real signal at %i points',
    (n) => {
      const x = Float64Array.from({ length: n }, (_, i) => Math.sin(i * 0.37) + (i % 5) * 0.1);
      const [wantRe, wantIm] = dft(x, new Float64Array(n));
      const into = { re: new Float64Array(n), im: new Float64Array(n) };
      realFft(x, into);
      for (let k = 0; k <= n / 2; k++) {
        expect(into.re[k]).toBeCloseTo(wantRe[k] ?? 0, 9);
        expect(into.im[k]).toBeCloseTo(wantIm[k] ?? 0, 9);
      }
    },
  );
});
