import { describe, expect, it } from 'vitest';
import { buildNoteIndex } from '../model/noteIndex';
import { curve, note } from '../testing/notes';
import {
  bendLabel,
  bendSemitones,
  bendTimes,
  buildGlyphs,
  chordLabelMask,
  legatoKind,
} from './glyphs';
import { stringY, timelineLayout } from './layout';

const layout = timelineLayout(300);
const glyphs = (notes: ReturnType<typeof note>[], zoom = 100, t0 = 0, t1 = 100) =>
  buildGlyphs({
    index: buildNoteIndex(notes),
    chords: [{ time: 0, end_time: 2, chord: 'Am', event_type: 'chord' }],
    chordText: (c) => c.chord,
    t0,
    t1,
    zoom,
    layout,
  });

describe('bend amounts', () => {
  it('names bends as tab does', () => {
    expect([0.5, 1, 2, 3, 4, 5].map(bendLabel)).toEqual([
      '1/4',
      '1/2',
      'full',
      '1 1/2',
      '2',
      '2 1/2',
    ]);
    expect(bendLabel(0)).toBe('');
  });

  it('takes the amount from bend_to_fret, else from the top of the curve', () => {
    expect(bendSemitones(note({ time: 0, fret: 7, bend_to_fret: 9 }))).toBe(2);
    expect(bendSemitones(note({ time: 0, pitch_arr: [1, 2.5, 4, 4] }))).toBe(1);
    expect(bendSemitones(note({ time: 0, pitch_arr: [1, 1.3, 1] }))).toBe(0);
    // A vibrato curve is not a bend, however wide.
    const wobble = curve(1, (t) => 1 + 1.05 * Math.sin(2 * Math.PI * 6.5 * t));
    expect(bendSemitones(note({ time: 0, end_time: 1, vibrato: 'big', pitch_arr: wobble }))).toBe(
      0,
    );
  });

  it('finds the peak and the release in the curve', () => {
    const pts = curve(1, (t) => (t < 0.3 ? 1 + (6 * t) / 0.3 : t < 0.7 ? 7 : 1));
    const times = bendTimes(note({ time: 0, end_time: 1, pitch_arr: pts }));
    expect(times.peak).toBeGreaterThan(0.25);
    expect(times.peak).toBeLessThan(0.32);
    expect(times.release).toBeGreaterThan(0.68);
    expect(times.release).toBeLessThan(0.75);
  });
});

