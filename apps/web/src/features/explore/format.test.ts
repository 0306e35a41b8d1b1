import { describe, expect, it } from 'vitest';
import { formatClock, pageCount, plural } from './format';

describe('format', () => {
  it('formats clocks, pages and plurals', () => {
    expect(formatClock(null)).toBeNull();
    expect(formatClock(7.4)).toBe('0:07');
    expect(formatClock(75)).toBe('1:15');
    expect(pageCount(0, 12)).toBe(1);
    expect(pageCount(12, 12)).toBe(1);
    expect(pageCount(13, 12)).toBe(2);
    expect(plural(1, 'open')).toBe('1 open');
    expect(plural(0, 'open')).toBe('0 opens');
  });
});
