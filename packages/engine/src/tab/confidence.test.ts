import { plainNote } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import type { DetectedNote, GuitarSetup, TabNote } from '../types.js';
import { fret, midi, seconds, stringNumber } from '../units.js';
import { heardConfidence, noteConfidence, withConfidence } from './confidence.js';

const STANDARD: GuitarSetup = { tuning: [40, 45, 50, 55, 59, 64], capo: 0, frets: 22 };

const detected = (time: number, pitch: number, onset = 0.95): DetectedNote => ({
  time: seconds(time),
  endTime: seconds(time + 0.3),
  pitch: midi(pitch),
  amplitude: 0.8,
  onset,
  bend: [],
});

const tabNote = (time: number, s: number, f: number, onset: number, p?: number): TabNote => ({
  ...detected(time, STANDARD.tuning[6 - s]! + f, onset),
  string: stringNumber(s),
  fret: fret(f),
  ...(p === undefined ? {} : { fingeringProbability: p }),
});

describe('note confidence', () => {
  it('maps the onset activation linearly from 0.6 (0) to 0.9 (1)', () => {
    expect(heardConfidence(0.5)).toBe(0);
    expect(heardConfidence(0.6)).toBe(0);
    expect(heardConfidence(0.75)).toBeCloseTo(0.5, 9);
    expect(heardConfidence(0.9)).toBe(1);
    expect(heardConfidence(1)).toBe(1);
  });

  it('multiplies it by the fingering model’s probability of the string, to 3 decimals', () => {
    expect(noteConfidence({ onset: 0.75, fingeringProbability: 0.8 })).toBe(0.4);
    expect(noteConfidence({ onset: 0.95, fingeringProbability: 0.4567 })).toBe(0.457);
    expect(noteConfidence({ onset: 0.95, fingeringProbability: 0 })).toBe(0);
    // A string that did not come from the model (a measurement's true tab) counts as sure.
    expect(noteConfidence({ onset: 0.95 })).toBe(1);
    expect(noteConfidence({ onset: 0.7 })).toBeCloseTo(1 / 3, 3);
  });
});

describe('withConfidence', () => {
  it('takes each event’s confidence from the tab note it starts with, on its string', () => {
    const tab = [tabNote(1, 3, 2, 0.75, 1), tabNote(1, 2, 3, 0.95, 0)];
    const events = [
      plainNote({ time: 1.005, end_time: 1.3, string: 3, fret: 2 }),
      plainNote({ time: 1, end_time: 1.3, string: 2, fret: 3 }),
    ];
    const out = withConfidence(events, tab, STANDARD);
    expect(out.map((n) => n.confidence)).toEqual([0.5, 0]);
  });

  it('uses the note sounding on the string when none starts there (a merged legato chain)', () => {
    const tab = [tabNote(1, 3, 2, 0.9, 1)];
    const [out] = withConfidence(
      [plainNote({ time: 1.2, end_time: 1.3, string: 3, fret: 2 })],
      tab,
      STANDARD,
    );
    expect(out?.confidence).toBe(1);
  });

  it('gives dead notes none, and a pitched note no tab note explains 0 (the review queue shows it)', () => {
    const tab = [tabNote(1, 3, 2, 0.9, 1)];
    const out = withConfidence(
      [
        plainNote({ time: 1, end_time: 1.3, string: 3, fret: 2, mute: true }),
        plainNote({ time: 2, end_time: 2.3, string: 3, fret: 2 }),
        plainNote({ time: 1, end_time: 1.3, string: 4, fret: 2 }),
      ],
      tab,
      STANDARD,
    );
    expect(out.map((n) => n.confidence)).toEqual([undefined, 0, 0]);
  });

  it('recomputes the confidence of a note a later stage moved: the model’s probability of its new string', () => {
    // The model put A3 (57) on string 3 fret 2 with 0.7, and gave string 4 fret 7 0.2.
    const source: TabNote = {
      ...tabNote(1, 3, 2, 0.95, 0.7),
      stringProbabilities: [0, 0, 0.7, 0.2, 0.1, 0],
    };
    const [moved] = withConfidence(
      [plainNote({ time: 1, end_time: 1.3, string: 4, fret: 7 })],
      [source],
      STANDARD,
    );
    expect(moved?.confidence).toBe(0.2);
  });
});
