import { describe, expect, it } from 'vitest';
import { midiToHz, SAMPLE_RATE } from '../units.js';
import { readJunction } from './junction.js';

/** A harmonic tone whose pitch (MIDI) follows `pitchAt(t)`, `seconds` long. */
function tone(seconds: number, pitchAt: (t: number) => number): Float32Array {
  const out = new Float32Array(Math.round(seconds * SAMPLE_RATE));
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    phase += (2 * Math.PI * midiToHz(pitchAt(i / SAMPLE_RATE))) / SAMPLE_RATE;
    let v = 0;
    for (let h = 1; h <= 5; h++) v += Math.sin(h * phase) / h;
    out[i] = 0.3 * v;
  }
  return out;
}

/** Smoothstep from `a` to `b` over [t0, t0 + d]. */
const glide = (a: number, b: number, t0: number, d: number) => (t: number) => {
  const x = Math.min(1, Math.max(0, (t - t0) / d));
  return a + (b - a) * x * x * (3 - 2 * x);
};

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
