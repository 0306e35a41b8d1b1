import { describe, expect, it } from 'vitest';
import type { DetectedNote, GuitarSetup } from '../types.js';
import { midi, seconds } from '../units.js';
import { assignTab, positionsOf } from './assign.js';

const STANDARD: GuitarSetup = { tuning: [40, 45, 50, 55, 59, 64], capo: 0, frets: 22 };

function notes(groups: [number, number[]][], length = 0.4): DetectedNote[] {
  return groups.flatMap(([time, pitches]) =>
    pitches.map((p) => ({
      time: seconds(time),
      endTime: seconds(time + length),
      pitch: midi(p),
      amplitude: 0.8,
      onset: 0.9,
      bend: [],
    })),
  );
}

/** "string:fret" per note, low string first within a group, groups in time order. */
function shape(setup: GuitarSetup, groups: [number, number[]][]): string[] {
  return assignTab(notes(groups), setup).map((n) => `${n.string}:${n.fret}`);
}

describe('positionsOf', () => {
  it('lists every string that reaches a pitch, frets relative to the capo', () => {
    expect(positionsOf(64, STANDARD)).toEqual([
      [1, 0],
      [2, 5],
      [3, 9],
      [4, 14],
      [5, 19],
    ]);
    expect(positionsOf(66, { ...STANDARD, capo: 2 })).toContainEqual([1, 0]);
    expect(positionsOf(39, STANDARD)).toEqual([]);
  });
});

describe('assignTab', () => {
  it('plays an open C chord in first position', () => {
    expect(shape(STANDARD, [[0, [48, 52, 55, 60, 64]]])).toEqual([
      '5:3',
      '4:2',
      '3:0',
      '2:1',
      '1:0',
    ]);
  });

  it('plays an open E major chord with its bass on the low E', () => {
    expect(shape(STANDARD, [[0, [40, 47, 52, 56, 59, 64]]])).toEqual([
      '6:0',
      '5:2',
      '4:2',
      '3:1',
      '2:0',
      '1:0',
    ]);
  });

  it('keeps a barre chord up the neck as one shape (A major barre at 5)', () => {
    expect(shape(STANDARD, [[0, [45, 52, 57, 61, 64, 69]]])).toEqual([
      '6:5',
      '5:7',
      '4:7',
      '3:6',
      '2:5',
      '1:5',
    ]);
  });

  it('plays a scale run with few hand shifts and no string played twice at once', () => {
    // Two octaves of A minor pentatonic: a hand box covers it with at most one shift.
    const run = [45, 48, 50, 52, 55, 57, 60, 62, 64, 67, 69, 72];
    const out = assignTab(
      notes(
        run.map((p, i) => [i * 0.25, [p]]),
        0.2,
      ),
      STANDARD,
    );
    expect(out.map((n) => n.pitch)).toEqual(run);
    const fretted = out.map((n) => n.fret).filter((f) => f > 0);
    let shifts = 0;
    for (let i = 1; i < fretted.length; i += 1) {
      if (Math.abs((fretted[i] ?? 0) - (fretted[i - 1] ?? 0)) > 4) shifts += 1;
    }
    expect(shifts).toBeLessThanOrEqual(1);
  });

  it('writes frets relative to a capo', () => {
    // G shape with capo 2 sounds A: A C# E A C# A.
    expect(shape({ ...STANDARD, capo: 2 }, [[0, [45, 49, 52, 57, 61, 69]]])).toEqual([
      '6:3',
      '5:2',
      '4:0',
      '3:0',
      '2:0',
      '1:3',
    ]);
    const high = assignTab(notes([[0, [52, 59, 64]]]), { ...STANDARD, capo: 7 });
    for (const n of high) expect(n.fret).toBeGreaterThanOrEqual(0);
  });

  it('uses the dropped string in drop D and DADGAD', () => {
    expect(shape({ ...STANDARD, tuning: [38, 45, 50, 55, 59, 64] }, [[0, [38, 45, 50]]])).toEqual([
      '6:0',
      '5:0',
      '4:0',
    ]);
    expect(
      shape({ ...STANDARD, tuning: [38, 45, 50, 55, 57, 62] }, [[0, [38, 45, 50, 55, 57, 62]]]),
    ).toEqual(['6:0', '5:0', '4:0', '3:0', '2:0', '1:0']);
  });

  it('drops notes no string can reach and never writes a fret past the guitar', () => {
    const out = assignTab(notes([[0, [30, 64, 100]]]), { ...STANDARD, frets: 19 });
    expect(out.map((n) => n.pitch)).toEqual([64]);
    const classical = assignTab(notes([[0, [83]]]), { ...STANDARD, frets: 19 });
    expect(classical[0]?.fret).toBe(19);
  });

  it('puts two notes of one group on two strings, never one', () => {
    const out = assignTab(notes([[0, [59, 64]]]), STANDARD);
    expect(new Set(out.map((n) => n.string)).size).toBe(2);
  });
});
