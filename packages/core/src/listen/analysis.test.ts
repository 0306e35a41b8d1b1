import { describe, expect, it } from 'vitest';
import { ListenAnalyzer, MIN_MIDI, midiHz, type HeardOnset } from './analysis.js';

/** A plucked tone: `midi` with five decaying harmonics, from `at` seconds, at 48 kHz. */
function pluck(midi: number, at: number, seconds: number, rate = 48000): Float32Array {
  const out = new Float32Array(Math.round(seconds * rate));
  for (let i = Math.round(at * rate); i < out.length; i += 1) {
    const t = i / rate - at;
    let v = 0;
    for (let h = 1; h <= 5; h += 1) v += Math.sin(2 * Math.PI * midiHz(midi) * h * t) / h;
    out[i] = 0.3 * v * Math.exp(-3 * t);
  }
  return out;
}

function onsets(audio: Float32Array, rate = 48000): HeardOnset[] {
  const out: HeardOnset[] = [];
  const a = new ListenAnalyzer(rate, { onset: (o) => out.push(o), level: () => undefined });
  for (let i = 0; i < audio.length; i += 256) a.push(audio.subarray(i, i + 256), i / rate);
  return out;
}

describe('ListenAnalyzer', () => {
  it('finds the attack near its time and its pitch strongest of its neighbours', () => {
    const found = onsets(pluck(57, 0.5, 1.2));
    expect(found).toHaveLength(1);
    const o = found[0]!;
    expect(Math.abs(o.time - 0.5)).toBeLessThan(0.05);
    const s = (m: number) => o.salience[m - MIN_MIDI]!;
    for (const d of [-2, -1, 1, 2]) expect(s(57)).toBeGreaterThan(s(57 + d));
    // Its evidence is in within 0.15 s of the attack.
    expect(o.decidedAt - o.time).toBeLessThan(0.15);
  });

  it('hears a quiet input as a loud one, and silence as nothing', () => {
    const quiet = pluck(64, 0.4, 1).map((v) => v * 0.02);
    expect(onsets(quiet)).toHaveLength(1);
    expect(onsets(new Float32Array(48000))).toHaveLength(0);
  });
});
