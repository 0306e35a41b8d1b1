import { DEFAULT_TUNING } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import type { ModelOutput } from '../types.js';
import { Activation } from './posteriorgram.js';
import { FRAME_RATE } from '../units.js';
import { bendCurve } from './contour.js';
import { ALL_RULES, extractNotes } from './extract.js';
import { defaultNoteOptions, type NoteOptions } from './options.js';

/** A note drawn into constructed posteriorgrams. Frames are model frames; `end` is exclusive. */
interface Drawn {
  pitch: number;
  start: number;
  end: number;
  /** Note activation while it sounds (default 0.8). */
  level?: number;
  /** Onset activation at `start`, half of it one frame either side (default 0.9; 0 = none). */
  onset?: number;
  /** Frames over which the note activation ramps up (default 0: a step, as after a pluck). */
  ramp?: number;
  /** Sounding pitch in semitones from `pitch`, per frame from `start`. */
  bend?: (frame: number) => number;
}

function posteriorgram(
  n: number,
  notes: Drawn[],
  extraOnsets: { pitch: number; frame: number; value: number }[] = [],
): ModelOutput {
  const frames = Array.from({ length: n }, () => new Float32Array(88));
  const onsets = Array.from({ length: n }, () => new Float32Array(88));
  const contours = Array.from({ length: n }, () => new Float32Array(264));
  const raise = (rows: Float32Array[], t: number, bin: number, v: number) => {
    const row = rows[t];
    if (row !== undefined && bin >= 0 && bin < row.length) row[bin] = Math.max(row[bin] ?? 0, v);
  };
  for (const d of notes) {
    const bin = d.pitch - 21;
    const level = d.level ?? 0.8;
    const ramp = d.ramp ?? 0;
    for (let t = d.start; t < d.end; t++) {
      raise(frames, t, bin, ramp > 0 ? Math.min(level, (level * (t - d.start + 1)) / ramp) : level);
      const centre = bin * 3 + 3 * (d.bend?.(t - d.start) ?? 0);
      for (let b = Math.floor(centre) - 3; b <= Math.ceil(centre) + 3; b++) {
        raise(contours, t, b, 0.9 * Math.exp(-((b - centre) ** 2) / (2 * 0.8 ** 2)));
      }
    }
    const onset = d.onset ?? 0.9;
    if (onset > 0) {
      raise(onsets, d.start, bin, onset);
      raise(onsets, d.start - 1, bin, onset / 2);
      raise(onsets, d.start + 1, bin, onset / 2);
    }
  }
  for (const o of extraOnsets) raise(onsets, o.frame, o.pitch - 21, o.value);
  return { frames: Activation.fromRows(frames), onsets: Activation.fromRows(onsets), contours };
}

const options: NoteOptions = defaultNoteOptions({ tuning: DEFAULT_TUNING, capo: 0, frets: 22 });
const frameTime = (f: number) => f / FRAME_RATE;
const summary = (output: ModelOutput, opts: NoteOptions = options) =>
  extractNotes(output, opts).map((n) => [
    n.pitch,
    Math.round(n.time * FRAME_RATE),
    Math.round(n.endTime * FRAME_RATE),
  ]);

describe('defaultNoteOptions', () => {
  it('derives the pitch range from tuning, capo and frets and takes the spec thresholds', () => {
    const o = defaultNoteOptions(
      { tuning: [38, 45, 50, 55, 59, 64], capo: 2, frets: 19 },
      { onset_threshold: 0.6 },
    );
    expect(o).toEqual({
      onsetThreshold: 0.6,
      frameThreshold: 0.3,
      minNoteFrames: 5,
      amplitudeThreshold: 0.4,
      minPitch: 40,
      maxPitch: 85,
      maxPolyphony: 6,
      strings: [40, 47, 52, 57, 61, 66],
      frets: 19,
    });
  });
});

