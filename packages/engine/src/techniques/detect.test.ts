import { describe, expect, it } from 'vitest';
import type { GuitarSetup, TabNote } from '../types.js';
import { FRAME_RATE, fret, midi, seconds, stringNumber } from '../units.js';
import { detectTechniques, findBend, findVibrato, pitchArr } from './detect.js';

const SETUP: GuitarSetup = { tuning: [40, 45, 50, 55, 59, 64], capo: 0, frets: 22 };
const frames = (s: number) => Math.round(s * FRAME_RATE);

function tab(
  time: number,
  end: number,
  string: number,
  f: number,
  bend: (t: number) => number = () => 0,
  onset = 0.9,
): TabNote {
  const n = Math.max(1, frames(end - time));
  return {
    time: seconds(time),
    endTime: seconds(end),
    pitch: midi(SETUP.tuning[6 - string]! + f),
    amplitude: 0.8,
    onset,
    bend: Array.from({ length: n }, (_, i) => bend(i / FRAME_RATE)),
    string: stringNumber(string),
    fret: fret(f),
  };
}

describe('pitchArr', () => {
  it('has floor(duration * 22050 / 256) + 1 points, 1 = unbent, +3 per semitone, clamped', () => {
    const note = tab(0, 0.5, 2, 7, (t) => (t > 0.2 ? 5 : 0));
    const arr = pitchArr(note);
    expect(arr).toHaveLength(Math.floor(0.5 * FRAME_RATE) + 1);
    expect(arr[0]).toBe(1);
    expect(arr.at(-1)).toBe(10);
  });

  it('defaults to [1, 1] without a contour', () => {
    expect(pitchArr({ ...tab(0, 0.5, 2, 7), bend: [] })).toEqual([1, 1]);
  });
});

describe('findBend', () => {
  it('finds a whole-step bend and its release', () => {
    const up = (t: number) => (t < 0.1 ? 0 : t < 0.3 ? ((t - 0.1) / 0.2) * 2 : t < 0.6 ? 2 : 0);
    expect(findBend(tab(0, 0.9, 3, 7, up).bend, 7)).toEqual({ to: 9, release: 7 });
  });

  it('finds a held half-step bend without release', () => {
    const half = (t: number) => Math.min(1, t * 5);
    expect(findBend(tab(0, 0.6, 2, 8, half).bend, 8)).toEqual({ to: 9, release: null });
  });

  it('ignores a quarter-tone curl', () => {
    expect(findBend(tab(0, 0.6, 2, 8, (t) => Math.min(0.3, t)).bend, 8)).toBeNull();
  });
});

describe('findVibrato', () => {
  const wave = (cents: number) => (t: number) => (cents / 100) * Math.sin(2 * Math.PI * 6.5 * t);

  it('tells small (15 cents) from big (35 cents) vibrato at 6.5 Hz', () => {
    expect(findVibrato(tab(0, 1, 2, 5, wave(15)).bend)).toBe('small');
    expect(findVibrato(tab(0, 1, 2, 5, wave(35)).bend)).toBe('big');
  });

  it('finds none on a steady note, a slow drift or a short note', () => {
    expect(findVibrato(tab(0, 1, 2, 5).bend)).toBe('');
    expect(findVibrato(tab(0, 1, 2, 5, (t) => 0.1 * t).bend)).toBe('');
    expect(findVibrato(tab(0, 0.2, 2, 5, wave(35)).bend)).toBe('');
  });
});

describe('detectTechniques', () => {
  it('marks a hammer-on and a pull-off between unplucked notes on one string', () => {
    const events = detectTechniques(
      [tab(0, 0.3, 3, 5), tab(0.3, 0.6, 3, 7, undefined, 0.2), tab(0.6, 0.9, 3, 5, undefined, 0.2)],
      new Float32Array(0),
      SETUP,
    );
    expect(events[0]?.trailing_hammer_on).toBe(true);
    expect(events[1]?.leading_hammer_on).toBe(true);
    expect(events[1]?.trailing_pull_off).toBe(true);
    expect(events[2]?.leading_pull_off).toBe(true);
  });

  it('marks a slide when the first note glides toward the second', () => {
    const glide = (t: number) => (t > 0.25 ? ((t - 0.25) / 0.05) * 1.5 : 0);
    const events = detectTechniques(
      [tab(0, 0.3, 2, 5, glide), tab(0.3, 0.7, 2, 7, undefined, 0.1)],
      new Float32Array(0),
      SETUP,
    );
    expect(events[0]?.trailing_slide).toBe(true);
    expect(events[1]?.leading_slide).toBe(true);
    expect(events[1]?.leading_hammer_on).toBe(false);
  });

  it('leaves plucked notes, and notes on other strings, alone', () => {
    const events = detectTechniques(
      [tab(0, 0.3, 3, 5), tab(0.3, 0.6, 3, 7), tab(0.3, 0.6, 2, 8, undefined, 0.1)],
      new Float32Array(0),
      SETUP,
    );
    for (const e of events) {
      expect(e.trailing_hammer_on || e.leading_hammer_on || e.leading_slide).toBe(false);
    }
  });

  it('writes bend and vibrato on the note events', () => {
    const events = detectTechniques(
      [
        tab(0, 0.8, 3, 7, (t) => Math.min(2, t * 8)),
        tab(1, 2, 1, 12, (t) => 0.35 * Math.sin(2 * Math.PI * 6.5 * t)),
      ],
      new Float32Array(0),
      SETUP,
    );
    expect(events[0]?.bend_to_fret).toBe(9);
    expect(events[1]?.vibrato).toBe('big');
    expect(events[1]?.event_type).toBe('note');
  });
});
