import tonejs from '@tonejs/midi';
import { describe, expect, it } from 'vitest';
import { plainNote, type NoteEvent } from '../events.js';
import type { BeatGrid } from './beats.js';
import { placedNotes } from './export-meta.js';
import type { NotationMeta } from './written.js';
import { GM_GUITAR_PROGRAM, MIDI_BEND_RANGE, bendValue, toMidi } from './midi.js';
import { scoreOf, TICKS_PER_QUARTER } from './score.js';

const { Midi } = tonejs;
const Q = TICKS_PER_QUARTER;

/** Two bars of 4/4 at 120, then two at 90 (beats 0.5 s, then 2/3 s apart). */
const GRID: BeatGrid = {
  beats: [
    ...Array.from({ length: 8 }, (_, i) => i * 0.5),
    ...Array.from({ length: 9 }, (_, i) => 4 + (i * 2) / 3),
  ],
  downbeats: [0, 4, 8, 12],
  beat_unit: 4,
};

/** A hand-built phrase with a capo on 2: every event kind the MIDI file writes. */
const NOTES: NoteEvent[] = [
  plainNote({ time: 0, end_time: 0.5, string: 3, fret: 2 }),
  // A two-note chord.
  plainNote({ time: 0.5, end_time: 1, string: 2, fret: 1 }),
  plainNote({ time: 0.5, end_time: 1, string: 4, fret: 2 }),
  // A dead note.
  plainNote({ time: 1, end_time: 1.25, string: 5, fret: 3, mute: true }),
  // Bend two frets and release (fret numbers only, flat curve).
  plainNote({ time: 1.25, end_time: 2, string: 2, fret: 8, bend_to_fret: 10, release_to_fret: 8 }),
  // A measured pitch curve up to +3 semitones.
  plainNote({ time: 2, end_time: 3, string: 1, fret: 5, pitch_arr: [1, 4, 7, 10, 10, 7] }),
  // Held across the bar line and the tempo change: a half tied to a half.
  plainNote({ time: 3, end_time: 4 + 4 / 3, string: 6, fret: 0 }),
  plainNote({ time: 4 + 4 / 3, end_time: 4 + 8 / 3, string: 4, fret: 5, leading_hammer_on: true }),
  plainNote({ time: 4 + 8 / 3, end_time: 8, string: 3, fret: 7, vibrato: 'big' }),
];

const META: NotationMeta = {
  title: 'Round trip',
  tuning: [40, 45, 50, 55, 59, 64],
  capo: 2,
  guitar: 'classical',
};

