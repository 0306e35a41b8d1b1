import { describe, expect, it } from 'vitest';
import { DEFAULT_TUNING } from './guitar.js';
import { noteEventInputSchema, plainNote } from './events.js';
import {
  DOUBTFUL_CONFIDENCE,
  confirmNote,
  isDoubtful,
  moveToPosition,
  playablePositions,
} from './review.js';

const note = (over: Parameters<typeof plainNote>[0]) => plainNote(over);

describe('doubtful notes', () => {
  it('are the notes with a confidence below the threshold; none means checked', () => {
    const base = { time: 1, end_time: 1.2, string: 2, fret: 5 };
    expect(isDoubtful(note({ ...base, confidence: DOUBTFUL_CONFIDENCE - 0.01 }))).toBe(true);
    expect(isDoubtful(note({ ...base, confidence: DOUBTFUL_CONFIDENCE }))).toBe(false);
    expect(isDoubtful(note(base))).toBe(false);
  });

  it('confirming drops the confidence and keeps everything else', () => {
    const n = note({ time: 1, end_time: 1.2, string: 2, fret: 5, confidence: 0.1, mute: true });
    const checked = confirmNote(n);
    expect('confidence' in checked).toBe(false);
    expect({ ...checked, confidence: 0.1 }).toEqual(n);
    const plain = note({ time: 1, end_time: 1.2, string: 2, fret: 5 });
    expect(confirmNote(plain)).toBe(plain);
  });
});

describe('playablePositions', () => {
  it('lists every string and fret of the same pitch, the note’s own included', () => {
    // E4 = 64: 0 on e, 5 on B, 9 on G, 14 on D, 19 on A, 24 on low E.
    expect(playablePositions({ string: 1, fret: 0 }, DEFAULT_TUNING)).toEqual([
      { string: 1, fret: 0 },
      { string: 2, fret: 5 },
      { string: 3, fret: 9 },
      { string: 4, fret: 14 },
      { string: 5, fret: 19 },
      { string: 6, fret: 24 },
    ]);
  });

  it('stops at the neck’s last fret (22 frets, less the capo) and at open strings', () => {
    expect(playablePositions({ string: 2, fret: 5 }, DEFAULT_TUNING, 22 - 3)).toEqual([
      { string: 1, fret: 0 },
      { string: 2, fret: 5 },
      { string: 3, fret: 9 },
      { string: 4, fret: 14 },
      { string: 5, fret: 19 },
    ]);
    // Low E open: nothing lower exists anywhere else.
    expect(playablePositions({ string: 6, fret: 0 }, DEFAULT_TUNING)).toEqual([
      { string: 6, fret: 0 },
    ]);
  });

  it('follows the tuning (drop D: the low string is two frets further)', () => {
    const dropD = [38, 45, 50, 55, 59, 64] as const;
    expect(playablePositions({ string: 5, fret: 0 }, dropD)).toEqual([
      { string: 5, fret: 0 },
      { string: 6, fret: 7 },
    ]);
  });
});

describe('moveToPosition', () => {
  it('moves the note keeping its pitch and bends, and marks it checked', () => {
    const n = note({
      time: 1,
      end_time: 1.5,
      string: 1,
      fret: 7,
      bend_to_fret: 9,
      confidence: 0.2,
    });
    const moved = moveToPosition(n, { string: 2, fret: 12 }, DEFAULT_TUNING);
    expect(moved).toMatchObject({ string: 2, fret: 12, bend_to_fret: 14, time: 1 });
    expect(moved && 'confidence' in moved).toBe(false);
  });

  it('refuses a place of another pitch', () => {
    const n = note({ time: 1, end_time: 1.5, string: 1, fret: 7 });
    expect(moveToPosition(n, { string: 2, fret: 11 }, DEFAULT_TUNING)).toBeNull();
  });

  it('picking the note’s own place confirms it', () => {
    const n = note({ time: 1, end_time: 1.5, string: 1, fret: 7, confidence: 0.2 });
    const same = moveToPosition(n, { string: 1, fret: 7 }, DEFAULT_TUNING);
    expect(same).toMatchObject({ string: 1, fret: 7 });
    expect(same && 'confidence' in same).toBe(false);
  });
});

describe('saved notes and their confidence', () => {
  const base = { time: 1, end_time: 1.2, string: 2, fret: 5 };
  it('keeps a confidence in 0..1 and accepts a note without one', () => {
    expect(noteEventInputSchema.parse({ ...base, confidence: 0.25 }).confidence).toBe(0.25);
    expect('confidence' in noteEventInputSchema.parse(base)).toBe(false);
  });
  it('refuses a confidence outside 0..1', () => {
    expect(noteEventInputSchema.safeParse({ ...base, confidence: 1.5 }).success).toBe(false);
    expect(noteEventInputSchema.safeParse({ ...base, confidence: 'high' }).success).toBe(false);
  });
});
