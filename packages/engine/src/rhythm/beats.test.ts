import { beatGridSchema, defaultGrid, steadyGrid } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import { Activation, MIDI_OFFSET, NOTE_BINS } from '../notes/posteriorgram.js';
import { seededRandom } from '../random.js';
import { FRAME_RATE } from '../units.js';
import { detectBeats, snapToAttacks } from './beats.js';
import type { RhythmNote } from './envelope.js';
import { beatCounts, beatF1, downbeatTimes, medianTempo, tempoAgrees } from './metrics.js';

/**
 * Synthetic clips with known beats: notes at the beats (with ±10 ms of human timing), rendered
 * into posteriorgrams the way Basic Pitch shows them (an onset burst over two frames, the note
 * activation held while the note sounds).
 */

interface Piece {
  notes: RhythmNote[];
  beats: number[];
  downbeats: number[];
  duration: number;
}

function activations(notes: readonly RhythmNote[], duration: number) {
  const n = Math.ceil(duration * FRAME_RATE);
  const onsets = Array.from({ length: n }, () => new Float32Array(NOTE_BINS));
  const frames = Array.from({ length: n }, () => new Float32Array(NOTE_BINS));
  for (const note of notes) {
    const bin = note.pitch - MIDI_OFFSET;
    const t0 = Math.round(note.time * FRAME_RATE);
    const t1 = Math.min(n, Math.round(note.endTime * FRAME_RATE));
    for (let t = t0; t < t1; t++) {
      const row = frames[t];
      if (row) row[bin] = Math.max(row[bin] ?? 0, 0.8);
    }
    const a = onsets[t0];
    const b = onsets[t0 + 1];
    if (a) a[bin] = Math.max(a[bin] ?? 0, note.onset);
    if (b) b[bin] = Math.max(b[bin] ?? 0, note.onset / 2);
  }
  return { frames: Activation.fromRows(frames), onsets: Activation.fromRows(onsets) };
}

/**
 * A piece over the given beat times: on each downbeat a bass note and a chord, on the other
 * beats the chord alone (softer), on some off-beats a soft melody note; the chord changes each bar.
 */
function piece(beats: number[], perBar: number, firstDownbeat: number, seed: number): Piece {
  const random = seededRandom(seed);
  const jitter = () => (random() - 0.5) * 0.02;
  const chords = [
    [40, [55, 59, 64]],
    [45, [57, 60, 64]],
    [43, [55, 59, 62]],
    [38, [57, 62, 66]],
  ] as const;
  const notes: RhythmNote[] = [];
  const downbeats: number[] = [];
  beats.forEach((t, i) => {
    const gap = (beats[i + 1] ?? t + 0.6) - t;
    const bar = Math.floor((i - firstDownbeat) / perBar);
    const [bass, chord] = chords[((bar % 4) + 4) % 4] ?? chords[0];
    const isDownbeat = i >= firstDownbeat && (i - firstDownbeat) % perBar === 0;
    if (isDownbeat) {
      downbeats.push(t);
      notes.push({ time: t + jitter(), endTime: t + perBar * gap, pitch: bass, onset: 0.9 });
    }
    if (i >= firstDownbeat) {
      const at = t + jitter();
      for (const p of chord)
        notes.push({ time: at, endTime: at + 0.9 * gap, pitch: p, onset: isDownbeat ? 0.8 : 0.6 });
    } else {
      notes.push({ time: t + jitter(), endTime: t + gap, pitch: 67, onset: 0.7 });
    }
    if (random() < 0.4)
      notes.push({ time: t + gap / 2 + jitter(), endTime: t + gap, pitch: 71, onset: 0.4 });
  });
  notes.sort((a, b) => a.time - b.time);
  const duration = (beats.at(-1) ?? 0) + 0.8;
  return { notes, beats, downbeats, duration };
}

const steady = (bpm: number, count: number, start = 0.5) =>
  Array.from({ length: count }, (_, i) => start + (i * 60) / bpm);