describe('extractNotes: Basic Pitch note creation', () => {
  it('turns an onset and its note activation into a note with times, strength and pitch curve', () => {
    const [note, ...rest] = extractNotes(
      posteriorgram(80, [{ pitch: 60, start: 10, end: 40 }]),
      options,
    );
    expect(rest).toHaveLength(0);
    expect(note?.pitch).toBe(60);
    expect(note?.time).toBeCloseTo(frameTime(10), 9);
    expect(note?.endTime).toBeCloseTo(frameTime(40), 9);
    expect(note?.onset).toBeCloseTo(0.9, 4);
    expect(note?.amplitude).toBeCloseTo(0.8, 4);
    expect(note?.bend).toHaveLength(30);
    for (const b of note?.bend ?? []) expect(Math.abs(b)).toBeLessThan(0.05);
  });

  it('bridges short dips in the note activation and ends after a long silence', () => {
    const output = posteriorgram(120, [
      { pitch: 60, start: 10, end: 40 },
      { pitch: 60, start: 45, end: 60, onset: 0, ramp: 4 },
    ]);
    expect(summary(output)).toEqual([[60, 10, 60]]);
  });

  it('splits a re-plucked note at the second onset', () => {
    const output = posteriorgram(
      100,
      [{ pitch: 60, start: 10, end: 80 }],
      [{ pitch: 60, frame: 40, value: 0.9 }],
    );
    expect(summary(output)).toEqual([
      [60, 10, 40],
      [60, 40, 80],
    ]);
  });

  it('drops notes no longer than the minimum note length', () => {
    const output = posteriorgram(100, [
      { pitch: 60, start: 10, end: 15 },
      { pitch: 64, start: 50, end: 56 },
    ]);
    expect(summary(output)).toEqual([[64, 50, 56]]);
  });

  it('keeps to the playable pitch range', () => {
    const output = posteriorgram(80, [
      { pitch: 30, start: 10, end: 40 },
      { pitch: 95, start: 10, end: 40 },
      { pitch: 52, start: 10, end: 40 },
    ]);
    expect(summary(output)).toEqual([[52, 10, 40]]);
  });

  it('returns nothing for silence or an empty clip', () => {
    expect(extractNotes(posteriorgram(200, []), options)).toEqual([]);
    expect(
      extractNotes(
        { frames: Activation.fromRows([]), onsets: Activation.fromRows([]), contours: [] },
        options,
      ),
    ).toEqual([]);
  });
});

describe('extractNotes: weak onsets', () => {
  it('accepts an onset peak under the threshold when the note activation rises after it', () => {
    const output = posteriorgram(80, [{ pitch: 57, start: 10, end: 40, onset: 0.5 }]);
    expect(summary(output)).toEqual([[57, 10, 40]]);
    expect(summary(output, options)).not.toEqual(
      summary(output, { ...options, onsetThreshold: 0.9 }),
    );
  });

  it('ignores a weak onset bump on a note that is already ringing (another string attacked)', () => {
    const output = posteriorgram(
      100,
      [{ pitch: 57, start: 5, end: 90 }],
      [{ pitch: 57, frame: 50, value: 0.55 }],
    );
    expect(summary(output)).toEqual([[57, 5, 90]]);
  });

  it('ignores onset peaks far under the threshold', () => {
    const output = posteriorgram(80, [{ pitch: 57, start: 10, end: 40, onset: 0.3 }]);
    expect(summary(output)).toEqual([]);
  });
});

describe('extractNotes: amplitude threshold', () => {
  it('drops a note whose note activation never reaches the amplitude threshold', () => {
    const output = posteriorgram(100, [
      { pitch: 60, start: 10, end: 40, level: 0.35 },
      { pitch: 65, start: 50, end: 80, level: 0.5 },
    ]);
    expect(summary(output)).toEqual([[65, 50, 80]]);
    expect(summary(output, { ...options, amplitudeThreshold: 0.3 })).toHaveLength(2);
  });
});

