import { plainNote } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import type { GuitarSetup } from '../types.js';
import { FRAME_RATE } from '../units.js';
import { demoteMarks, GATE_FEATURES, GATE_WIDTH, gateFeatures, markOccurrences } from './gate.js';

const SETUP: GuitarSetup = { tuning: [40, 45, 50, 55, 59, 64], capo: 0, frets: 22 };

// G string: fret 5 hammered to 7, then a bend and release at 7 with vibrato, then a slide out.
const picked = plainNote({ time: 1, end_time: 1.2, string: 3, fret: 5, trailing_hammer_on: true });
const hammered = plainNote({
  time: 1.2,
  end_time: 1.8,
  string: 3,
  fret: 7,
  leading_hammer_on: true,
  bend_to_fret: 9,
  release_to_fret: 7,
  vibrato: 'small',
  trailing_slide: true,
});
const other = plainNote({ time: 1.2, end_time: 1.5, string: 1, fret: 3 });
const NOTES = [picked, hammered, other];

describe('the technique gate', () => {
  it('counts a slur once, on the note it leads into, and a slide into nothing on its note', () => {
    expect(markOccurrences(NOTES)).toEqual([
      { index: 1, technique: 'bend', side: null },
      { index: 1, technique: 'release', side: null },
      { index: 1, technique: 'vibrato', side: null },
      { index: 1, technique: 'hammer_on', side: 'leading' },
      { index: 1, technique: 'slide', side: 'trailing' },
    ]);
  });

  it('reads each mark with the note it joins: interval, gap and attacks', () => {
    const marks = markOccurrences(NOTES);
    const flux = new Float32Array(3 * FRAME_RATE);
    flux[Math.round(1 * FRAME_RATE)] = 1; // the pick; the hammer-on adds no attack
    const x = gateFeatures(NOTES, marks, { flux, energy: new Float32Array(flux.length) }, SETUP);
    expect(x.length).toBe(marks.length * GATE_WIDTH);
    const col = (row: number, name: (typeof GATE_FEATURES)[number]) =>
      x[row * GATE_WIDTH + GATE_FEATURES.indexOf(name)];
    expect(col(3, 'is_hammer_on')).toBe(1);
    expect(col(3, 'side')).toBe(1);
    expect(col(3, 'interval')).toBeCloseTo(2 / 12);
    expect(col(3, 'gap')).toBeCloseTo(0);
    expect(col(3, 'attack_ratio')).toBe(0);
    expect(col(3, 'neighbour_attack_ratio')).toBeGreaterThan(0);
    expect(col(0, 'bend_amount')).toBeCloseTo(2 / 4);
    expect(col(4, 'has_neighbour')).toBe(0);
    // Attack ratios run to 2 (four times the clip's typical attack); the rest to 1.
    for (const v of x) expect(Number.isFinite(v) && Math.abs(v) <= 2).toBe(true);
  });

  it('keeps the marks it trusts and moves the doubtful ones to suggestions', () => {
    const marks = markOccurrences(NOTES);
    // bend doubtful (takes its release along), vibrato kept, hammer-on doubtful, slide kept.
    const out = demoteMarks(NOTES, marks, [0.2, 0.9, 0.8, 0.4, 0.7], 0.5);
    const [before, note, untouched] = out;
    expect(untouched).toBe(other);
    expect(before?.trailing_hammer_on).toBe(false);
    expect(note).toMatchObject({
      bend_to_fret: null,
      release_to_fret: null,
      vibrato: 'small',
      leading_hammer_on: false,
      trailing_slide: true,
    });
    expect(note?.suggestions).toEqual([
      { technique: 'hammer_on', confidence: 0.4, fields: { leading_hammer_on: true } },
      { technique: 'bend', confidence: 0.2, fields: { bend_to_fret: 9, release_to_fret: 7 } },
    ]);
  });

  it('changes nothing when every mark is trusted', () => {
    const marks = markOccurrences(NOTES);
    const out = demoteMarks(NOTES, marks, new Float32Array(marks.length).fill(0.9), 0.5);
    out.forEach((n, i) => {
      expect(n).toBe(NOTES[i]);
    });
  });
});