describe('toMidi', () => {
  const score = scoreOf(NOTES, GRID);
  const midi = new Midi(toMidi(score, NOTES, META));
  const track = midi.tracks.find((t) => t.notes.length > 0)!;

  it('keeps the resolution, the tempo map and the time signatures of the bars', () => {
    expect(midi.header.ppq).toBe(Q);
    expect(midi.header.name).toBe('Round trip');
    expect(midi.header.tempos.map((t) => t.ticks)).toEqual([0, 8 * Q]);
    expect(midi.header.tempos[0]!.bpm).toBeCloseTo(120, 2);
    expect(midi.header.tempos[1]!.bpm).toBeCloseTo(90, 2);
    expect(midi.header.timeSignatures.map((t) => [t.ticks, ...t.timeSignature])).toEqual([
      [0, 4, 4],
    ]);
    // The tempo map puts every note back at its time in the video.
    const played = track.notes.map((n) => n.time);
    const sorted = [...NOTES].sort((a, b) => a.time - b.time || a.string - b.string);
    const times = sorted.map((n) => n.time);
    expect(played.length).toBe(times.length);
    played.forEach((t, i) => {
      expect(t).toBeCloseTo(times[i]!, 2);
    });
  });

  it('writes one nylon-guitar track with the sounding pitches at the score ticks', () => {
    expect(track.instrument.number).toBe(GM_GUITAR_PROGRAM.classical);
    expect(track.channel).toBe(0);
    const expected = placedNotes(score).map((p) => {
      const n = NOTES[p.note]!;
      return { midi: META.tuning[6 - n.string]! + 2 + n.fret, ticks: p.tick, mute: n.mute };
    });
    const got = [...track.notes].sort((a, b) => a.ticks - b.ticks || a.midi - b.midi);
    expect(got.map((n) => n.midi)).toEqual(
      [...expected].sort((a, b) => a.ticks - b.ticks || a.midi - b.midi).map((n) => n.midi),
    );
    for (const e of expected) {
      const hit = got.find((n) => n.midi === e.midi && Math.abs(n.ticks - e.ticks) <= 1);
      expect(hit, `note ${String(e.midi)} at ${String(e.ticks)}`).toBeDefined();
    }
    // G string fret 2 with the capo on 2: B3; the chord: C#4 over E3.
    expect(got[0]).toMatchObject({ midi: 59, ticks: 0, durationTicks: Q });
    expect(got.slice(1, 3).map((n) => n.midi)).toEqual([54, 62]);
    // The low E held over the bar line: one note, the two tied halves joined.
    expect(got.find((n) => n.midi === 42)).toMatchObject({ ticks: 6 * Q, durationTicks: 4 * Q });
    // The hammer-on is softer than a picked note.
    const hammer = got.find((n) => n.midi === 50 + 2 + 5)!;
    expect(hammer.velocity).toBeLessThan(got[0]!.velocity);
  });

  it('writes a dead note as a short quiet note', () => {
    const dead = track.notes.find((n) => n.midi === 45 + 2 + 3)!;
    expect(dead.ticks).toBe(2 * Q);
    expect(dead.durationTicks).toBeLessThanOrEqual(Q / 8);
    expect(dead.velocity).toBeLessThan(0.4);
  });

  it('sets a 12-semitone bend range with RPN 0 before any bend', () => {
    const ccs = track.controlChanges;
    expect(ccs[101]!.map((c) => [c.ticks, Math.round(c.value * 127)])).toEqual([
      [0, 0],
      [2, 127],
    ]);
    expect(ccs[100]!.map((c) => [c.ticks, Math.round(c.value * 127)])).toEqual([
      [0, 0],
      [2, 127],
    ]);
    expect(ccs[6]!.map((c) => [c.ticks, Math.round(c.value * 127)])).toEqual([
      [1, MIDI_BEND_RANGE],
    ]);
    expect(Math.min(...track.pitchBends.map((b) => b.ticks))).toBeGreaterThan(2);
  });

  it('draws bends and vibrato with pitch-bend events and resets them after each note', () => {
    // The library reads a bend back as value / 8192: semitones = value * MIDI_BEND_RANGE.
    const semis = (from: number, to: number) =>
      track.pitchBends
        .filter((b) => b.ticks >= from && b.ticks < to)
        .map((b) => b.value * MIDI_BEND_RANGE);
    const at = (tick: number) => track.pitchBends.find((b) => b.ticks === tick)?.value;
    // Bend 8 -> 10 and release: from 2.5 quarters, a dotted quarter long.
    const bend = semis(2.5 * Q, 4 * Q);
    expect(bend[0]).toBeCloseTo(0, 3);
    expect(Math.max(...bend)).toBeCloseTo(2, 2);
    expect(bend.at(-1)!).toBeLessThan(0.5);
    // The measured curve: up to (10 - 1) / 3 = 3 semitones, over the half note of bar 2.
    const curve = semis(4 * Q, 6 * Q);
    expect(Math.max(...curve)).toBeCloseTo(3, 2);
    expect(at(4 * Q)).toBe(0);
    // Reset when the curve note ends, where the tied low E starts.
    expect(at(6 * Q)).toBe(0);
    expect(semis(6 * Q + 1, 12 * Q)).toEqual([]);
    // Big vibrato: +-35 cents around the note, then reset at the end of the score.
    const vibrato = semis(12 * Q, 14 * Q);
    expect(Math.max(...vibrato)).toBeGreaterThan(0.25);
    expect(Math.min(...vibrato)).toBeLessThan(-0.25);
    expect(Math.max(...vibrato.map(Math.abs))).toBeLessThanOrEqual(0.35 + 1e-3);
    expect(at(14 * Q)).toBe(0);
    expect(bendValue(2)).toBe(Math.round((2 / 12) * 8192));
    expect(bendValue(99)).toBe(8191);
  });

  it('writes the title as UTF-8', () => {
    const named = new Midi(toMidi(score, NOTES, { ...META, title: 'Étude für Gitarre — 練習' }));
    expect(Buffer.from(named.header.name, 'latin1').toString('utf8')).toBe(
      'Étude für Gitarre — 練習',
    );
  });

  it('picks the General MIDI guitar by guitar type', () => {
    const noGuitar: NotationMeta = { title: META.title, tuning: META.tuning, capo: META.capo };
    const file = (guitar?: NotationMeta['guitar']) =>
      new Midi(toMidi(score, NOTES, guitar ? { ...noGuitar, guitar } : noGuitar)).tracks.find(
        (t) => t.notes.length > 0,
      )!.instrument.number;
    expect([file('classical'), file('acoustic'), file('electric'), file()]).toEqual([
      24, 25, 27, 25,
    ]);
  });
});
