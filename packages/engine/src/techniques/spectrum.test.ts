import { describe, expect, it } from 'vitest';
import { clipRms, frameSpectrum, frameSpectrumPair, spectrumBuffer } from './spectrum.js';

describe('frameSpectrumPair', () => {
  it('gives both frames the spectra frameSpectrum gives them one at a time', () => {
    const audio = Float32Array.from(
      { length: 5000 },
      (_, i) => Math.sin(i * 0.05) + 0.3 * Math.sin(i * 0.71 + 1) + (i % 7) * 0.01,
    );
    const size = 1024;
    // Inside the clip, and overlapping its start and its end (zeros outside).
    for (const [ca, cb] of [
      [2000, 2064],
      [100, 164],
      [4900, 4964],
    ] as const) {
      const a = spectrumBuffer(size);
      const b = spectrumBuffer(size);
      frameSpectrumPair(audio, ca, cb, size, a, b, spectrumBuffer(size));
      const oneA = frameSpectrum(audio, ca, size);
      const oneB = frameSpectrum(audio, cb, size);
      for (let k = 0; k <= size / 2; k++) {
        expect(a.re[k]).toBeCloseTo(oneA.re[k] ?? 0, 9);
        expect(a.im[k]).toBeCloseTo(oneA.im[k] ?? 0, 9);
        expect(b.re[k]).toBeCloseTo(oneB.re[k] ?? 0, 9);
        expect(b.im[k]).toBeCloseTo(oneB.im[k] ?? 0, 9);
      }
    }
  });
});

describe('clipRms', () => {
  it('is the root mean square, 0 for an empty clip', () => {
    expect(clipRms(new Float32Array(0))).toBe(0);
    expect(clipRms(new Float32Array(200_000).fill(0.5))).toBeCloseTo(0.5, 12);
  });
});
