import { FRETBOARD_FRETS } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import { note } from '../testing/notes';
import {
  MAX_STRING_GAP,
  NUT_X,
  capoX,
  fingerDots,
  fingerX,
  fretWireX,
  stringLineY,
} from './geometry';

const box = { width: 800, height: 160 };

describe('fretboard geometry', () => {
  it('spaces 22 frets narrower up the neck', () => {
    expect(fretWireX(0, box)).toBe(NUT_X);
    expect(fretWireX(FRETBOARD_FRETS, box)).toBeCloseTo(792, 6);
    const gap = (n: number) => fretWireX(n, box) - fretWireX(n - 1, box);
    expect(gap(1)).toBeGreaterThan(gap(12));
    expect(gap(12)).toBeGreaterThan(gap(22));
    expect(gap(22)).toBeGreaterThan(gap(1) / 2.5);
  });

  it('puts string 1 on top and a finger between its fret wires', () => {
    expect(stringLineY(1, box)).toBeLessThan(stringLineY(6, box));
    expect(fingerX(5, box)).toBeGreaterThan(fretWireX(4, box));
    expect(fingerX(5, box)).toBeLessThan(fretWireX(5, box));
    expect(fingerX(0, box)).toBeLessThan(NUT_X);
  });

  it('lights the right fret with a capo: tab frets count from the capo', () => {
    const [dot, open] = fingerDots(
      [note({ time: 0, string: 2, fret: 3 }), note({ time: 0, string: 1, fret: 0 })],
      2,
      box,
    );
    expect(dot).toMatchObject({ string: 2, absoluteFret: 5, label: '3', onCapo: false });
    expect(dot!.x).toBe(fingerX(5, box));
    expect(open).toMatchObject({ absoluteFret: 2, onCapo: true });
    expect(open!.x).toBe(capoX(2, box));
    expect(capoX(2, box)).toBeLessThan(fretWireX(2, box));
    expect(capoX(2, box)).toBeGreaterThan(fretWireX(1, box));
  });

  it('keeps strings at most 40 px apart on a fullscreen board, the neck centred', () => {
    const tall = { width: 1800, height: 900 };
    expect(stringLineY(2, tall) - stringLineY(1, tall)).toBe(MAX_STRING_GAP);
    const middle = (stringLineY(1, tall) + stringLineY(6, tall)) / 2;
    expect(Math.abs(middle - (14 + (900 - 24)) / 2)).toBeLessThan(1);
  });
});
