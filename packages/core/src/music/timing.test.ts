import { describe, expect, it } from 'vitest';
import { plainNote } from '../events.js';
import { barStartTicks } from './export-meta.js';
import { scoreOf } from './score.js';
import { tickAt, timeAt } from './timing.js';

describe('notation timing', () => {
  // Two 4/4 bars: the first at 120 (2 s), the second slower (3 s).
  const grid = {
    beats: [0, 0.5, 1, 1.5, 2, 2.75, 3.5, 4.25, 5],
    downbeats: [0, 4, 8],
    beat_unit: 4 as const,
  };
  const score = scoreOf([plainNote({ time: 0, end_time: 4.9, string: 1, fret: 0 })], grid);
  const starts = barStartTicks(score);

  it('counts bar starts in ticks', () => {
    expect(starts.slice(0, 3)).toEqual([0, 3840, 7680]);
  });

  it('maps time to ticks inside each bar at its own tempo, and back', () => {
    expect(tickAt(score, starts, 0)).toBe(0);
    expect(tickAt(score, starts, 1)).toBe(1920);
    expect(tickAt(score, starts, 2)).toBe(3840);
    expect(tickAt(score, starts, 3.5)).toBe(5760);
    expect(timeAt(score, starts, 5760)).toBeCloseTo(3.5, 9);
    expect(timeAt(score, starts, 960)).toBeCloseTo(0.5, 9);
    for (const t of [0.1, 1.7, 2.3, 4.9]) {
      expect(timeAt(score, starts, tickAt(score, starts, t))).toBeCloseTo(t, 3);
    }
  });

  it('clamps outside the score', () => {
    expect(tickAt(score, starts, -3)).toBe(0);
    expect(timeAt(score, starts, -10)).toBe(0);
    expect(tickAt(score, starts, 99)).toBe(starts.at(-1));
  });
});
