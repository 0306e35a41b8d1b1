import { describe, expect, it } from 'vitest';
import { beatCounts, beatF1, medianTempo, tempoAgrees } from './metrics.js';

describe('beat metrics', () => {
  it('matches beats one to one within ±70 ms', () => {
    // 0.5 and 0.56 both lie near the reference 0.5: only one may match it.
    expect(beatCounts([0.5, 1, 1.5], [0.5, 0.56, 1.06, 1.6])).toEqual({
      reference: 3,
      estimate: 4,
      matched: 2,
    });
    // P = 2/4, R = 2/3: F1 = 2 * (1/2 * 2/3) / (1/2 + 2/3) = 4/7.
    expect(beatF1([0.5, 1, 1.5], [0.5, 0.56, 1.06, 1.6])).toBeCloseTo(4 / 7, 9);
    expect(beatF1([1, 2, 3], [1, 2, 3])).toBe(1);
    expect(beatF1([1, 2, 3], [])).toBe(0);
  });

  it('finds the greedy matching that a nearest-first choice would miss', () => {
    // 1.00 -> 0.95 leaves 1.06 for 1.12; a nearest-first rule would pair 1.00 with 1.06 only.
    expect(beatCounts([0.95, 1.12], [1.0, 1.06]).matched).toBe(2);
  });

  it('reads tempo from the median gap and judges it within 4 %', () => {
    expect(medianTempo([0, 0.5, 1, 1.5, 2.6])).toBeCloseTo(120, 9);
    expect(tempoAgrees(120, 124)).toEqual({ acc1: true, acc2: true });
    expect(tempoAgrees(120, 60)).toEqual({ acc1: false, acc2: true });
    expect(tempoAgrees(120, 40.5)).toEqual({ acc1: false, acc2: true });
    expect(tempoAgrees(120, 100)).toEqual({ acc1: false, acc2: false });
  });
});
