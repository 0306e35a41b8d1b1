import { describe, expect, it } from 'vitest';
import {
  CALIBRATION_CLICKS,
  CALIBRATION_NEEDED,
  calibratedLatency,
  clicksAnswered,
} from './calibration.js';

const clicks = Array.from({ length: CALIBRATION_CLICKS }, (_, k) => 1 + k * 0.5);

describe('calibration', () => {
  it('measures the delay as the median offset of the notes played on the clicks', () => {
    // Offsets 0.08 to 0.15 s, one stray attack between clicks that belongs to none.
    const offsets = [0.12, 0.08, 0.1, 0.15, 0.11, 0.09, 0.13, 0.1];
    const heard = [...clicks.map((c, k) => c + (offsets[k] ?? 0)), 2.72];
    expect(clicksAnswered(clicks, heard)).toBe(8);
    expect(calibratedLatency(clicks, heard)).toBeCloseTo(0.11, 9);
  });

  it('counts a note from 0.1 s before its click to 0.4 s after, no further', () => {
    expect(clicksAnswered([1], [0.89])).toBe(0);
    expect(clicksAnswered([1], [0.91])).toBe(1);
    expect(clicksAnswered([1], [1.39])).toBe(1);
    expect(clicksAnswered([1], [1.41])).toBe(0);
  });

  it('keeps no delay when too few clicks got a note', () => {
    const few = clicks.slice(0, CALIBRATION_NEEDED - 1).map((c) => c + 0.1);
    expect(clicksAnswered(clicks, few)).toBe(CALIBRATION_NEEDED - 1);
    expect(calibratedLatency(clicks, few)).toBeNull();
    const enough = clicks.slice(0, CALIBRATION_NEEDED).map((c) => c + 0.1);
    expect(calibratedLatency(clicks, enough)).toBeCloseTo(0.1, 9);
  });
});
