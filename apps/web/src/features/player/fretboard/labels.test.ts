import { DEFAULT_TUNING, type Tuning } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import { staffStringNames } from './labels';

describe('staff string names', () => {
  it('names standard tuning e B G D A E, top string first', () => {
    expect(staffStringNames(DEFAULT_TUNING, 0)).toEqual(['e', 'B', 'G', 'D', 'A', 'E']);
  });

  it('follows the tuning and the capo', () => {
    const dropD = [38, 45, 50, 55, 59, 64] as unknown as Tuning;
    expect(staffStringNames(dropD, 0)).toEqual(['e', 'B', 'G', 'D', 'A', 'D']);
    expect(staffStringNames(DEFAULT_TUNING, 2)).toEqual(['f#', 'C#', 'A', 'E', 'B', 'F#']);
  });
});
