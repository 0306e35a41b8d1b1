import { createHash } from 'node:crypto';
import {
  chordEventInputSchema,
  noteEventInputSchema,
  PITCH_STEPS_PER_FRET,
  plainNote,
  type NoteEvent,
} from '@riffscribe/core';
import { FRAME_RATE, openPitch, SAMPLE_RATE, yinPitch } from '@riffscribe/engine/stages';
import { describe, expect, it } from 'vitest';
import { voicing } from '../src/corpus/chords.js';
import { buildCorpusItem, buildCorpusTruth, CORPUS_ITEM_NAMES } from '../src/corpus/corpus.js';
import {
  combineTechniqueScores,
  techniqueScores,
  TECHNIQUES,
} from '../src/corpus/technique-metrics.js';

/**
 * The rendered corpus (its answers are checked whole, without rendering; two clips are rendered)
 * and the per-technique metrics.
 */

const truth = buildCorpusTruth();

const count = (notes: readonly NoteEvent[], has: (n: NoteEvent) => boolean) =>
  notes.filter(has).length;

describe('corpus answers', () => {
  it('has 10-20 items of 5-16 s in several keys, guitars, tunings and capos', () => {
    expect(truth.length).toBeGreaterThanOrEqual(10);
    expect(truth.length).toBeLessThanOrEqual(20);
    // Items are rendered by name (buildCorpusItem), so names must be unique.
    expect(new Set(CORPUS_ITEM_NAMES).size).toBe(truth.length);
    for (const t of truth) {
      expect(t.seconds).toBeGreaterThanOrEqual(5);
      expect(t.seconds).toBeLessThanOrEqual(16);
      expect(t.key).toMatch(/^[A-G][b#]? (major|minor)$/);
    }
    expect(new Set(truth.map((t) => t.config.guitar_type))).toEqual(
      new Set(['acoustic', 'classical', 'electric']),
    );
    expect(truth.some((t) => t.config.capo > 0)).toBe(true);
    expect(truth.some((t) => t.config.tuning_name === 'Drop D')).toBe(true);
    expect(new Set(truth.map((t) => t.key)).size).toBeGreaterThanOrEqual(6);
  });

  it('covers every technique many times', () => {
    const all = truth.flatMap((t) => t.notes);
    expect(count(all, (n) => n.bend_to_fret !== null)).toBeGreaterThanOrEqual(25);
    expect(
      count(all, (n) => n.bend_to_fret !== null && n.release_to_fret !== null),
    ).toBeGreaterThan(8);
    expect(count(all, (n) => n.vibrato === 'small')).toBeGreaterThanOrEqual(10);
    expect(count(all, (n) => n.vibrato === 'big')).toBeGreaterThanOrEqual(10);
    expect(count(all, (n) => n.leading_slide)).toBeGreaterThanOrEqual(25);
    expect(count(all, (n) => n.leading_hammer_on)).toBeGreaterThanOrEqual(25);
    expect(count(all, (n) => n.leading_pull_off)).toBeGreaterThanOrEqual(25);
    expect(count(all, (n) => n.mute)).toBeGreaterThanOrEqual(25);
    expect(truth.flatMap((t) => t.chords).length).toBeGreaterThanOrEqual(25);
    // Bends of a half, one and one and a half steps.
    const sizes = new Set(
      all.filter((n) => n.bend_to_fret !== null).map((n) => n.bend_to_fret! - n.fret),
    );
    expect(sizes).toEqual(new Set([1, 2, 3]));
  });

  it('writes every note and chord in the spec format, with pitch_arr by the formula', () => {
    for (const t of truth) {
      for (const n of t.notes) {
        expect(noteEventInputSchema.parse(n)).toEqual(n);
        expect(n.pitch_arr).toHaveLength(Math.floor(((n.end_time - n.time) * 22050) / 256) + 1);
        expect(n.fret).toBeLessThanOrEqual(t.config.visible_frets);
        if (n.bend_to_fret !== null)
          expect(Math.max(...n.pitch_arr)).toBeCloseTo(1 + 3 * (n.bend_to_fret - n.fret), 1);
        else expect(new Set(n.pitch_arr)).toEqual(new Set([1]));
      }
      for (const c of t.chords) expect(chordEventInputSchema.parse(c)).toEqual(c);
    }
  });

  it('pairs every legato flag: the arriving note starts where the departing note on its string ends', () => {
    for (const t of truth) {
      for (const n of t.notes) {
        const kind = n.leading_slide
          ? 'slide'
          : n.leading_hammer_on
            ? 'hammer_on'
            : n.leading_pull_off
              ? 'pull_off'
              : null;
        if (kind === null) continue;
        const from = t.notes.find(
          (m) => m.string === n.string && Math.abs(m.end_time - n.time) < 1e-3 && m !== n,
        );
        expect(from, `${t.name} ${n.time}`).toBeDefined();
        expect(from![`trailing_${kind}`]).toBe(true);
        if (kind === 'hammer_on') expect(n.fret).toBeGreaterThan(from!.fret);
        if (kind === 'pull_off') expect(n.fret).toBeLessThan(from!.fret);
      }
    }
  });

  it('voices chords as they sound, with capo and other tunings', () => {
    const pitches = (frets: (number | null)[], tuning: readonly number[], capo: number) =>
      frets.flatMap((f, i) => (f === null ? [] : [(tuning[i]! + capo + f) % 12]));
    expect(
      new Set(pitches(voicing('G', [40, 45, 50, 55, 59, 64], 0), [40, 45, 50, 55, 59, 64], 0)),
    ).toEqual(new Set([7, 11, 2]));
    // Eb with a capo at 3 is a C shape; in Drop D a D minor keeps its pitches.
    expect(voicing('Eb', [40, 45, 50, 55, 59, 64], 3)).toEqual([null, 3, 2, 0, 1, 0]);
    const dropD = [38, 45, 50, 55, 59, 64] as const;
    expect(new Set(pitches(voicing('Dm', dropD, 0), dropD, 0))).toEqual(new Set([2, 5, 9]));
  });
});

describe('corpus audio', () => {
  const names = ['electric-legato-c-major', 'acoustic-mutes-c-major'];
  /** Seconds after a note's onset where its pitch is read (past the pluck's noise). */
  const READ_AFTER = [0.025, 0.035, 0.045];

  /**
   * The pitch (MIDI, fractional) the clip plays `after` seconds into a pitched true note, by YIN
   * searched 3 semitones either side of the answer; null when the clip is not periodic there.
   */
  function heardPitch(audio: Float32Array, n: NoteEvent, expected: number, after: number) {
    return yinPitch(audio, Math.round((n.time + after) * SAMPLE_RATE), expected - 3, expected + 3);
  }

  it('renders deterministic clips whose notes sound at the pitches of their answers', () => {
    for (const name of names) {
      const a = buildCorpusItem(name);
      const b = buildCorpusItem(name);
      const hash = (x: Float32Array) =>
        createHash('sha256').update(new Uint8Array(x.buffer)).digest('hex');
      expect(hash(a.audio)).toBe(hash(b.audio));

      // Every pitched true note long enough to read: the answer's pitch (with the bend's curve
      // from pitch_arr) against the median of YIN readings shortly after its onset.
      const pitched = a.notes.filter((n) => !n.mute && n.end_time - n.time >= 0.06);
      expect(pitched.length).toBeGreaterThanOrEqual(10);
      const misses: string[] = [];
      for (const n of pitched) {
        const base = openPitch(a.config, n.string) + n.fret;
        const readings = READ_AFTER.flatMap((after) => {
          const k = Math.round(after * FRAME_RATE);
          const expected = base + ((n.pitch_arr[k] ?? 1) - 1) / PITCH_STEPS_PER_FRET;
          const heard = heardPitch(a.audio, n, expected, after);
          return heard === null ? [] : [heard - expected];
        }).sort((x, y) => x - y);
        const off = readings[readings.length >> 1];
        if (off === undefined || Math.abs(off) > 0.5)
          misses.push(`${n.time.toFixed(3)} s${n.string} f${n.fret}: ${off?.toFixed(2) ?? 'none'}`);
      }
      expect(misses.length / pitched.length, `${name}: ${misses.join(', ')}`).toBeLessThanOrEqual(
        0.1,
      );
    }
  });
});

describe('techniqueScores', () => {
  const base = plainNote({ time: 1, end_time: 1.5, string: 3, fret: 5 });
  const n = (over: Partial<NoteEvent>): NoteEvent => ({ ...base, ...over });
  const setup = { tuning: [40, 45, 50, 55, 59, 64], capo: 0 };

  it('scores a perfect answer 1 (0 where nothing occurs) and counts each side of a legato move', () => {
    const truthNotes = [
      n({ trailing_hammer_on: true, end_time: 1.2 }),
      n({ time: 1.2, fret: 7, leading_hammer_on: true, vibrato: 'big' }),
      n({ time: 2, fret: 7, bend_to_fret: 9 }),
      n({ time: 3, mute: true }),
    ];
    const s = techniqueScores(truthNotes, truthNotes);
    const present = TECHNIQUES.filter((t) => s[t].truePositives > 0);
    expect(present).toEqual(['bend', 'vibrato', 'vibrato_big', 'hammer_on', 'mute']);
    for (const t of present) expect(s[t].f1).toBe(1);
    expect(s.hammer_on.truePositives).toBe(2);
    // No occurrences on either side: all counts 0, and 0 scores (metrics.ts's convention).
    expect(s.slide).toEqual({
      truePositives: 0,
      falsePositives: 0,
      falseNegatives: 0,
      precision: 0,
      recall: 0,
      f1: 0,
    });
  });

  it('counts misses, false alarms and unmatched notes', () => {
    const truthNotes = [n({ bend_to_fret: 7 }), n({ time: 2, vibrato: 'small' })];
    const predicted = [
      n({ time: 1.02 }),
      n({ time: 2.01, vibrato: 'big', trailing_slide: true }),
      n({ time: 4, mute: true }),
    ];
    const s = techniqueScores(truthNotes, predicted);
    expect(s.bend).toMatchObject({ truePositives: 0, falseNegatives: 1, f1: 0 });
    expect(s.vibrato).toMatchObject({ truePositives: 1, falsePositives: 0, f1: 1 });
    expect(s.slide).toMatchObject({ falsePositives: 1, precision: 0 });
    expect(s.mute).toMatchObject({ falsePositives: 1 });
  });

  it('matches by onset within 50 ms and by pitch across strings when given the tuning', () => {
    const truthNotes = [n({ vibrato: 'small' })];
    const elsewhere = [n({ string: 4, fret: 10, vibrato: 'small', time: 1.04 })];
    expect(techniqueScores(truthNotes, elsewhere, setup).vibrato.f1).toBe(1);
    expect(techniqueScores(truthNotes, elsewhere).vibrato.f1).toBe(0);
    expect(techniqueScores(truthNotes, [n({ vibrato: 'small', time: 1.06 })]).vibrato.f1).toBe(0);
  });

  it('matches a dead note by onset alone and sums clips', () => {
    const a = techniqueScores(
      [n({ mute: true })],
      [n({ mute: true, string: 6, fret: 0, time: 0.97 })],
    );
    expect(a.mute.f1).toBe(1);
    const b = techniqueScores([n({ mute: true })], []);
    const both = combineTechniqueScores([a, b]);
    expect(both.mute).toMatchObject({
      truePositives: 1,
      falseNegatives: 1,
      precision: 1,
      recall: 0.5,
    });
  });
});
