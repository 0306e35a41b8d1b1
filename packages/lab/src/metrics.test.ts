import { plainNote } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import {
  combineSuggestionCounts,
  suggestionCounts,
  vibratoSplits,
} from './corpus/technique-metrics.js';
import {
  chordAccuracy,
  REVIEW_THRESHOLDS,
  combineChordAccuracy,
  combineReviewCounts,
  combineScores,
  combineTechniqueScores,
  fingeringAccuracy,
  keysAgree,
  maximumMatching,
  noteScores,
  parseChordLabel,
  parseKey,
  reviewCounts,
  pitchClassOf,
  scores,
  tabScores,
  type PlacedNote,
} from './metrics.js';

const note = (time: number, pitch: number, endTime = time + 0.5) => ({ time, endTime, pitch });
const placed = (time: number, pitch: number, string: number, fret: number): PlacedNote => ({
  time,
  endTime: time + 0.5,
  pitch,
  string,
  fret,
});

describe('noteScores', () => {
  it('matches same pitch with onsets within 50 ms', () => {
    const ref = [note(0, 60), note(1, 64), note(2, 67)];
    const est = [note(0.05, 60), note(1.0501, 64), note(2, 68), note(3, 70)];
    const s = noteScores(ref, est);
    expect(s.matched).toBe(1);
    expect(s.precision).toBeCloseTo(1 / 4);
    expect(s.recall).toBeCloseTo(1 / 3);
    expect(s.f1).toBeCloseTo((2 * 0.25 * (1 / 3)) / (0.25 + 1 / 3));
  });

  it('matches one to one: a doubled estimate counts once', () => {
    const s = noteScores([note(0, 60)], [note(0, 60), note(0.01, 60)]);
    expect(s).toMatchObject({ matched: 1, precision: 0.5, recall: 1 });
  });

  it('finds the largest matching, not the greedy one', () => {
    // Greedy closest-first pairs 0.03 with 0.04 and leaves both ends unmatched.
    const s = noteScores([note(0, 60), note(0.04, 60)], [note(0.03, 60), note(0.08, 60)]);
    expect(s.matched).toBe(2);
  });

  it('checks offsets within max(50 ms, 20% of the reference duration) when asked', () => {
    const ref = [note(0, 60, 1), note(2, 62, 2.1)];
    const est = [note(0, 60, 1.19), note(2, 62, 2.16)];
    expect(noteScores(ref, est, { withOffsets: true }).matched).toBe(1);
    expect(noteScores(ref, [note(0, 60, 1.21)], { withOffsets: true }).matched).toBe(0);
    expect(noteScores(ref, est).matched).toBe(2);
  });

  it('is zero, not NaN, for empty inputs', () => {
    expect(noteScores([], [])).toMatchObject({ precision: 0, recall: 0, f1: 0 });
    expect(noteScores([note(0, 60)], [])).toMatchObject({ precision: 0, recall: 0, f1: 0 });
  });
});

describe('tab scores and fingering accuracy', () => {
  it('needs the same string and fret for tab F1', () => {
    const ref = [placed(0, 64, 1, 0), placed(1, 64, 1, 0)];
    const est = [placed(0.02, 64, 1, 0), placed(1, 64, 2, 5)];
    expect(tabScores(ref, est)).toMatchObject({ matched: 1, precision: 0.5, recall: 0.5 });
  });

  it('counts right places among the true notes, unplaced ones as wrong', () => {
    const truth = [placed(0, 64, 1, 0), placed(0, 59, 2, 0), placed(1, 67, 1, 3)];
    const assigned = [placed(0, 64, 2, 5), placed(0, 59, 2, 0)];
    expect(fingeringAccuracy(truth, assigned)).toEqual({
      accuracy: 1 / 3,
      correct: 1,
      total: 3,
      unplaced: 1,
    });
  });

  it('builds matchings from a predicate', () => {
    expect(maximumMatching(2, 2, (r, e) => r === e)).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect(maximumMatching(0, 3, () => true)).toEqual([]);
  });
});

