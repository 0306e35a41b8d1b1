import { describe, expect, it } from 'vitest';
import { medianTempo, seededRandom } from '@riffscribe/engine/stages';
import { beatGrid, beatsPerBar, rhythmScore, timeAt } from './pieces.js';
import { rhythmRecipes } from './recipes.js';

describe('rhythm corpus', () => {
  const all = [...rhythmRecipes('tuned'), ...rhythmRecipes('held')];

  it('has distinct names and seeds, and parts that share no seed', () => {
    expect(new Set(all.map((r) => r.name)).size).toBe(all.length);
    expect(new Set(all.map((r) => r.seed)).size).toBe(all.length);
  });

  it.each(all.map((r) => [r.name, r] as const))(
    '%s: beats increase, bar lines every bar after the pickup, tempo as asked',
    (_, r) => {
      const { truth } = rhythmScore(r);
      const perBar = beatsPerBar(r.pattern);
      expect(truth.perBar).toBe(perBar);
      expect(truth.beats.every((t, i) => i === 0 || t > (truth.beats[i - 1] ?? 0))).toBe(true);
      expect(truth.downbeats[0]).toBe(truth.beats[r.pickup]);
      truth.downbeats.forEach((d, k) => {
        expect(d).toBe(truth.beats[r.pickup + k * perBar]);
      });
      // The median tempo lies between the start and end tempos (drift), give or take the rubato.
      const lo = Math.min(r.bpm, r.bpm * (1 + r.drift)) * (1 - 3 * r.rubato - 0.01);
      const hi = Math.max(r.bpm, r.bpm * (1 + r.drift)) * (1 + 3 * r.rubato + 0.01);
      expect(truth.bpm).toBeGreaterThanOrEqual(lo);
      expect(truth.bpm).toBeLessThanOrEqual(hi);
      expect(truth.bpm).toBeCloseTo(medianTempo(truth.beats), 6);
      // Every note starts within the grid (after the first beat's jitter) and before the end.
      const first = truth.beats[0] ?? 0;
      expect(truth.notes.every((n) => n.time >= first - 0.05 && n.time < truth.seconds)).toBe(true);
      expect(truth.seconds).toBeGreaterThan(truth.beats.at(-1) ?? 0);
    },
  );

  it('is deterministic', () => {
    const r = all[0];
    if (!r) throw new Error('no recipes');
    expect(rhythmScore(r).truth).toEqual(rhythmScore(r).truth);
  });

  it('drifts by the asked fraction and maps beat positions linearly inside a beat', () => {
    const beats = beatGrid(seededRandom(1), { bpm: 100, drift: 0.08, rubato: 0 }, 41, 0.5);
    const first = (beats[1] ?? 0) - (beats[0] ?? 0);
    const last = (beats[40] ?? 0) - (beats[39] ?? 0);
    expect(first / last).toBeCloseTo(1.08, 6);
    expect(timeAt(beats, 2.5)).toBeCloseTo(((beats[2] ?? 0) + (beats[3] ?? 0)) / 2, 9);
  });
});
