import { DEFAULT_TUNING } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import type { ModelOutput } from '../types.js';
import { Activation } from './posteriorgram.js';
import { ALL_RULES, extractCandidates } from './extract.js';
import { defaultNoteOptions } from './options.js';
import { findStrums, playableShape } from './strums.js';

/** A note drawn into constructed posteriorgrams: a step of note activation and an onset peak. */
interface Drawn {
  pitch: number;
  start: number;
  end: number;
  /** Note activation while it sounds. */
  level: number;
  /** Onset activation at `start` (half of it one frame either side; 0 = none). */
  onset: number;
}

function posteriorgram(
  n: number,
  notes: readonly Drawn[],
  extraOnsets: readonly { pitch: number; frame: number; value: number }[] = [],
): ModelOutput {
  const frames = Array.from({ length: n }, () => new Float32Array(88));
  const onsets = Array.from({ length: n }, () => new Float32Array(88));
  const contours = Array.from({ length: n }, () => new Float32Array(264));
  const raise = (rows: Float32Array[], t: number, bin: number, v: number) => {
    const row = rows[t];
    if (row !== undefined) row[bin] = Math.max(row[bin] ?? 0, v);
  };
  for (const d of notes) {
    for (let t = d.start; t < d.end; t++) raise(frames, t, d.pitch - 21, d.level);
    if (d.onset > 0) {
      raise(onsets, d.start, d.pitch - 21, d.onset);
      raise(onsets, d.start - 1, d.pitch - 21, d.onset / 2);
      raise(onsets, d.start + 1, d.pitch - 21, d.onset / 2);
    }
  }
  for (const o of extraOnsets) {
    raise(onsets, o.frame, o.pitch - 21, o.value);
    raise(onsets, o.frame - 1, o.pitch - 21, o.value / 2);
    raise(onsets, o.frame + 1, o.pitch - 21, o.value / 2);
  }
  return { frames: Activation.fromRows(frames), onsets: Activation.fromRows(onsets), contours };
}

const options = defaultNoteOptions({ tuning: DEFAULT_TUNING, capo: 0, frets: 22 });
const NO_RECOVERY = { ...ALL_RULES, strums: false };
const pitchesAt = (output: ModelOutput, from: number, to: number, rules = ALL_RULES) =>
  extractCandidates(output, options, rules)
    .filter((n) => n.start >= from && n.start <= to)
    .map((n) => n.pitch)
    .sort((a, b) => a - b);

/** An open G chord strummed down from `at`: B2 D3 G3 B3 clearly, one string a frame. */
const clearG = (at: number, end: number): Drawn[] =>
  [47, 50, 55, 59].map((pitch, i) => ({ pitch, start: at + i, end, level: 0.8, onset: 0.9 }));

