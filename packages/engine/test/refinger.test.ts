import {
  DEFAULT_TUNING,
  defaultUploadConfig,
  openStringPitch,
  plainNote,
  type NoteEvent,
} from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import { refingerSelection } from '../src/refinger.js';
import { decodeFingering, prepareFingering } from '../src/tab/learned/finger.js';
import { REFINGER_CONTEXT, RefingerError, planRefinger } from '../src/tab/refinger.js';

/**
 * Re-fingering a selection (issue 19) with the real fingering model: the constraint holds, every
 * pitch, time and technique is kept, the context stays where it is, and a constraint no fingering
 * meets is refused with nothing changed.
 */
const config = defaultUploadConfig('acoustic'); // standard tuning, no capo, 21 frets
const guitar = { tuning: config.tuning, capo: 0, frets: config.visible_frets };
const pitchOf = (n: NoteEvent) => openStringPitch(DEFAULT_TUNING, n.string) + n.fret;
const note = (time: number, string: number, fret: number, extra: Partial<NoteEvent> = {}) =>
  plainNote({ time, end_time: time + 0.4, string, fret, ...extra });

/** An A minor arpeggio in open position, one note every 0.5 s, twice (A3 C4 E4 A4 E4 C4). */
function arpeggio(): NoteEvent[] {
  const shape: [number, number][] = [
    [3, 2],
    [2, 1],
    [1, 0],
    [1, 5],
    [1, 0],
    [2, 1],
  ];
  return [...shape, ...shape].map(([s, f], i) => note(i * 0.5, s, f));
}

/** The notes after applying the answer's changes. */
function applied(notes: NoteEvent[], changed: { index: number; note: NoteEvent }[]) {
  const out = [...notes];
  for (const c of changed) out[c.index] = c.note;
  return out;
}

describe('decoder string masks', () => {
  it('keeps each note to its allowed strings and leaves the rest to the hand rules', () => {
    const notes = [
      { time: 0, pitch: 64 },
      { time: 0.5, pitch: 67 },
    ];
    const prepared = prepareFingering(
      notes,
      { tuning: DEFAULT_TUNING, capo: 0, maxFret: 21 },
      'steel',
    );
    // A flat model: every string equally likely.
    const logp = new Float32Array(6 * 2).fill(Math.log(1 / 6));
    const free = decodeFingering(prepared, logp, { shift: 1, move: 0.5 });
    const masked = decodeFingering(
      prepared,
      logp,
      { shift: 1, move: 0.5 },
      undefined,
      new Map([
        [0, [3]],
        [1, [2, 3]],
      ]),
    );
    expect(free.map((f) => f.string)).not.toEqual([3, 3]);
    expect(masked[0]).toMatchObject({ string: 3, fret: 9 });
    expect([2, 3]).toContain(masked[1]?.string);
    // A mask with no playable string leaves that note without one.
    const none = decodeFingering(
      prepared,
      logp,
      { shift: 1, move: 0.5 },
      undefined,
      new Map([[0, [6]]]),
    );
    expect(none[0]).toMatchObject({ string: null, fret: null });
  });
});

