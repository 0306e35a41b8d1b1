import { describe, expect, it } from 'vitest';
import { MAX_EXTRAPOLATION, MediaClock } from './clock';

describe('media clock', () => {
  it('shows the element time when paused', () => {
    const c = new MediaClock();
    expect(c.read(4.2, 1000, 1, false)).toBe(4.2);
    expect(c.read(4.2, 2000, 1, false)).toBe(4.2);
  });

  it('extrapolates between coarse updates at the playback rate, up to a limit', () => {
    const c = new MediaClock();
    c.read(10, 1000, 0.5, true);
    expect(c.read(10, 1040, 0.5, true)).toBeCloseTo(10.02, 9);
    expect(c.read(10, 5000, 0.5, true)).toBeCloseTo(10 + MAX_EXTRAPOLATION, 9);
  });

  it('never steps back by jitter while playing, but follows a seek', () => {
    const c = new MediaClock();
    c.read(10, 1000, 1, true);
    const shown = c.read(10, 1050, 1, true);
    expect(c.read(10.03, 1051, 1, true)).toBe(shown);
    expect(c.read(2, 1100, 1, true)).toBe(2);
  });
});