describe('strum recovery', () => {
  it('recovers a weak bass root under a strum, and not the same note alone', () => {
    // G2 on the bass string, struck a frame before B2: its onset peak (0.5) clears the weak
    // onset floor, but its note activation (0.35) never reaches the amplitude threshold.
    const root: Drawn = { pitch: 43, start: 19, end: 80, level: 0.35, onset: 0.5 };
    const strum = posteriorgram(100, [root, ...clearG(20, 80)]);
    expect(pitchesAt(strum, 15, 30, NO_RECOVERY)).toEqual([47, 50, 55, 59]);
    expect(pitchesAt(strum, 15, 30)).toEqual([43, 47, 50, 55, 59]);
    const recovered = extractCandidates(strum, options).find((n) => n.pitch === 43);
    expect(recovered?.start).toBe(19);
    expect(recovered?.end).toBe(80);

    // The same weak note with a single other note (no strum) stays out.
    const alone = posteriorgram(100, [
      root,
      { pitch: 59, start: 20, end: 80, level: 0.8, onset: 0.9 },
    ]);
    expect(pitchesAt(alone, 15, 30)).toEqual([59]);
  });

  it('recovers an octave doubling inside the strum, but not a pitch class the chord lacks', () => {
    // G3 between D3 and B3 at 0.35: a chord tone, recovered. C#3 (not in the chord) is not.
    const notes: Drawn[] = [
      { pitch: 43, start: 20, end: 80, level: 0.8, onset: 0.9 },
      { pitch: 47, start: 21, end: 80, level: 0.8, onset: 0.9 },
      { pitch: 50, start: 22, end: 80, level: 0.8, onset: 0.9 },
      { pitch: 55, start: 23, end: 80, level: 0.35, onset: 0.5 },
      { pitch: 59, start: 24, end: 80, level: 0.8, onset: 0.9 },
    ];
    expect(pitchesAt(posteriorgram(100, notes), 15, 30)).toEqual([43, 47, 50, 55, 59]);
    const foreign = notes.map((d) => (d.pitch === 55 ? { ...d, pitch: 49 } : d));
    expect(pitchesAt(posteriorgram(100, foreign), 15, 30)).toEqual([43, 47, 50, 59]);
  });

  it('recovers the top string above the strum only where the sweep reaches it, not a harmonic', () => {
    // G4 on the high E string, struck last in the downstroke (a frame after B3, two after G3,
    // whose octave it is): recovered.
    const top: Drawn = { pitch: 67, start: 24, end: 80, level: 0.35, onset: 0.5 };
    expect(pitchesAt(posteriorgram(100, [...clearG(20, 80), top]), 15, 30)).toEqual([
      47, 50, 55, 59, 67,
    ]);
    // The same peak in G3's very frame is G3's second harmonic heard as a note: left alone, even
    // with an onset peak stronger than G3's (which the ghost rule alone would let through).
    const harmonic = { ...top, start: 22, onset: 0.95 };
    expect(pitchesAt(posteriorgram(100, [...clearG(20, 80), harmonic]), 15, 30)).toEqual([
      47, 50, 55, 59,
    ]);
    // Before the sweep reaches the treble strings (two frames before B2, the downstroke's
    // first found note) it is not where that string is struck: left alone.
    const early = { ...top, start: 18 };
    expect(pitchesAt(posteriorgram(100, [...clearG(20, 80), early]), 15, 30)).toEqual([
      47, 50, 55, 59,
    ]);
  });

  it('re-strikes a string still ringing inside a re-strummed chord', () => {
    // G2 B2 D3 (G3) B3 strummed at 10 and again at 60; G3 rings through at 0.6, so its second
    // onset peak (0.55) has no rise of the note activation to confirm it.
    const strum = (at: number, end: number): Drawn[] =>
      [43, 47, 50, 59].map((pitch, i) => ({
        pitch,
        start: at + (pitch === 59 ? 4 : i),
        end,
        level: 0.8,
        onset: 0.9,
      }));
    const ringing: Drawn = { pitch: 55, start: 13, end: 120, level: 0.6, onset: 0.9 };
    const output = posteriorgram(
      140,
      [...strum(10, 60), ...strum(60, 120), ringing],
      [{ pitch: 55, frame: 63, value: 0.55 }],
    );
    const g3 = (rules = ALL_RULES) =>
      extractCandidates(output, options, rules)
        .filter((n) => n.pitch === 55)
        .map((n) => [n.start, n.end]);
    expect(g3(NO_RECOVERY)).toEqual([[13, 120]]);
    expect(g3()).toEqual([
      [13, 63],
      [63, 120],
    ]);
  });

  it('re-strikes the strings of an earlier strum that ring into the same chord strummed again', () => {
    // E major (E2 B2 E3 G#3 B3) strummed at 10; strummed again at 60, where only B2 G#3 B3 come
    // out clearly: E2 (below them) and E3 (a pitch class they lack) ring on from the first strum
    // with weak onset peaks of their own.
    const shape = [40, 47, 52, 56, 59];
    const first = shape.map((pitch, i) => ({
      pitch,
      start: 10 + i,
      end: 60,
      level: 0.8,
      onset: 0.9,
    }));
    const second = [47, 56, 59].map((pitch, i) => ({
      pitch,
      start: 61 + i,
      end: 120,
      level: 0.8,
      onset: 0.9,
    }));
    const ringing = [40, 52].map((pitch, i) => ({
      pitch,
      start: 10 + 2 * i,
      end: 120,
      level: 0.6,
      onset: 0.9,
    }));
    const output = posteriorgram(
      140,
      [...first.filter((d) => d.pitch !== 40 && d.pitch !== 52), ...ringing, ...second],
      [
        { pitch: 40, frame: 60, value: 0.55 },
        { pitch: 52, frame: 61, value: 0.55 },
      ],
    );
    expect(pitchesAt(output, 55, 70, NO_RECOVERY)).toEqual([47, 56, 59]);
    expect(pitchesAt(output, 55, 70)).toEqual([40, 47, 52, 56, 59]);
  });

  it('does not re-strike a bass note left ringing under a treble strum', () => {
    // Boom-chick: G2 picked at 10 and held; the treble strings strummed at 60 put a cross-talk
    // onset peak on G2, which was not struck again.
    const bass: Drawn = { pitch: 43, start: 10, end: 120, level: 0.6, onset: 0.9 };
    const treble = [55, 59, 62].map((pitch, i) => ({
      pitch,
      start: 60 + i,
      end: 120,
      level: 0.8,
      onset: 0.9,
    }));
    const output = posteriorgram(140, [bass, ...treble], [{ pitch: 43, frame: 59, value: 0.55 }]);
    const g2 = extractCandidates(output, options).filter((n) => n.pitch === 43);
    expect(g2.map((n) => n.start)).toEqual([10]);
  });
});

describe('strum helpers', () => {
  it('groups close attacks of three notes or more as strums', () => {
    const at = (pitch: number, start: number) => ({
      pitch,
      start,
      end: start + 50,
      onset: 0.9,
      amplitude: 0.8,
      source: 'attack' as const,
    });
    const strums = findStrums([at(47, 10), at(50, 11), at(55, 13), at(40, 40), at(52, 41)]);
    expect(strums.map((s) => s.map((n) => n.pitch))).toEqual([[47, 50, 55]]);
  });

  it('tells a chord shape one hand can hold from one it cannot', () => {
    const open = [...DEFAULT_TUNING];
    expect(playableShape([43, 47, 50, 55, 59, 67], open, 22)).toBe(true); // open G
    expect(playableShape([48, 52, 55, 60, 64], open, 22)).toBe(true); // open C
    expect(playableShape([40, 45, 50, 55, 59, 64, 67], open, 22)).toBe(false); // seven notes
    expect(playableShape([41, 46, 76], open, 22)).toBe(false); // frets 1, 1 and 12
    expect(playableShape([39], open, 22)).toBe(false); // below the low E
  });
});
