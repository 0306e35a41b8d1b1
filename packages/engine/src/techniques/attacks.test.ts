import { describe, expect, it } from 'vitest';
import { SAMPLE_RATE } from '../units.js';
import { analyseAttacks } from './attacks.js';

/** A harmonic tone at `f0(t)` Hz (partials up to 8 kHz, falling 1/k), one second long. */
function tone(f0: (t: number) => number): Float32Array {
  const out = new Float32Array(SAMPLE_RATE);
  const phase = new Float64Array(40);
  for (let i = 0; i < out.length; i++) {
    const f = f0(i / SAMPLE_RATE);
    let v = 0;
    for (let k = 1; k * f < 8000 && k <= 40; k++) {
      phase[k - 1] = (phase[k - 1] ?? 0) + (2 * Math.PI * k * f) / SAMPLE_RATE;
      v += Math.sin(phase[k - 1] ?? 0) / k;
    }
    out[i] = 0.2 * v;
  }
  return out;
}

const peak = (flux: Float32Array, from: number, to: number) => Math.max(...flux.slice(from, to));

describe('analyseAttacks', () => {
  it('hears a pick of noise over a ringing string, not a vibrato moving its partials', () => {
    const vibrato = tone((t) => 220 * 2 ** ((0.4 * Math.sin(2 * Math.PI * 6 * t)) / 12));
    const picked = tone(() => 220);
    // A 10 ms burst of (seeded) noise half-way through: the pick.
    let seed = 1;
    for (let i = 0; i < 220; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const at = SAMPLE_RATE / 2 + i;
      picked[at] = (picked[at] ?? 0) + 0.5 * (seed / 2147483648 - 0.5);
    }
    // Frames clear of the tone's own start.
    const still = peak(analyseAttacks(vibrato).flux, 10, 80);
    const pick = peak(analyseAttacks(picked).flux, 40, 50);
    expect(pick).toBeGreaterThan(0.1);
    expect(still).toBeLessThan(0.2 * pick);
  });
});
