import { DEFAULT_TUNING, TUNING_PRESETS } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import { hzToMidi, noteName, readTuner, stringNames } from './tunerMath';

describe('tuner', () => {
  it('names notes', () => {
    expect(noteName(40)).toBe('E2');
    expect(noteName(69)).toBe('A4');
    expect(noteName(61)).toBe('C#4');
    expect(hzToMidi(440)).toBe(69);
  });

  it('finds the nearest string of the tuning and how far off it is', () => {
    const a = readTuner(110, DEFAULT_TUNING, 0);
    expect(a).toMatchObject({ string: 5, target: 45, inTune: true });
    expect(a!.cents).toBeCloseTo(0, 6);
    const sharp = readTuner(112, DEFAULT_TUNING, 0);
    expect(sharp!.cents).toBeCloseTo(31.2, 0);
    expect(sharp!.inTune).toBe(false);
    expect(readTuner(329.63, DEFAULT_TUNING, 0)!.string).toBe(1);
  });

  it('uses the capo and the lesson tuning', () => {
    // Capo 2: the low string sounds F#2 (92.5 Hz).
    expect(readTuner(92.5, DEFAULT_TUNING, 2)).toMatchObject({ string: 6, target: 42 });
    const dropD = TUNING_PRESETS.find((t) => t.id === 'drop-d')!.pitches;
    expect(readTuner(73.42, dropD, 0)).toMatchObject({ string: 6, target: 38, inTune: true });
  });

  it('names the strings, high e first, as they sound with the capo', () => {
    expect(stringNames(DEFAULT_TUNING, 0)).toEqual(['E4', 'B3', 'G3', 'D3', 'A2', 'E2']);
    expect(stringNames(DEFAULT_TUNING, 2)).toEqual(['F#4', 'C#4', 'A3', 'E3', 'B2', 'F#2']);
  });

  it('clamps the gauge to +-50 cents', () => {
    const r = readTuner(100, DEFAULT_TUNING, 0)!;
    expect(Math.abs(r.cents)).toBeGreaterThan(50);
    expect(Math.abs(r.gauge)).toBe(50);
    expect(readTuner(0, DEFAULT_TUNING, 0)).toBeNull();
    expect(readTuner(Number.NaN, DEFAULT_TUNING, 0)).toBeNull();
  });
});