describe('chord labels', () => {
  it('reads pitch classes with any accidentals', () => {
    expect(pitchClassOf('Eb')).toBe(3);
    expect(pitchClassOf('D#')).toBe(3);
    expect(pitchClassOf('Cb')).toBe(11);
    expect(pitchClassOf('H')).toBeNull();
  });

  it('parses the engine labels', () => {
    expect(parseChordLabel('Ebmaj7/G')).toEqual({ root: 3, quality: 'maj7', bass: 7 });
    expect(parseChordLabel('C#m')).toEqual({ root: 1, quality: 'm', bass: 1 });
    expect(parseChordLabel('F5')).toEqual({ root: 5, quality: '5', bass: 5 });
    expect(parseChordLabel('Gadd9')).toEqual({ root: 7, quality: 'add9', bass: 7 });
    expect(parseChordLabel('Bbm7')).toEqual({ root: 10, quality: 'm7', bass: 10 });
    expect(parseChordLabel('D')).toEqual({ root: 2, quality: '', bass: 2 });
    expect(parseChordLabel('Q7')).toBeNull();
  });

  it('parses JAMS (Harte) labels and reduces them to the vocabulary', () => {
    expect(parseChordLabel('D#:maj')).toEqual({ root: 3, quality: '', bass: 3 });
    expect(parseChordLabel('D#:sus2(7)/1')).toEqual({ root: 3, quality: 'sus2', bass: 3 });
    expect(parseChordLabel('G#:maj6(*5)/1')).toEqual({ root: 8, quality: '6', bass: 8 });
    expect(parseChordLabel('C:maj/3')).toEqual({ root: 0, quality: '', bass: 4 });
    expect(parseChordLabel('A:min7/b7')).toEqual({ root: 9, quality: 'm7', bass: 7 });
    expect(parseChordLabel('C:maj(9)')).toEqual({ root: 0, quality: 'add9', bass: 0 });
    expect(parseChordLabel('G:9')).toEqual({ root: 7, quality: '7', bass: 7 });
    expect(parseChordLabel('N')).toBeNull();
    expect(parseChordLabel('C:weird')).toBeNull();
  });
});

describe('chordAccuracy', () => {
  const span = (time: number, end_time: number, chord: string) => ({ time, end_time, chord });

  it('weights by time and counts gaps in the estimate as wrong', () => {
    const ref = [span(0, 2, 'C:maj'), span(2, 4, 'A:min')];
    const est = [span(0, 1, 'C'), span(2, 3, 'Am'), span(3, 4, 'C')];
    expect(chordAccuracy(ref, est).accuracy).toBeCloseTo(0.5);
    expect(chordAccuracy(ref, est).seconds).toBeCloseTo(4);
  });

  it('compares at three levels', () => {
    const ref = [span(0, 1, 'D#:maj7/1')];
    expect(chordAccuracy(ref, [span(0, 1, 'Ebmaj7')]).accuracy).toBe(1);
    expect(chordAccuracy(ref, [span(0, 1, 'Eb')], 'quality').accuracy).toBe(0);
    expect(chordAccuracy(ref, [span(0, 1, 'Eb')], 'majmin').accuracy).toBe(1);
    expect(chordAccuracy(ref, [span(0, 1, 'Ebm')], 'majmin').accuracy).toBe(0);
    expect(chordAccuracy(ref, [span(0, 1, 'Ebsus4')], 'root').accuracy).toBe(1);
  });

  it('compares root and bass: a slash chord only where the reference has that bass', () => {
    const inversion = [span(0, 1, 'C/G')];
    expect(chordAccuracy(inversion, [span(0, 1, 'Cmaj7/G')], 'bass').accuracy).toBe(1);
    expect(chordAccuracy(inversion, [span(0, 1, 'C')], 'bass').accuracy).toBe(0);
    expect(chordAccuracy(inversion, [span(0, 1, 'G')], 'bass').accuracy).toBe(0);
    const root = [span(0, 2, 'A')];
    expect(chordAccuracy(root, [span(0, 1, 'A'), span(1, 2, 'A/C#')], 'bass').accuracy).toBe(0.5);
  });

  it('leaves out reference spans without a chord', () => {
    const ref = [span(0, 1, 'N'), span(1, 2, 'C:maj')];
    expect(chordAccuracy(ref, [span(0, 2, 'C')])).toEqual({ accuracy: 1, seconds: 1 });
    expect(chordAccuracy([], [span(0, 2, 'C')])).toEqual({ accuracy: 0, seconds: 0 });
  });

  it('counts each instant once when estimates overlap', () => {
    const ref = [span(0, 2, 'C:maj')];
    const est = [span(0, 1.5, 'C'), span(1, 2, 'Am')];
    expect(chordAccuracy(ref, est).accuracy).toBeCloseTo(0.75);
  });
});