function check(p: Piece, perBar: number) {
  const grid = detectBeats(activations(p.notes, p.duration), p.notes, p.duration);
  expect(beatGridSchema.safeParse(grid).success).toBe(true);
  // Beats of the grid outside the played span have no truth to match: score inside it.
  const from = (p.beats[0] ?? 0) - 0.1;
  const to = (p.beats.at(-1) ?? 0) + 0.1;
  const inside = grid.beats.filter((t) => t >= from && t <= to);
  expect(beatF1(p.beats, inside)).toBeGreaterThanOrEqual(0.9);
  const downbeats = downbeatTimes(grid).filter((t) => t >= from && t <= to);
  expect(beatF1(p.downbeats, downbeats)).toBeGreaterThanOrEqual(0.9);
  const first = grid.downbeats[0] ?? 0;
  expect(
    grid.downbeats.every((d, i) => i === 0 || d - (grid.downbeats[i - 1] ?? 0) === perBar),
  ).toBe(true);
  return { grid, first };
}

describe('detectBeats', () => {
  it('tracks a steady 100 BPM piece in 4/4', () => {
    const p = piece(steady(100, 48), 4, 0, 1);
    const { grid } = check(p, 4);
    expect(medianTempo(grid.beats)).toBeCloseTo(100, -0.5);
  });

  it.each([60, 72, 129, 150])(
    'tracks a steady %i BPM piece (periods between model frames)',
    (bpm) => {
      const p = piece(steady(bpm, 48), 4, 0, bpm);
      const { grid } = check(p, 4);
      expect(Math.abs(medianTempo(grid.beats) / bpm - 1)).toBeLessThan(0.04);
    },
  );

  it('reads a fast piece (170 BPM) at its tempo or at half of it', () => {
    // The tempo prior (centred at 110 BPM) may pick the half-note level: an octave error, which
    // tempo acc2 forgives and the editor's "double tempo" fixes; the beats still fall on beats.
    const p = piece(steady(170, 64), 4, 0, 170);
    const grid = detectBeats(activations(p.notes, p.duration), p.notes, p.duration);
    expect(beatGridSchema.safeParse(grid).success).toBe(true);
    expect(tempoAgrees(170, medianTempo(grid.beats)).acc2).toBe(true);
    const inside = grid.beats.filter((t) => t <= (p.beats.at(-1) ?? 0) + 0.1);
    // Every grid beat is a true beat (precision 1 within the played span).
    expect(beatCounts(p.beats, inside).matched).toBeGreaterThanOrEqual(0.95 * inside.length);
  });

  it('follows a gradual accelerando (+15 % over the clip)', () => {
    // Tempo rising linearly from 96 to 110.4 BPM over 64 beats.
    const beats: number[] = [0.4];
    for (let i = 1; i < 64; i++) {
      const bpm = 96 * (1 + (0.15 * i) / 63);
      beats.push((beats.at(-1) ?? 0) + 60 / bpm);
    }
    const p = piece(beats, 4, 0, 2);
    check(p, 4);
  });

  it('follows a strong tempo change (+40 %) by its local tempo', () => {
    // 90 to 126 BPM over 80 beats: more drift than the tracker's transition cost alone allows.
    const beats: number[] = [0.4];
    for (let i = 1; i < 80; i++) {
      const bpm = 90 * (1 + (0.4 * i) / 79);
      beats.push((beats.at(-1) ?? 0) + 60 / bpm);
    }
    const p = piece(beats, 4, 0, 5);
    check(p, 4);
  });

  it('follows rubato: the tempo swelling ±8 % over eight bars, each beat ±3 % off', () => {
    const random = seededRandom(6);
    const beats: number[] = [0.4];
    for (let i = 1; i < 64; i++) {
      const swell = 1 + 0.08 * Math.sin((2 * Math.PI * i) / 32);
      const gap = (60 / 100) * swell * (1 + (random() - 0.5) * 0.06);
      beats.push((beats.at(-1) ?? 0) + gap);
    }
    const p = piece(beats, 4, 0, 6);
    check(p, 4);
  });

  it('keeps to the beat under syncopated comping (bossa nova: chords mostly off the beat)', () => {
    // Two-bar pattern in eighths: the thumb on 1, the and of 2, 3, the and of 4; chords (three
    // notes, louder) on eighths 0, 3, 5 of the first bar and 2, 4, 6 of the second.
    const bpm = 129;
    const beat = 60 / bpm;
    const random = seededRandom(7);
    const jitter = () => (random() - 0.5) * 0.02;
    const notes: RhythmNote[] = [];
    const beats: number[] = [];
    const bars = 12;
    for (let bar = 0; bar < bars; bar++) {
      const start = 0.3 + bar * 4 * beat;
      for (let b = 0; b < 4; b++) beats.push(start + b * beat);
      const root = bar % 2 === 0 ? 43 : 38;
      for (const e of [0, 3, 4, 7]) {
        const at = start + (e * beat) / 2 + jitter();
        notes.push({ time: at, endTime: at + beat, pitch: e < 4 ? root : root + 7, onset: 0.6 });
      }
      for (const e of bar % 2 === 0 ? [0, 3, 5] : [2, 4, 6]) {
        const at = start + (e * beat) / 2 + jitter();
        for (const p of [59, 62, 65])
          notes.push({ time: at, endTime: at + beat / 2, pitch: p, onset: 0.8 });
      }
    }
    notes.sort((a, b) => a.time - b.time);
    const duration = (beats.at(-1) ?? 0) + 1;
    const grid = detectBeats(activations(notes, duration), notes, duration);
    expect(beatGridSchema.safeParse(grid).success).toBe(true);
    // The beats only: bar 1 and beat 3 carry the same figure here (bass and chord), so the bar
    // phase is a guess between them.
    expect(
      beatF1(
        beats,
        grid.beats.filter((t) => t <= duration - 0.9),
      ),
    ).toBeGreaterThanOrEqual(0.9);
    expect(Math.abs(medianTempo(grid.beats) / bpm - 1)).toBeLessThan(0.04);
  });

  it('reads a two-bar comping figure with chords 1.5 beats apart at its beat, not at 2/3 of it', () => {
    // Thumb on 1 and 3; three-note chords on 1, the and of 2, and 4, then on 2 and the and of 3:
    // the chords repeat more strongly every 1.5 beats than every beat (84 BPM read for 126), but
    // the whole figure repeats every two bars, which 84 BPM does not divide.
    const bpm = 126;
    const beat = 60 / bpm;
    const random = seededRandom(12);
    const jitter = () => (random() - 0.5) * 0.02;
    const notes: RhythmNote[] = [];
    const beats: number[] = [];
    for (let bar = 0; bar < 12; bar++) {
      const start = 0.4 + bar * 4 * beat;
      for (let b = 0; b < 4; b++) beats.push(start + b * beat);
      const root = [45, 50, 43, 48][bar % 4] ?? 45;
      for (const b of [0, 2]) {
        const at = start + b * beat + jitter();
        notes.push({ time: at, endTime: at + 1.8 * beat, pitch: root, onset: 0.8 });
      }
      for (const b of bar % 2 === 0 ? [0, 1.5, 3] : [1, 2.5]) {
        const at = start + b * beat + jitter();
        for (const p of [60, 64, 67])
          notes.push({ time: at, endTime: at + 0.9 * beat, pitch: p, onset: 0.8 });
      }
    }
    notes.sort((a, b) => a.time - b.time);
    const duration = (beats.at(-1) ?? 0) + 1;
    const grid = detectBeats(activations(notes, duration), notes, duration);
    expect(Math.abs(medianTempo(grid.beats) / bpm - 1)).toBeLessThan(0.04);
    expect(
      beatF1(
        beats,
        grid.beats.filter((t) => t <= (beats.at(-1) ?? 0) + 0.1),
      ),
    ).toBeGreaterThanOrEqual(0.9);
  });

  // A known weakness, kept as a failing case: the rhythm corpus's ska clip does the same
  // (docs/evaluation.md). Giving the bass attacks more weight fixed it there but broke the
  // bossa case above and halved the steady 129 and 150 BPM pieces, so it was not kept.
  it.fails('keeps to the beat under off-beat skanks with a soft bass on 1 and 3 (ska)', () => {
    // Four-note chords, loud, on every offbeat; the thumb's root, softer, on beats 1 and 3. The
    // onsets alone put the grid on the offbeats (the skanks are the stronger attacks).
    const bpm = 150;
    const beat = 60 / bpm;
    const random = seededRandom(11);
    const jitter = () => (random() - 0.5) * 0.02;
    const notes: RhythmNote[] = [];
    const beats: number[] = [];
    for (let bar = 0; bar < 14; bar++) {
      const start = 0.4 + bar * 4 * beat;
      for (let b = 0; b < 4; b++) beats.push(start + b * beat);
      const root = bar % 2 === 0 ? 45 : 50;
      for (const b of [0, 2]) {
        const at = start + b * beat + jitter();
        notes.push({ time: at, endTime: at + beat, pitch: root, onset: 0.5 });
      }
      for (const b of [0.5, 1.5, 2.5, 3.5]) {
        const at = start + b * beat + jitter();
        for (const p of [52, 57, 61, 64])
          notes.push({ time: at, endTime: at + 0.2 * beat, pitch: p + (root - 45), onset: 0.9 });
      }
    }
    notes.sort((a, b) => a.time - b.time);
    const duration = (beats.at(-1) ?? 0) + 1;
    const grid = detectBeats(activations(notes, duration), notes, duration);
    expect(tempoAgrees(bpm, medianTempo(grid.beats)).acc2).toBe(true);
    const inside = grid.beats.filter((t) => t >= 0.3 && t <= (beats.at(-1) ?? 0) + 0.1);
    expect(beatCounts(beats, inside).matched).toBeGreaterThanOrEqual(0.9 * inside.length);
  });

  it('finds 3/4 in a waltz with the bass on the downbeat', () => {
    const p = piece(steady(108, 48), 3, 0, 3);
    const { grid } = check(p, 3);
    expect(grid.beat_unit).toBe(4);
  });

  it('puts the first bar line after a pickup', () => {
    const p = piece(steady(100, 41), 4, 1, 4);
    const { grid, first } = check(p, 4);
    // The grid's first downbeat is the true one (the pickup beat and the grid before it precede).
    expect(first).toBeGreaterThan(0);
    expect(Math.abs((grid.beats[first] ?? 0) - (p.downbeats[0] ?? 0))).toBeLessThan(0.07);
  });

  it('falls back to a steady 120 BPM 4/4 grid for silence and too few notes', () => {
    expect(detectBeats(null, [], 10)).toEqual(steadyGrid(120, 4, 10));
    const few = [1, 2, 3].map((t) => ({ time: t, endTime: t + 0.5, pitch: 60, onset: 1 }));
    expect(detectBeats(activations(few, 10), few, 10)).toEqual(steadyGrid(120, 4, 10));
    expect(beatGridSchema.safeParse(defaultGrid(0)).success).toBe(true);
  });
});

describe('snapToAttacks', () => {
  const note = (time: number): RhythmNote => ({ time, endTime: time + 0.3, pitch: 50, onset: 0.8 });

  it('moves a beat to the first note of the strum it sits on, and leaves a beat with no note', () => {
    // A strum from 0.98 s, strings 12 ms apart (the envelope peaks in its middle, near 1.01 s).
    const strum = [0.98, 0.992, 1.004, 1.016, 1.028].map(note);
    const out = snapToAttacks([1.01, 1.6], [...strum, note(1.75)]);
    expect(out[0]).toBeCloseTo(0.98, 6);
    expect(out[1]).toBe(1.6);
  });

  it('keeps beats in order', () => {
    const out = snapToAttacks([1, 1.05], [note(1.03)]);
    expect(out[1]).toBeGreaterThan(out[0] ?? Infinity);
  });
});
