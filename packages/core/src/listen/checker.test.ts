import { plainNote } from '../events.js';
import { DEFAULT_TUNING } from '../guitar.js';
import { describe, expect, it } from 'vitest';
import { MIN_MIDI, PITCH_COUNT } from './analysis.js';
import {
  expectedGroups,
  groupMatches,
  ListenChecker,
  passCountsForTrainer,
  pitchSounds,
} from './checker.js';

/** Pitch strengths with `loud` pitches at 10 over a floor of 1. */
function heard(...loud: number[]): Float32Array {
  const s = new Float32Array(PITCH_COUNT).fill(1);
  for (const p of loud) s[p - MIN_MIDI] = 10;
  return s;
}
const silence = new Float32Array(PITCH_COUNT);

describe('expectedGroups', () => {
  it('groups notes starting together, with the capo, leaving muted notes out', () => {
    const notes = [
      plainNote({ time: 1, end_time: 1.5, string: 5, fret: 3 }),
      plainNote({ time: 1.01, end_time: 1.5, string: 4, fret: 2 }),
      plainNote({ time: 2, end_time: 2.5, string: 1, fret: 0 }),
      { ...plainNote({ time: 3, end_time: 3.1, string: 6, fret: 5 }), mute: true },
    ];
    expect(expectedGroups(notes, DEFAULT_TUNING, 2)).toEqual([
      { time: 1, pitches: [50, 54], notes: [0, 1] },
      { time: 2, pitches: [66], notes: [2] },
    ]);
  });
});

describe('pitchSounds and groupMatches', () => {
  it('hears the note, not a note two semitones away, and not one still ringing', () => {
    expect(pitchSounds(48, heard(48), silence)).toBe(true);
    expect(pitchSounds(48, heard(50), silence)).toBe(false);
    // 48 rang before this attack at the same strength: the attack was something else.
    expect(pitchSounds(48, heard(48, 55), heard(48))).toBe(false);
  });

  it('checks a chord by its pitch classes, two thirds of them', () => {
    const am = [45, 52, 57, 60, 64];
    expect(groupMatches(am, heard(45, 52, 57, 60, 64), silence)).toBe(true);
    // Only E and A of A, C, E: two of three classes.
    expect(groupMatches(am, heard(45, 52), silence)).toBe(true);
    // Two semitones up (B, D, F#): none.
    expect(groupMatches(am, heard(47, 54, 59, 62, 66), silence)).toBe(false);
  });
});

describe('ListenChecker', () => {
  const groups = [
    { time: 1, pitches: [48], notes: [0] },
    { time: 2, pitches: [52], notes: [1] },
    { time: 3, pitches: [55], notes: [2] },
  ];

  it('hit within 0.1 s, early or late within 0.25 s, missed when it went by unheard', () => {
    const c = new ListenChecker(groups);
    expect(c.heard(1.05, heard(48), silence)).toBe(0);
    expect(c.heard(2.2, heard(52), silence)).toBe(1);
    expect(c.heard(3.5, heard(55), silence)).toBe(-1);
    expect(c.sweep(0, 3.4)).toEqual([2]);
    expect(c.verdicts).toEqual(['hit', 'late', 'missed']);
    expect(c.score(0, 4)).toMatchObject({ hits: 1, late: 1, missed: 1, total: 3 });
    expect(c.score(0, 4).score).toBeCloseTo(1 / 3);
  });

  it('a better attack replaces an early one; a new pass forgets the old verdicts', () => {
    const c = new ListenChecker(groups);
    c.heard(0.8, heard(48), silence);
    expect(c.verdicts[0]).toBe('early');
    c.heard(1.02, heard(48), silence);
    expect(c.verdicts[0]).toBe('hit');
    c.clear(0, 1.5);
    expect(c.verdicts[0]).toBeUndefined();
    expect(c.nextOpen(0)).toBe(0);
    c.matchNow(0);
    expect(c.nextOpen(0)).toBe(1);
  });
});

describe('passCountsForTrainer', () => {
  const pass = (hits: number, total: number) => ({
    hits,
    early: 0,
    late: 0,
    missed: total - hits,
    total,
    score: total ? hits / total : 0,
  });
  it('lets the trainer step up after a pass of at least 90 %, or one with nothing to judge', () => {
    expect(passCountsForTrainer(pass(9, 10))).toBe(true);
    expect(passCountsForTrainer(pass(8, 10))).toBe(false);
    expect(passCountsForTrainer(pass(0, 0))).toBe(true);
    expect(passCountsForTrainer(null)).toBe(true);
  });
});
