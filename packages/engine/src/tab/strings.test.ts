import { describe, expect, it } from 'vitest';
import type { TabNote } from '../types.js';
import { fret, midi, seconds, stringNumber } from '../units.js';
import { oneNotePerString } from './strings.js';

const note = (time: number, end: number, string: number, bend: number[] = []): TabNote => ({
  time: seconds(time),
  endTime: seconds(end),
  pitch: midi(64),
  amplitude: 0.8,
  onset: 0.9,
  bend,
  string: stringNumber(string),
  fret: fret(0),
});

describe('oneNotePerString', () => {
  it('ends a ringing note where the next note on its string starts, contour included', () => {
    const bend = Array.from({ length: 100 }, (_, i) => (i < 40 ? 0 : 2));
    const out = oneNotePerString([note(0, 1, 1, bend), note(0.2, 0.6, 2), note(0.4, 0.9, 1)]);
    expect(out[0]?.endTime).toBe(0.4);
    // floor(0.4 s x 86.13 frames/s) + 1 frames: the rise at frame 40 is the next note, cut off.
    expect(out[0]?.bend.length).toBe(35);
    expect(Math.max(...(out[0]?.bend ?? []))).toBe(0);
    expect(out[1]).toEqual(note(0.2, 0.6, 2));
    expect(out[2]).toEqual(note(0.4, 0.9, 1));
  });

  it('leaves notes that do not overlap, and input order, as they were', () => {
    const tab = [note(1, 1.5, 3), note(0, 0.5, 3), note(0.5, 0.9, 3)];
    expect(oneNotePerString(tab)).toEqual(tab);
  });
});
