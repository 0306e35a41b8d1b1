import { plainNote } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import type { GuitarSetup } from '../types.js';
import { FRAME_RATE, midiToHz, SAMPLE_RATE } from '../units.js';
import type { AttackAnalysis } from './attacks.js';
import { deadenShortNotes, findMutes } from './mutes.js';

const SETUP: GuitarSetup = { tuning: [40, 45, 50, 55, 59, 64], capo: 0, frets: 22 };

/** Attack flux with a strike at each time, the partials' power dying at once after `dead`. */
function attacksAt(times: readonly number[], dead: number, seconds = 3): AttackAnalysis {
  const frames = Math.round(seconds * FRAME_RATE);
  const flux = new Float32Array(frames);
  const energy = new Float32Array(frames).fill(1);
  for (const t of times) flux[Math.round(t * FRAME_RATE)] = 1;
  const d = Math.round(dead * FRAME_RATE);
  energy.fill(0.001, d + 3);
  return { flux, energy };
}

describe('findMutes', () => {
  it('writes a dead note on the nearest string that is not sounding, at its fret', () => {
    // String 4 rings through the dead note at 1.5 s; string 2 stopped at 0.9 s.
    const ringing = plainNote({ time: 1.1, end_time: 2.5, string: 4, fret: 7 });
    const stopped = plainNote({ time: 0.4, end_time: 0.9, string: 2, fret: 5 });
    const mutes = findMutes([stopped, ringing], attacksAt([0.4, 1.1, 1.5], 1.5), SETUP);
    expect(mutes).toHaveLength(1);
    expect(mutes[0]).toMatchObject({ string: 2, fret: 5, mute: true });
    expect(mutes[0]!.time).toBeCloseTo(1.5, 1);
  });

  it('finds a soft dead note that stands alone, not a soft click in a busy stretch or a damping', () => {
    // Picks of strength 1 at 0.3, 0.7 and 2.4 s; a soft click (0.3 of a pick) at 1.5 s that adds
    // power which dies at once: a dead note. The same click 50 ms after a pick is not alone, and
    // a click where the sound only falls (a string damped) adds no power.
    const notes = [0.3, 0.7, 2.4].map((time, i) =>
      plainNote({ time, end_time: time + 0.3, string: 6 - i, fret: 3 }),
    );
    const clip = (click: number, addsPower: boolean, extraPick?: number): AttackAnalysis => {
      const frames = Math.round(3 * FRAME_RATE);
      const flux = new Float32Array(frames);
      const energy = new Float32Array(frames).fill(0.01);
      for (const n of notes) flux[Math.round(n.time * FRAME_RATE)] = 1;
      if (extraPick !== undefined) flux[Math.round(extraPick * FRAME_RATE)] = 1;
      const c = Math.round(click * FRAME_RATE);
      flux[c] = 0.3;
      if (addsPower) energy.fill(1, c, c + 3);
      else energy.fill(1, c - 10, c);
      return { flux, energy };
    };
    const found = findMutes(notes, clip(1.5, true), SETUP);
    expect(found).toHaveLength(1);
    expect(found[0]!.time).toBeCloseTo(1.5, 1);
    expect(findMutes(notes, clip(1.5, false), SETUP)).toHaveLength(0);
    // A pick 50 ms before the click that no note explains (a missed note): the click is not alone.
    expect(findMutes(notes, clip(1.5, true, 1.45), SETUP).map((m) => m.time)).not.toContainEqual(
      expect.closeTo(1.5, 1),
    );
  });

  it('reads the decay from the peak of the partials, which can follow the click by two frames', () => {
    // A dead note on a low string: the click at frame c, the partials' power building up to its
    // peak two frames later and falling 16 dB in the six frames after that peak, but only 8 dB
    // six frames after the click (decayDb is 12).
    const notes = [0.3, 2.4].map((time, i) =>
      plainNote({ time, end_time: time + 0.3, string: 6 - i, fret: 3 }),
    );
    const frames = Math.round(3 * FRAME_RATE);
    const flux = new Float32Array(frames);
    const energy = new Float32Array(frames).fill(0.001);
    for (const n of notes) flux[Math.round(n.time * FRAME_RATE)] = 1;
    const c = Math.round(1.5 * FRAME_RATE);
    flux[c] = 1;
    const db = [0, 6, 10, 9, 7, 5, 2, 0, -6];
    db.forEach((v, k) => {
      energy[c + k] = 10 ** ((v - 10) / 10);
    });
    const found = findMutes(notes, { flux, energy }, SETUP);
    expect(found.map((m) => m.time)).toEqual([expect.closeTo(1.5, 1)]);
  });

  it('takes the nearest note when no string is free', () => {
    const notes = [1, 2, 3, 4, 5, 6].map((s) =>
      plainNote({ time: 1 + 0.05 * s, end_time: 2.5, string: s, fret: s }),
    );
    const mutes = findMutes(notes, attacksAt([...notes.map((n) => n.time), 1.9], 1.9), SETUP);
    expect(mutes).toHaveLength(1);
    expect(mutes[0]).toMatchObject({ string: 6, fret: 6, mute: true });
  });
});

