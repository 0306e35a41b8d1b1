import { describe, expect, it } from 'vitest';
import { glide, tone } from '../../test/support/tones.js';
import { rampSeconds, readJunction } from './junction.js';

describe('readJunction', () => {
  it('reads a fast slide of four semitones (40 ms) as a glide', () => {
    const audio = tone(0.6, glide(60, 64, 0.28, 0.04));
    const j = readJunction(audio, 0.15, 0.4, 60, 64);
    expect(j.glideSeconds).toBeGreaterThan(0.024);
  });

  it('reads a jump of four semitones as a step', () => {
    const audio = tone(0.6, (t) => (t < 0.3 ? 60 : 64));
    const j = readJunction(audio, 0.15, 0.4, 60, 64);
    expect(j.glideSeconds).toBeLessThan(0.024);
  });
});

describe('rampSeconds', () => {
  const at = (pitch: number, hops: number) => new Array<number | null>(hops).fill(pitch);
  const gap = (hops: number) => new Array<number | null>(hops).fill(null);
  // A fast slide of five semitones as a SoundFont renders it (read off a render): the estimate
  // leaves the departing pitch hop by hop, breaks off with one stray value, then arrives.
  const slide = [
    ...at(47.05, 20),
    47.09,
    47.13,
    47.18,
    47.38,
    47.42,
    47.71,
    47.89,
    47.85,
    ...gap(3),
    50.42,
    ...gap(2),
    46.94,
    ...at(52.3, 10),
  ];

  it('times the ramp of a slide whose middle is unreadable', () => {
    expect(rampSeconds(slide, 47, 52, 8)).toBeGreaterThan(0.03);
  });

  it('reads no ramp in a step', () => {
    expect(rampSeconds([...at(47.05, 20), ...gap(4), ...at(52.3, 10)], 47, 52, 8)).toBe(0);
  });

  it('reads no ramp in the values a window straddling a step mixes', () => {
    const straddle = [...at(69.02, 20), 69.2, 69.5, 69.9, 70.4, 70.8, ...at(71, 10)];
    expect(rampSeconds(straddle, 69, 71, 8)).toBe(0);
  });

  it('reads no ramp where the string goes back (a vibrato, not a slide)', () => {
    const wobble = [...at(47.05, 20), 47.2, 47.4, 47.6, 47.3, 47.1, ...gap(3), ...at(52.3, 10)];
    expect(rampSeconds(wobble, 47, 52, 8)).toBe(0);
  });
});
