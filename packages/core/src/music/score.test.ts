import { describe, expect, it } from 'vitest';
import { plainNote, type NoteEvent } from '../events.js';
import { beatGridSchema, beatsInBar, steadyGrid, tempoAt } from './beats.js';
import { scoreOf, TICKS_PER_QUARTER, type Score } from './score.js';

const note = (time: number, end: number, string = 1, fret = 0): NoteEvent =>
  plainNote({ time, end_time: end, string, fret });

/** Each bar as "value[dots][t] notes" tokens: "4 0" a quarter of note 0, "8t -" a triplet rest. */
const written = (score: Score) =>
  score.bars.map((bar) =>
    bar.slots
      .map(
        (s) =>
          `${s.tied ? '~' : ''}${s.value}${'.'.repeat(s.dots)}${s.tuplet === 3 ? 't' : ''} ${s.notes.length === 0 ? '-' : s.notes.join('+')}`,
      )
      .join(' | '),
  );

const barTicks = (score: Score) =>
  score.bars.map((bar) => bar.slots.reduce((sum, s) => sum + s.ticks, 0));

describe('beat grid', () => {
  it('builds a steady grid and reads its tempo and meter', () => {
    const grid = steadyGrid(120, 4, 4);
    expect(grid.beats).toEqual([0, 0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4]);
    expect(grid.downbeats).toEqual([0, 4, 8]);
    expect(tempoAt(grid, 1.2)).toBeCloseTo(120, 6);
    expect(beatsInBar(grid, 0)).toBe(4);
    expect(beatsInBar(grid, 2)).toBe(4);
    expect(beatGridSchema.safeParse(grid).success).toBe(true);
  });

  it('refuses beats out of order, too close, and bar lines off the beats', () => {
    expect(
      beatGridSchema.safeParse({ beats: [0, 0.1], downbeats: [0], beat_unit: 4 }).success,
    ).toBe(false);
    expect(
      beatGridSchema.safeParse({ beats: [1, 0.5], downbeats: [0], beat_unit: 4 }).success,
    ).toBe(false);
    expect(
      beatGridSchema.safeParse({ beats: [0, 0.5, 1], downbeats: [0, 3], beat_unit: 4 }).success,
    ).toBe(false);
    expect(
      beatGridSchema.safeParse({ beats: [0, 0.5], downbeats: [0], beat_unit: 3 }).success,
    ).toBe(false);
  });
});

describe('scoreOf', () => {
  it('writes quarters, eighths and a rest in 4/4 at 120', () => {
    const grid = steadyGrid(120, 4, 4);
    const notes = [note(0, 0.5), note(0.5, 0.75), note(0.75, 1), note(1.5, 2)];
    const score = scoreOf(notes, grid);
    expect(score.ticksPerQuarter).toBe(TICKS_PER_QUARTER);
    expect(written(score)[0]).toBe('4 0 | 8 1 | 8 2 | 4 - | 4 3');
    expect(barTicks(score)[0]).toBe(4 * TICKS_PER_QUARTER);
    expect(score.bars[0]).toMatchObject({ numerator: 4, denominator: 4, start: 0, end: 2 });
    expect(score.bars[0]?.tempo).toBeCloseTo(120, 6);
  });

  it('snaps onsets played slightly early or late to the sixteenth grid', () => {
    const grid = steadyGrid(100, 4, 6);
    const q = 0.6;
    const notes = [
      note(0.02, q),
      note(q - 0.03, 2 * q),
      note(2 * q + 0.025, 3 * q),
      note(3 * q, 4 * q),
    ];
    expect(written(scoreOf(notes, grid))[0]).toBe('4 0 | 4 1 | 4 2 | 4 3');
  });

  it('writes a chord as one slot, lowest string number first', () => {
    const grid = steadyGrid(120, 4, 2);
    const notes = [note(0, 2, 3, 2), note(0.01, 2, 1, 0), note(0, 2, 2, 3)];
    expect(written(scoreOf(notes, grid))[0]).toBe('1 1+2+0');
  });

  it('ties a note across the bar line', () => {
    const grid = steadyGrid(120, 4, 4);
    const score = scoreOf([note(1.5, 2.5)], grid);
    expect(written(score).slice(0, 2)).toEqual(['2. - | 4 0', '~4 0 | 4 - | 2 -']);
  });

  it('keeps the beats readable: off-beat values end on the beat, the middle of 4/4 shows', () => {
    const grid = steadyGrid(120, 4, 4);
    // An eighth into beat 1 until beat 3; then a note from beat 2 of the next bar to its end.
    const score = scoreOf([note(0.25, 1), note(2.5, 4)], grid);
    expect(written(score).slice(0, 2)).toEqual(['8 - | 8 0 | ~4 0 | 2 -', '4 - | 4 1 | ~2 1']);
  });

  it('groups 6/8 in dotted quarters', () => {
    const grid = steadyGrid(180, 6, 4, { beatUnit: 8 });
    // One eighth, then a note held to the bar's end: the group boundary shows.
    const score = scoreOf([note(0, 1 / 3), note(1 / 3, 2)], grid);
    expect(written(score)[0]).toBe('8 0 | 4 1 | ~4. 1');
  });

  it('writes eighth-note triplets where the onsets are triplets', () => {
    const grid = steadyGrid(60, 4, 4);
    const notes = [note(0, 1 / 3), note(1 / 3, 2 / 3), note(2 / 3, 1), note(1, 2)];
    const score = scoreOf(notes, grid);
    expect(written(score)[0]).toBe('8t 0 | 8t 1 | 8t 2 | 4 3 | 2 -');
    expect(barTicks(score)[0]).toBe(4 * TICKS_PER_QUARTER);
  });

  it('follows a tempo that changes from beat to beat', () => {
    // Slowing down: every beat 10 % longer; each note still a quarter.
    const beats = [0];
    for (let i = 1; i <= 8; i++) beats.push((beats[i - 1] ?? 0) + 0.5 * 1.1 ** (i - 1));
    const grid = { beats, downbeats: [0, 4, 8], beat_unit: 4 as const };
    const notes = beats.slice(0, 8).map((t, i) => note(t, beats[i + 1] ?? t + 0.5));
    const score = scoreOf(notes, grid);
    expect(written(score).slice(0, 2)).toEqual(['4 0 | 4 1 | 4 2 | 4 3', '4 4 | 4 5 | 4 6 | 4 7']);
    expect(score.bars[1]?.tempo ?? 0).toBeLessThan(score.bars[0]?.tempo ?? 0);
  });

  it('turns a pickup into a bar with rests and covers notes past the last beat', () => {
    const grid = { beats: [1, 1.5, 2, 2.5, 3, 3.5], downbeats: [2], beat_unit: 4 as const };
    const notes = [note(1.5, 2), note(2, 4.5), note(5, 5.5)];
    const score = scoreOf(notes, grid);
    expect(score.bars[0]?.start).toBeCloseTo(0, 6);
    expect(written(score)[0]).toBe('2. - | 4 0');
    for (const ticks of barTicks(score)) expect(ticks).toBe(4 * TICKS_PER_QUARTER);
    const all = score.bars.flatMap((b) => b.slots.flatMap((s) => (s.tied ? [] : s.notes)));
    expect(all.sort()).toEqual([0, 1, 2]);
  });

  it('writes 6/8 in eighth-note beats', () => {
    const grid = steadyGrid(180, 6, 4, { beatUnit: 8 });
    const notes = Array.from({ length: 6 }, (_, i) => note(i / 3, (i + 1) / 3));
    const score = scoreOf(notes, grid);
    expect(score.bars[0]).toMatchObject({ numerator: 6, denominator: 8 });
    expect(written(score)[0]).toBe('8 0 | 8 1 | 8 2 | 8 3 | 8 4 | 8 5');
  });

  it('gives an empty lesson one bar of rest', () => {
    const score = scoreOf([], steadyGrid(120, 4, 2));
    expect(score.bars.length).toBeGreaterThanOrEqual(1);
    expect(written(score)[0]).toBe('1 -');
  });
});