describe('keys', () => {
  it('reads key names', () => {
    expect(parseKey('Eb major')).toEqual({ tonic: 3, mode: 'major' });
    expect(parseKey('F# minor')).toEqual({ tonic: 6, mode: 'minor' });
    expect(parseKey('A:minor')).toEqual({ tonic: 9, mode: 'minor' });
    expect(parseKey('')).toBeNull();
  });

  it('agrees on enharmonic spellings and needs the same mode', () => {
    expect(keysAgree('Eb major', 'D# major')).toBe(true);
    expect(keysAgree('E minor', 'E major')).toBe(false);
    expect(keysAgree('C major', '')).toBe(false);
  });
});

describe('combining clips', () => {
  it('sums counts for notes and technique scores (micro average)', () => {
    const s = combineScores([scores(1, 2, 2), scores(3, 4, 6)]);
    expect(s).toMatchObject({ matched: 4, reference: 6, estimated: 8 });
    const t = combineTechniqueScores([
      {
        bend: {
          precision: 1,
          recall: 0.5,
          f1: 0,
          truePositives: 1,
          falsePositives: 0,
          falseNegatives: 1,
        },
      },
      {
        bend: {
          precision: 0,
          recall: 0,
          f1: 0,
          truePositives: 0,
          falsePositives: 1,
          falseNegatives: 0,
        },
      },
    ]);
    expect(t.bend).toMatchObject({ truePositives: 1, falsePositives: 1, falseNegatives: 1 });
    expect(t.bend?.precision).toBeCloseTo(0.5);
    expect(t.bend?.recall).toBeCloseTo(0.5);
  });

  it('averages technique scores without counts', () => {
    const t = combineTechniqueScores([
      { mute: { precision: 1, recall: 1, f1: 1 } },
      { mute: { precision: 0, recall: 0.5, f1: 0 } },
    ]);
    expect(t.mute).toEqual({ precision: 0.5, recall: 0.75, f1: 0.5 });
  });

  it('weights chord accuracy by annotated time', () => {
    expect(
      combineChordAccuracy([
        { accuracy: 1, seconds: 3 },
        { accuracy: 0, seconds: 1 },
      ]),
    ).toEqual({ accuracy: 0.75, seconds: 4 });
  });
});

