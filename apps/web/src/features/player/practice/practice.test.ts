import type { BeatGrid } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import { clicksBetween, countIn } from './metronome';
import { afterPass, normalizeTrainer, startTraining, type TrainerState } from './speedTrainer';

// 3/4 after a one-beat pickup at 0.5 s a beat, then the tempo slows to 0.6 s a beat.
const GRID: BeatGrid = {
  beats: [0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4.1, 4.7, 5.3],
  downbeats: [1, 4, 7],
  beat_unit: 4,
};

describe('metronome', () => {
  it('clicks on every beat in the window, the bar’s first accented', () => {
    expect(clicksBetween(GRID, 0.9, 2.6)).toEqual([
      { time: 1, accent: true },
      { time: 1.5, accent: false },
      { time: 2, accent: false },
      { time: 2.5, accent: true },
    ]);
    expect(clicksBetween(GRID, 6, 9)).toEqual([]);
  });

  it('counts in one bar at the tempo where the loop starts', () => {
    expect(countIn(GRID, 2.5)).toEqual([
      { time: 1, accent: true },
      { time: 1.5, accent: false },
      { time: 2, accent: false },
    ]);
    const slow = countIn(GRID, 4.1);
    expect(slow.map((c) => Math.round(c.time * 100) / 100)).toEqual([2.3, 2.9, 3.5]);
    expect(slow[0]?.accent).toBe(true);
  });
});

describe('speed trainer', () => {
  const trainer = { start: 0.5, target: 0.7, step: 0.1, passes: 2 };
  it('steps up after the passes asked, never past the target', () => {
    let s: TrainerState = startTraining(trainer);
    const speeds: number[] = [s.speed];
    for (let pass = 0; pass < 7; pass += 1) {
      s = afterPass(trainer, s);
      speeds.push(s.speed);
    }
    expect(speeds).toEqual([0.5, 0.5, 0.6, 0.6, 0.7, 0.7, 0.7, 0.7]);
  });

  it('counts only the passes that count (Listen & check: clean ones)', () => {
    const s = afterPass(trainer, startTraining(trainer), false);
    expect(s).toEqual({ speed: 0.5, done: 0 });
  });

  it('keeps its values in range', () => {
    expect(normalizeTrainer({ start: 0.1, target: 0.05, step: 2, passes: 0 })).toEqual({
      start: 0.25,
      target: 0.25,
      step: 0.5,
      passes: 1,
    });
  });
});