describe('refingerSelection', () => {
  it('moves a phrase to the hand position asked for, keeping pitches, times and context', async () => {
    const notes = arpeggio();
    const selection = [6, 7, 8, 9]; // the second cycle's A3 C4 E4 A4
    const res = await refingerSelection(notes, selection, { position: 5 }, config);
    const after = applied(notes, res.changed);
    expect(res.changed.length).toBeGreaterThan(0);
    for (const i of selection) {
      const n = after[i]!;
      expect(
        n.fret === 0 || (n.fret >= 5 && n.fret <= 8),
        `note ${String(i)} fret ${String(n.fret)}`,
      ).toBe(true);
    }
    after.forEach((n, i) => {
      expect(pitchOf(n)).toBe(pitchOf(notes[i]!));
      expect(n.time).toBe(notes[i]!.time);
      expect(n.end_time).toBe(notes[i]!.end_time);
    });
    // The context is pinned: only selected notes moved here.
    expect(res.changed.every((c) => selection.includes(c.index))).toBe(true);
    expect(res.window).toEqual({ from: 6 - REFINGER_CONTEXT, to: 11 });
    // A note the person re-fingered has no AI confidence left.
    expect(res.changed.every((c) => c.note.confidence === undefined)).toBe(true);
  });

  it('plays the selection on the strings asked for', async () => {
    const notes = arpeggio();
    const res = await refingerSelection(notes, [0, 1, 2], { strings: [3, 4] }, config);
    const after = applied(notes, res.changed);
    expect(
      after
        .slice(0, 3)
        .map((n) => n.string)
        .every((s) => s === 3 || s === 4),
    ).toBe(true);
    expect(after.map(pitchOf)).toEqual(notes.map(pitchOf));
  });

  it('pins one note to a string and re-solves the rest of the selection around it', async () => {
    const notes = arpeggio();
    const res = await refingerSelection(notes, [1, 2, 3], { pin: { index: 2, string: 2 } }, config);
    const after = applied(notes, res.changed);
    expect(after[2]).toMatchObject({ string: 2, fret: 5 });
    expect(after.map(pitchOf)).toEqual(notes.map(pitchOf));
  });

  it('moves a bend with its fret', async () => {
    const notes = arpeggio();
    // The C4 (string 2 fret 1) bent a whole step up and released.
    notes[7] = { ...notes[7]!, bend_to_fret: 3, release_to_fret: 1, pitch_arr: [1, 4, 7, 7, 4, 1] };
    const res = await refingerSelection(notes, [7], { strings: [3] }, config);
    const moved = res.changed.find((c) => c.index === 7)?.note;
    expect(moved).toMatchObject({ string: 3, fret: 5, bend_to_fret: 7, release_to_fret: 5 });
    expect(moved?.pitch_arr).toEqual([1, 4, 7, 7, 4, 1]);
  });

  it('refuses a constraint no fingering meets, naming the note', async () => {
    const notes = [note(0, 6, 1), note(0.5, 5, 0), note(1, 4, 2)]; // F2 A2 E3
    await expect(refingerSelection(notes, [0, 1, 2], { position: 5 }, config)).rejects.toThrow(
      /The F2 at 0\.00 s cannot be played in the hand position at fret 5/,
    );
    await expect(
      refingerSelection(notes, [0], { pin: { index: 0, string: 1 } }, config),
    ).rejects.toBeInstanceOf(RefingerError);
  });

  it('refuses a strum that the strings asked for cannot hold one note per string', async () => {
    // G3 B3 D4 strummed over 20 ms: each note fits string 3 or 4, the three of them do not.
    const chord = [note(0, 3, 0), note(0.01, 2, 0), note(0.02, 2, 3)];
    await expect(refingerSelection(chord, [0, 1, 2], { strings: [3, 4] }, config)).rejects.toThrow(
      /No fingering plays the chord at 0\.00 s one note per string/,
    );
  });

  it('re-solves the strum-mates of a selected note with it', () => {
    const chord = [note(0, 5, 0), note(0.01, 4, 2), note(0.02, 3, 2), note(1, 2, 1)];
    const plan = planRefinger(chord, [1], { position: 5 }, guitar);
    expect([...plan.pinned.keys()]).toEqual([3]);
    expect([...plan.allowed.keys()]).toEqual([1]);
  });

  it('refuses a selection outside the notes', () => {
    expect(() => planRefinger(arpeggio(), [12], { position: 0 }, guitar)).toThrow(RefingerError);
    expect(() => planRefinger(arpeggio(), [1], { pin: { index: 2, string: 1 } }, guitar)).toThrow(
      /must be one of the selected notes/,
    );
  });

  it('leans as the lesson’s hand position does (Guitar Setup, issue 39)', async () => {
    const notes = arpeggio();
    const selection = notes.map((_, i) => i);
    const meanFret = async (hand_position: 'open' | 'up_neck') => {
      const res = await refingerSelection(
        notes,
        selection,
        { strings: [1, 2, 3, 4] },
        {
          ...config,
          hand_position,
        },
      );
      const after = applied(notes, res.changed);
      for (const [i, n] of after.entries()) expect(pitchOf(n)).toBe(pitchOf(notes[i]!));
      return after.reduce((sum, n) => sum + n.fret, 0) / after.length;
    };
    expect(await meanFret('up_neck')).toBeGreaterThan(await meanFret('open'));
  });
});
