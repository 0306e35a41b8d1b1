import { describe, expect, it } from 'vitest';
import { firstAtLeast } from './sorted.js';

describe('firstAtLeast', () => {
  const id = (x: number) => x;
  it('counts the items below the value, ties and ends included', () => {
    const values = [1, 2, 2, 5];
    expect([0, 1, 2, 3, 5, 6].map((v) => firstAtLeast(values, v, id))).toEqual([0, 0, 1, 3, 3, 4]);
    expect(firstAtLeast([], 3, id)).toBe(0);
    expect(firstAtLeast([{ t: 0.5 }, { t: 1.5 }], 1, (n) => n.t)).toBe(1);
  });
});
