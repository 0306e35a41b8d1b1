import { describe, expect, it } from 'vitest';
import { note } from '../testing/notes';
import { buildNoteIndex, firstStartingAt, soundingAt, windowRange } from './noteIndex';

describe('note index', () => {
  const notes = [
    note({ time: 0, end_time: 4, string: 6 }),
    note({ time: 1, end_time: 1.2, string: 1 }),
    note({ time: 2, end_time: 2.2, string: 6 }),
    note({ time: 3, end_time: 3.5, string: 1 }),
    note({ time: 5, end_time: 5.1, string: 6 }),
  ];
  const index = buildNoteIndex(notes);

  it('links neighbours on the same string', () => {
    expect([...index.prevOnString]).toEqual([-1, -1, 0, 1, 2]);
    expect([...index.nextOnString]).toEqual([2, 3, 4, -1, -1]);
    expect(index.maxDuration).toBe(4);
  });

  it('finds notes reaching into a window through the longest note', () => {
    const [from, to] = windowRange(index, 3.8, 4.5);
    expect(from).toBe(0);
    expect(to).toBe(4);
    expect(soundingAt(index, 3.9)).toEqual([0]);
    expect(soundingAt(index, 3.2)).toEqual([0, 3]);
    expect(soundingAt(index, 4)).toEqual([]);
  });

  it('binary-searches starts', () => {
    expect(firstStartingAt(notes, -1)).toBe(0);
    expect(firstStartingAt(notes, 2)).toBe(2);
    expect(firstStartingAt(notes, 9)).toBe(5);
  });

  it('keeps windows small in a long lesson', () => {
    const many = Array.from({ length: 5000 }, (_, i) =>
      note({ time: i * 0.12, string: 1 + (i % 6) }),
    );
    const big = buildNoteIndex(many);
    const [from, to] = windowRange(big, 300, 302);
    expect(to - from).toBeLessThan(25);
    expect(many[from]!.end_time).toBeGreaterThanOrEqual(300 - big.maxDuration);
  });
});