describe('extractNotes: octave and harmonic ghosts', () => {
  const strong = { level: 0.85, onset: 0.95 };
  const weak = { level: 0.5, onset: 0.8 };

  it('removes a weaker note an octave up that starts with a note (its second harmonic)', () => {
    const output = posteriorgram(60, [
      { pitch: 48, start: 10, end: 40, ...strong },
      { pitch: 60, start: 10, end: 40, ...weak },
    ]);
    expect(summary(output)).toEqual([[48, 10, 40]]);
  });

  it('removes the third and fourth harmonics and a weaker octave below', () => {
    const output = posteriorgram(60, [
      { pitch: 48, start: 10, end: 40, ...strong },
      { pitch: 67, start: 10, end: 40, ...weak },
      { pitch: 72, start: 11, end: 40, ...weak },
      { pitch: 36, start: 10, end: 40, ...weak },
    ]);
    expect(summary(output, { ...options, minPitch: 30 })).toEqual([[48, 10, 40]]);
  });

  it('keeps an octave played on another string: its own pluck, a frame or more apart', () => {
    const output = posteriorgram(60, [
      { pitch: 48, start: 10, end: 40, ...strong },
      { pitch: 60, start: 12, end: 40, ...weak },
    ]);
    expect(summary(output)).toEqual([
      [48, 10, 40],
      [60, 12, 40],
    ]);
  });

  it('keeps an octave as strong as the note under it', () => {
    const output = posteriorgram(60, [
      { pitch: 48, start: 10, end: 40, ...strong },
      { pitch: 60, start: 10, end: 40, level: 0.8, onset: 0.9 },
    ]);
    expect(summary(output)).toHaveLength(2);
  });
});

describe('extractNotes: notes without an attack', () => {
  it('keeps a hammer-on: a note that continues the previous note a few semitones away', () => {
    const output = posteriorgram(100, [
      { pitch: 60, start: 10, end: 40 },
      { pitch: 62, start: 40, end: 70, onset: 0, ramp: 4 },
    ]);
    const notes = extractNotes(output, options);
    expect(notes.map((n) => n.pitch)).toEqual([60, 62]);
    expect(notes[1]?.onset).toBeLessThan(0.2);
  });

  it('drops note activation that has no attack and continues nothing', () => {
    const output = posteriorgram(160, [
      { pitch: 60, start: 10, end: 40 },
      { pitch: 70, start: 100, end: 140, onset: 0, ramp: 4 },
    ]);
    expect(summary(output)).toEqual([[60, 10, 40]]);
    expect(summary(output, options).length).toBeLessThan(
      extractNotes(output, options, { ...ALL_RULES, unattacked: 'all' }).length,
    );
  });
});

describe('extractNotes: polyphony', () => {
  // Pitches five semitones apart: no octave or harmonic relations between them.
  const chord = [41, 46, 51, 56, 61, 66, 71];

  it('keeps the six strongest notes of a seven-note attack', () => {
    const output = posteriorgram(
      80,
      chord.map((pitch, i) => ({ pitch, start: 10, end: 50, level: 0.5 + i * 0.05 })),
    );
    expect(summary(output).map(([p]) => p)).toEqual(chord.slice(1));
  });

  it('ends the longest-ringing note when a seventh note is attacked', () => {
    const output = posteriorgram(140, [
      ...chord.slice(0, 5).map((pitch) => ({ pitch, start: 10, end: 120 })),
      { pitch: 66, start: 12, end: 120 },
      { pitch: 76, start: 60, end: 120 },
    ]);
    const notes = summary(output);
    expect(notes).toHaveLength(7);
    expect(notes.filter(([, , end]) => end === 60)).toHaveLength(1);
    for (let f = 0; f < 140; f++)
      expect(notes.filter(([, s, e]) => (s ?? 0) <= f && f < (e ?? 0)).length).toBeLessThanOrEqual(
        6,
      );
  });
});

describe('bendCurve', () => {
  it('follows a bend of two semitones up and its release, in semitones from the nominal pitch', () => {
    const shape = (f: number) =>
      f < 10 ? 0 : f < 20 ? (f - 10) / 5 : f < 30 ? 2 : Math.max(0, 2 - (f - 30) / 5);
    const output = posteriorgram(60, [{ pitch: 64, start: 5, end: 50, bend: shape }]);
    const curve = bendCurve(output.contours, 64, 5, 50);
    expect(curve).toHaveLength(45);
    curve.forEach((v, f) => {
      expect(v).toBeCloseTo(shape(f), 1);
    });
  });

  it('holds the last value through frames where the contour is silent', () => {
    const output = posteriorgram(40, [{ pitch: 64, start: 5, end: 15, bend: () => 1 }]);
    const curve = bendCurve(output.contours, 64, 5, 25);
    expect(curve.slice(10).every((v) => Math.abs(v - 1) < 0.05)).toBe(true);
  });
});
