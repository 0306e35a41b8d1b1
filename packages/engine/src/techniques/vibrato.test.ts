import { describe, expect, it } from 'vitest';
import { FRAME_RATE } from '../units.js';
import { classifyVibrato, measureVibrato } from './vibrato.js';

/** A pitch curve (semitones) of `seconds`, modulated at `hz` with `cents` depth where `on`. */
function curve(seconds: number, hz: number, cents: number, on = (_t: number) => true) {
  const n = Math.round(seconds * FRAME_RATE);
  return Float64Array.from({ length: n }, (_, i) => {
    const t = i / FRAME_RATE;
    return on(t) ? (cents / 100) * Math.sin(2 * Math.PI * hz * t) : 0;
  });
}
const allHeld = (c: ArrayLike<number>) => Array.from({ length: c.length }, () => true);

describe('vibrato', () => {
  it('finds a vibrato kept up over the note, small and big by depth', () => {
    const small = curve(1.5, 6.5, 15);
    const big = curve(1.5, 6.5, 35);
    expect(classifyVibrato(small, allHeld(small))).toBe('small');
    expect(classifyVibrato(big, allHeld(big))).toBe('big');
  });

  it('counts the rate where the residue repeats, though the crossings are off by one', () => {
    // At 6 Hz a window of two cycles at the spec's 6.5 Hz holds three or four crossings, which
    // alone would read 4.8 Hz in most windows and miss the period; every window is modulated.
    const c = curve(1.5, 6, 20);
    const m = measureVibrato(c, allHeld(c));
    expect(m?.rateHz).toBeGreaterThan(4.5);
    expect(m?.rateHz).toBeLessThan(7);
    expect(m?.regularity).toBeGreaterThan(0.5);
    expect(m?.windows).toBeGreaterThan(10);
    expect(m?.run).toBe(m?.windows);
    expect(classifyVibrato(c, allHeld(c))).toBe('small');
  });

  it('ignores a long note that wavers at a hand rate for a moment only', () => {
    // Three seconds held, 0.2 s of it wavering (a cycle and a bit): beating, not a vibrato. Half
    // a second of it (three cycles) is one.
    const c = curve(3, 6.5, 20, (t) => t >= 1.2 && t < 1.4);
    expect(measureVibrato(c, allHeld(c))).not.toBeNull();
    expect(classifyVibrato(c, allHeld(c))).toBe('');
    const kept = curve(3, 6.5, 20, (t) => t >= 1.2 && t < 1.7);
    expect(classifyVibrato(kept, allHeld(kept))).toBe('small');
  });

  it('keeps a short note whose every window is modulated', () => {
    const c = curve(0.4, 6.5, 20);
    expect(classifyVibrato(c, allHeld(c))).toBe('small');
  });
});