/** A plucked tone of `midi` (five partials) at `at` seconds, its amplitude falling `dbPerSecond`. */
function pluck(audio: Float32Array, at: number, midi: number, dbPerSecond: number): void {
  const f0 = midiToHz(midi);
  const start = Math.round(at * SAMPLE_RATE);
  for (let i = 0; start + i < audio.length; i++) {
    const t = i / SAMPLE_RATE;
    const gain = 10 ** ((-dbPerSecond * t) / 20);
    let v = 0;
    for (let h = 1; h <= 5; h++) v += Math.sin(2 * Math.PI * h * f0 * t) / h;
    audio[start + i] = (audio[start + i] ?? 0) + 0.2 * gain * v;
  }
}

describe('deadenShortNotes', () => {
  // String 3, fret 7 in standard tuning: D4 (62).
  const note = (time: number, seconds: number) =>
    plainNote({ time, end_time: time + seconds, string: 3, fret: 7 });

  it('turns a short note whose partials die at once into a dead note at its string and fret', () => {
    const audio = new Float32Array(SAMPLE_RATE);
    pluck(audio, 0.3, 62, 600); // gone (60 dB down) in 0.1 s: a string stopped by the hand
    const [out] = deadenShortNotes([note(0.3, 0.12)], audio, SETUP);
    expect(out).toMatchObject({ mute: true, string: 3, fret: 7 });
    expect(out!.end_time - out!.time).toBeCloseTo(0.08, 5);
  });

  it('keeps a short note that rings on, and a long one', () => {
    const audio = new Float32Array(2 * SAMPLE_RATE);
    pluck(audio, 0.3, 62, 40); // a fretted string: tens of dB per second
    const out = deadenShortNotes([note(0.3, 0.12), note(0.3, 0.6)], audio, SETUP);
    expect(out.map((n) => n.mute)).toEqual([false, false]);
    const dead = new Float32Array(2 * SAMPLE_RATE);
    pluck(dead, 0.3, 62, 600);
    expect(deadenShortNotes([note(0.3, 0.6)], dead, SETUP)[0]?.mute).toBe(false);
  });

  it('keeps a note at the end of the clip, and slurred notes', () => {
    const audio = new Float32Array(Math.round(0.4 * SAMPLE_RATE));
    pluck(audio, 0.3, 62, 600);
    expect(deadenShortNotes([note(0.3, 0.08)], audio, SETUP)[0]?.mute).toBe(false);
    const long = new Float32Array(SAMPLE_RATE);
    pluck(long, 0.3, 62, 600);
    const slurred = { ...note(0.3, 0.12), leading_hammer_on: true };
    expect(deadenShortNotes([slurred], long, SETUP)[0]?.mute).toBe(false);
  });
});