describe('technique glyphs', () => {
  it('draws a bend arrow up to the technique lane with its label, then the release', () => {
    const pts = curve(1, (t) => (t < 0.3 ? 1 + (6 * t) / 0.3 : t < 0.7 ? 7 : 1));
    const n = note({
      time: 1,
      end_time: 2,
      fret: 7,
      bend_to_fret: 9,
      release_to_fret: 7,
      pitch_arr: pts,
    });
    const [bend] = glyphs([n]).bends;
    expect(bend?.label).toBe('full');
    const [x0, y0, , , tipX, tipY] = bend!.curve;
    expect(y0).toBeLessThan(stringY(layout, 3));
    expect(tipY).toBe(layout.techniqueY);
    expect(tipX).toBeGreaterThan(x0);
    expect(tipX / 100).toBeCloseTo(1.29, 1);
    expect(bend!.release![4] / 100).toBeCloseTo(1.7, 1);
    expect(bend!.release![5]).toBeGreaterThan(tipY);
  });

  it('lifts the note line along the bend curve', () => {
    const n = note({ time: 0, end_time: 1, string: 2, pitch_arr: curve(1, (t) => 1 + 6 * t) });
    const [s] = glyphs([n]).sustains;
    const ys = s!.points.filter((_, k) => k % 2 === 1);
    // The line starts just after the fret number, barely lifted yet.
    expect(Math.abs(ys[0]! - stringY(layout, 2))).toBeLessThan(2);
    expect(ys.at(-1)!).toBeLessThan(stringY(layout, 2) - 10);
  });

  it('waves the note line for vibrato, wider for big', () => {
    const amp = (vibrato: 'small' | 'big') => {
      const [s] = glyphs([note({ time: 0, end_time: 1, vibrato })]).sustains;
      const ys = s!.points.filter((_, k) => k % 2 === 1);
      return Math.max(...ys) - Math.min(...ys);
    };
    expect(amp('small')).toBeGreaterThan(2);
    expect(amp('big')).toBeGreaterThan(amp('small') * 1.6);
    expect(glyphs([note({ time: 0 })]).sustains[0]!.points).toHaveLength(4);
  });

  it('joins a slide up with a rising line and a slide down with a falling one', () => {
    const up = glyphs([
      note({ time: 0, end_time: 0.4, fret: 5, trailing_slide: true }),
      note({ time: 0.5, end_time: 1, fret: 7, leading_slide: true }),
    ]).slides;
    expect(up).toHaveLength(1);
    expect(up[0]!.y1).toBeLessThan(up[0]!.y0);
    const down = glyphs([
      note({ time: 0, end_time: 0.4, fret: 7, trailing_slide: true }),
      note({ time: 0.5, end_time: 1, fret: 5, leading_slide: true }),
    ]).slides;
    expect(down[0]!.y1).toBeGreaterThan(down[0]!.y0);
  });

  it('draws slides in and out of lone notes', () => {
    const s = glyphs([note({ time: 1, leading_slide: true, trailing_slide: true })]).slides;
    expect(s).toHaveLength(2);
    expect(s[0]!.x1).toBeLessThan(100);
    expect(s[1]!.x0).toBeGreaterThan(100);
  });

  it('arcs hammer-ons and pull-offs with H and P', () => {
    const g = glyphs([
      note({ time: 0, end_time: 0.3, fret: 5, trailing_hammer_on: true }),
      note({ time: 0.3, end_time: 0.6, fret: 7, leading_hammer_on: true, trailing_pull_off: true }),
      note({ time: 0.6, end_time: 0.9, fret: 5, leading_pull_off: true }),
    ]);
    expect(g.legatos.map((l) => l.label)).toEqual(['H', 'P']);
    expect(g.legatos[0]!.x0).toBe(0);
    expect(g.legatos[0]!.x1).toBe(30);
    expect(
      legatoKind(note({ time: 0, end_time: 0.1 }), note({ time: 2, leading_hammer_on: true })),
    ).toBe(null);
  });

  it('writes X for muted notes and dots when numbers would collide', () => {
    expect(glyphs([note({ time: 1, mute: true })]).frets[0]!.text).toBe('X');
    const fast = [0, 0.05, 0.1].map((time) => note({ time, end_time: time + 0.05, fret: 12 }));
    expect(glyphs(fast, 10).frets.map((f) => f.compact)).toEqual([false, true, true]);
    expect(glyphs(fast, 600).frets.every((f) => !f.compact)).toBe(true);
  });

  it('never prints a number over the last number printed on its string ("10 3" on the low E)', () => {
    // 10, then a note close enough to be a dot, then a 3 far enough from the dot but not from
    // the 10: measured from the dot, the 3 printed over the 10.
    const run = [
      note({ time: 0, end_time: 0.05, fret: 10 }),
      note({ time: 0.02, end_time: 0.1, fret: 3 }),
      note({ time: 0.14, end_time: 0.2, fret: 3 }),
      note({ time: 0.25, end_time: 0.3, fret: 3 }),
    ];
    const printed = glyphs(run, 120).frets.filter((f) => !f.compact);
    for (let k = 1; k < printed.length; k += 1) {
      const a = printed[k - 1]!;
      const b = printed[k]!;
      expect(b.x - b.halfWidth).toBeGreaterThan(a.x + a.halfWidth);
    }
    expect(glyphs(run, 120).frets.map((f) => f.compact)).toEqual([false, true, true, false]);
  });

  it('builds only what the window shows, and the chord lane', () => {
    const notes = Array.from({ length: 200 }, (_, i) => note({ time: i * 0.5 }));
    const g = glyphs(notes, 100, 10, 12);
    expect(g.frets.length).toBeLessThanOrEqual(6);
    expect(g.chords).toEqual([]);
    expect(glyphs(notes, 100, 0, 1).chords).toEqual([{ x: 0, x1: 200, text: 'Am' }]);
  });
});

describe('level of detail', () => {
  it('drops bend arrows when zoomed far out; the lifted line remains', () => {
    const n = note({
      time: 1,
      end_time: 2,
      fret: 7,
      bend_to_fret: 9,
      pitch_arr: curve(1, (t) => 1 + Math.min(6, 24 * t)),
    });
    expect(glyphs([n], 10).bends).toHaveLength(0);
    expect(glyphs([n], 40).bends).toHaveLength(1);
    expect(glyphs([n], 10).sustains).toHaveLength(1);
  });

  it('prints only the chord names that fit, the same whatever the window', () => {
    const chords = [0, 0.5, 1, 1.5, 6].map((time, k) => ({
      time,
      end_time: time + 0.5,
      chord: ['Am', 'C', 'G', 'D', 'Em'][k]!,
      event_type: 'chord' as const,
    }));
    expect([...chordLabelMask(chords, (c) => c.chord, 100)]).toEqual([1, 1, 1, 1, 1]);
    expect([...chordLabelMask(chords, (c) => c.chord, 10)]).toEqual([1, 0, 0, 0, 1]);
    expect([...chordLabelMask(chords, (c) => c.chord, 40)]).toEqual([1, 0, 1, 0, 1]);
  });
});
