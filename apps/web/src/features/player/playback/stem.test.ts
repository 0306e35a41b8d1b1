import { describe, expect, it } from 'vitest';
import { stemPlayback } from './stem';

describe('guitar stem timing', () => {
  it('runs at 1.4286 times the speed ratio', () => {
    expect(stemPlayback(10, 1).time).toBeCloseTo(14.286, 9);
    expect(stemPlayback(10, 1).rate).toBe(1.4286);
    expect(stemPlayback(0, 0.5).rate).toBeCloseTo(0.7143, 9);
  });
});
