import { midiToHz, SAMPLE_RATE } from '../../src/units.js';

/** A harmonic tone (five partials) whose pitch (MIDI) follows `pitchAt(t)`, `seconds` long. */
export function tone(seconds: number, pitchAt: (t: number) => number): Float32Array {
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

/** Smoothstep from `a` to `b` over [t0, t0 + d] (MIDI pitch against seconds). */
export const glide = (a: number, b: number, t0: number, d: number) => (t: number) => {
  const x = Math.min(1, Math.max(0, (t - t0) / d));
  return a + (b - a) * x * x * (3 - 2 * x);
};