describe('scoreOf on random lessons', () => {
  /** A small seeded generator (mulberry32), so a failure can be replayed. */
  const random = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  it('fills every bar exactly, keeps slots contiguous and writes every note once', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const rand = random(seed);
      // A drifting tempo, a meter of 2-7 beats, a quarter or eighth beat, a pickup.
      const beats = [rand() * 2];
      for (let i = 1; i < 40; i++) beats.push((beats[i - 1] ?? 0) + 0.3 + rand() * 0.5);
      const perBar = 2 + Math.floor(rand() * 6);
      const pickup = Math.floor(rand() * perBar);
      const downbeats: number[] = [];
      for (let d = pickup; d < beats.length; d += perBar) downbeats.push(d);
      const grid = { beats, downbeats, beat_unit: rand() < 0.7 ? (4 as const) : (8 as const) };
      const notes: NoteEvent[] = [];
      let t = rand() * 3;
      while (t < (beats.at(-1) ?? 0) + 2) {
        const length = 0.05 + rand() * 1.5;
        notes.push(note(t, t + length, 1 + Math.floor(rand() * 6), Math.floor(rand() * 13)));
        t += rand() < 0.2 ? 0 : 0.04 + rand() * 0.8;
      }
      const score = scoreOf(notes, grid);
      const beatTicks = (4 * TICKS_PER_QUARTER) / grid.beat_unit;
      const seen = new Map<number, number>();
      score.bars.forEach((bar, b) => {
        let tick = 0;
        for (const slot of bar.slots) {
          expect(slot.tick, `seed ${seed} bar ${b}`).toBe(tick);
          expect(slot.ticks).toBeGreaterThan(0);
          tick += slot.ticks;
          if (!slot.tied) for (const i of slot.notes) seen.set(i, (seen.get(i) ?? 0) + 1);
          const strings = slot.notes.map((i) => notes[i]?.string);
          expect(new Set(strings).size, `seed ${seed}: one note a string`).toBe(strings.length);
        }
        expect(tick, `seed ${seed} bar ${b}`).toBe(bar.numerator * beatTicks);
        if (b > 0) expect(bar.start).toBeCloseTo(score.bars[b - 1]?.end ?? 0, 9);
      });
      expect(seen.size, `seed ${seed}`).toBe(notes.length);
      for (const count of seen.values()) expect(count).toBe(1);
      expect(score.bars[0]?.start ?? Infinity).toBeLessThanOrEqual(
        Math.min(...notes.map((n) => n.time)),
      );
      expect(score.bars.at(-1)?.end ?? 0).toBeGreaterThanOrEqual(
        Math.max(...notes.map((n) => n.end_time)) - 1e-9,
      );
    }
  });
});