describe('reviewCounts', () => {
  const placed = (time: number, string: number, fret: number, confidence?: number) => ({
    time,
    endTime: time + 0.3,
    pitch: 40 + fret,
    string,
    fret,
    ...(confidence === undefined ? {} : { confidence }),
  });
  it('counts wrong notes (no tab match) and which of them each threshold flags', () => {
    const truth = [placed(1, 6, 5), placed(2, 6, 7), placed(3, 6, 9)];
    const found = [
      placed(1.01, 6, 5, 0.9), // right, sure
      placed(2, 5, 2, 0.35), // wrong string, doubtful below 0.4 and up
      placed(3, 6, 9, 0.45), // right but doubtful from 0.5: a false alarm
      placed(4, 6, 3, 0.65), // spurious, flagged from 0.7
      placed(5, 6, 3), // spurious, checked by a person: never doubtful
    ];
    const c = reviewCounts(truth, found);
    expect(c.notes).toBe(5);
    expect(c.wrong).toBe(3);
    expect(REVIEW_THRESHOLDS).toEqual([0.3, 0.4, 0.5, 0.6, 0.7]);
    expect(c.doubtful).toEqual([0, 1, 2, 2, 3]);
    expect(c.doubtfulWrong).toEqual([0, 1, 1, 1, 2]);
    const both = combineReviewCounts([c, c]);
    expect(both).toEqual({
      notes: 10,
      wrong: 6,
      doubtful: [0, 2, 4, 4, 6],
      doubtfulWrong: [0, 2, 2, 2, 4],
    });
  });
});

describe('vibratoSplits', () => {
  const setup = { tuning: [40, 45, 50, 55, 59, 64], capo: 0 };
  it('counts true vibrato notes re-struck as more notes of their pitch, and the extra notes', () => {
    const held = plainNote({ time: 1, end_time: 2, string: 2, fret: 5, vibrato: 'big' });
    const plain = plainNote({ time: 3, end_time: 4, string: 2, fret: 5 });
    const found = [
      plainNote({ time: 1.01, end_time: 1.4, string: 2, fret: 5 }),
      // Two re-picks of the same pitch (one on another string, one a semitone up) under it.
      plainNote({ time: 1.4, end_time: 1.7, string: 3, fret: 9 }),
      plainNote({ time: 1.7, end_time: 2, string: 2, fret: 6 }),
      // Not a split: another pitch, and a note under a note without vibrato.
      plainNote({ time: 1.5, end_time: 1.6, string: 1, fret: 3 }),
      plainNote({ time: 3.5, end_time: 4, string: 2, fret: 5 }),
    ];
    expect(vibratoSplits([held, plain], found, setup)).toEqual({ notes: 1, split: 1, extra: 2 });
    expect(vibratoSplits([held], found.slice(0, 1), setup)).toEqual({
      notes: 1,
      split: 0,
      extra: 0,
    });
  });
});

describe('suggestionCounts', () => {
  const setup = { tuning: [40, 45, 50, 55, 59, 64], capo: 0 };
  it('counts the suggested techniques per technique and how many the truth has', () => {
    const truth = [
      plainNote({ time: 1, end_time: 1.5, string: 3, fret: 7, leading_hammer_on: true }),
      plainNote({ time: 2, end_time: 2.5, string: 2, fret: 8 }),
    ];
    const found = [
      plainNote({
        time: 1.01,
        end_time: 1.5,
        string: 3,
        fret: 7,
        suggestions: [
          { technique: 'hammer_on', confidence: 0.4, fields: { leading_hammer_on: true } },
          { technique: 'vibrato', confidence: 0.2, fields: { vibrato: 'small' } },
        ],
      }),
      plainNote({
        time: 2,
        end_time: 2.5,
        string: 2,
        fret: 8,
        suggestions: [{ technique: 'bend', confidence: 0.1, fields: { bend_to_fret: 10 } }],
      }),
      // A suggestion on a note no true note matches is wrong.
      plainNote({
        time: 3,
        end_time: 3.5,
        string: 1,
        fret: 5,
        suggestions: [{ technique: 'vibrato', confidence: 0.3, fields: { vibrato: 'big' } }],
      }),
    ];
    const counts = suggestionCounts(truth, found, setup);
    expect(counts).toEqual({
      hammer_on: { suggested: 1, right: 1 },
      vibrato: { suggested: 2, right: 0 },
      bend: { suggested: 1, right: 0 },
    });
    expect(combineSuggestionCounts([counts, counts]).vibrato).toEqual({ suggested: 4, right: 0 });
  });
});
