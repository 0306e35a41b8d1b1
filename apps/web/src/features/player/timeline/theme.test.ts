import { describe, expect, it } from 'vitest';
import { contrastRatio, parseColor, relativeLuminance } from './theme';

describe('canvas theme colours', () => {
  it('reads the short and long hex forms and rgb()', () => {
    // The minified stylesheet writes #ffffff as #fff: both must read as white.
    expect(parseColor('#fff')).toEqual([255, 255, 255]);
    expect(parseColor(' #ffffff ')).toEqual([255, 255, 255]);
    expect(parseColor('#14161c')).toEqual([20, 22, 28]);
    expect(parseColor('rgb(20, 22, 28)')).toEqual([20, 22, 28]);
    expect(parseColor('rgba(20 22 28 / 0.5)')).toEqual([20, 22, 28]);
    expect(parseColor('oklch(0.5 0.1 20)')).toBeNull();
  });

  it('computes WCAG luminance and contrast', () => {
    expect(relativeLuminance('#fff')).toBeCloseTo(1, 5);
    expect(relativeLuminance('#000')).toBeCloseTo(0, 5);
    expect(contrastRatio('#000', '#fff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777', '#fff')).toBeCloseTo(4.48, 2);
  });
});
