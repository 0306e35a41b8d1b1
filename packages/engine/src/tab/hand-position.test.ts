import { plainNote, type NoteEvent } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import { keepEventsInPosition, techniqueRuns } from '../techniques/in-position.js';
import type { GuitarSetup } from '../types.js';
import { keepHandInPosition, type Placed } from './hand-position.js';

const STANDARD: GuitarSetup = { tuning: [40, 45, 50, 55, 59, 64], capo: 0, frets: 22 };
const pitch = (n: Placed) => (STANDARD.tuning[6 - n.string] ?? 0) + n.fret;
const place = (notes: Placed[]) =>
  keepHandInPosition(notes, STANDARD, {
    pitchOf: pitch,
    moveTo: (n, string, fret) => ({ ...n, string, fret }),
  });
const at = (time: number, string: number, fret: number): Placed => ({ time, string, fret });

/** Issue 39 build item 4: no jump a hand would not make, when a string in reach plays the note. */
describe('the hand position rule', () => {
  it('moves D3 from fret 10 of the low E string to the open D string in a piece played at the nut', () => {
    // Fingerstyle at frets 0-3; the fingering wrote D3 at fret 10 of string 6, twice.
    const notes = [
      at(0, 3, 0),
      at(0.3, 2, 1),
      at(0.6, 1, 3),
      at(0.9, 6, 10),
      at(1.2, 2, 3),
      at(1.5, 3, 2),
      at(1.8, 6, 10),
      at(2.1, 2, 1),
      at(2.4, 1, 0),
      at(2.7, 2, 3),
    ];
    const out = place(notes);
    expect(out[3]).toEqual(at(0.9, 4, 0));
    expect(out[6]).toEqual(at(1.8, 4, 0));
    // Nothing else moved, and every note keeps its pitch.
    expect(out.filter((n, i) => n !== notes[i])).toHaveLength(2);
    out.forEach((n, i) => {
      expect(pitch(n)).toBe(pitch(notes[i]!));
    });
  });

  it('leaves a note out of position where no string in reach plays it, and open strings anywhere', () => {
    const notes = [at(0, 1, 9), at(0.2, 2, 10), at(0.4, 6, 0), at(0.6, 6, 1), at(0.8, 1, 8)];
    // F2 (41) is only on the low E string; the open E is always in reach.
    expect(place(notes)).toEqual(notes);
  });

  it('keeps the strings of a chord', () => {
    const chord = [at(1, 6, 10), at(1.01, 5, 12), at(1.02, 4, 12)];
    const notes = [at(0, 2, 1), at(0.3, 3, 2), ...chord, at(1.5, 2, 1), at(1.8, 3, 2)];
    expect(place(notes)).toEqual(notes);
  });

  it('moves a short run whole when one string in reach takes it', () => {
    // Playing around the 7th fret; a hammer-on C#5 -> D#5 written at frets 14 and 16 of the B
    // string: the high e plays it at 9 and 11, in reach.
    const notes = [
      at(0, 3, 7),
      at(0.25, 2, 8),
      at(0.5, 3, 9),
      at(0.75, 2, 7),
      at(1.0, 2, 14),
      at(1.1, 2, 16),
      at(1.5, 3, 7),
      at(1.75, 2, 8),
      at(2.0, 3, 9),
      at(2.25, 2, 7),
    ];
    const out = keepHandInPosition(notes, STANDARD, {
      pitchOf: pitch,
      moveTo: (n, string, fret) => ({ ...n, string, fret }),
      runs: [[4, 5]],
    });
    expect(out.slice(4, 6)).toEqual([at(1.0, 1, 9), at(1.1, 1, 11)]);
    expect(out.filter((n, i) => n !== notes[i])).toHaveLength(2);
  });
});

const note = (time: number, string: number, fret: number, extra: Partial<NoteEvent> = {}) =>
  plainNote({ time, end_time: time + 0.2, string, fret, ...extra });

describe('the position rule after the technique stage', () => {
  it('takes a B4 at fret 21 of the D string out of a lead around the 9th fret, and drops the pull-offs it cannot keep', () => {
    const lead = [
      note(0, 2, 10),
      note(0.2, 1, 9),
      note(0.4, 2, 12),
      note(0.6, 3, 9),
      // The technique stage kept this chain on the D string: 21 -> 14 -> 11, pulled off.
      note(0.8, 4, 21, { trailing_pull_off: true }),
      note(0.95, 4, 14, { leading_pull_off: true, trailing_pull_off: true }),
      note(1.1, 4, 11, { leading_pull_off: true }),
      note(1.4, 2, 10),
      note(1.6, 1, 9),
      note(1.8, 3, 11),
      note(2.0, 2, 12),
    ];
    expect(techniqueRuns(lead)).toEqual([[4, 5, 6]]);
    const out = keepEventsInPosition(lead, [], STANDARD);
    // Every note within four frets of the 9th-10th position (or open), every pitch kept.
    for (const n of out) {
      expect(
        n.fret === 0 || Math.abs(n.fret - 10) <= 4,
        `${String(n.string)}/${String(n.fret)}`,
      ).toBe(true);
    }
    const b4 = out.find((n) => n.time === 0.8);
    expect(b4 && (STANDARD.tuning[6 - b4.string] ?? 0) + b4.fret).toBe(71);
    expect(b4?.string).not.toBe(4);
    // A pull-off joins two notes of one string only.
    for (const n of out.filter((e) => e.trailing_pull_off)) {
      const next = out.find((e) => e.string === n.string && e.time > n.time);
      expect(next?.leading_pull_off).toBe(true);
    }
  });

  it('never moves a bent note to an open string, and moves its bend with it', () => {
    // Playing at the nut; a B3 written at fret 9 of the D string, bent a whole step.
    const around = [note(0, 2, 1), note(0.3, 3, 2), note(1.2, 2, 3), note(1.5, 3, 0)];
    const bent = note(0.7, 4, 9, { bend_to_fret: 11 });
    const out = keepEventsInPosition([...around, bent], [], STANDARD);
    // The open B string plays B3 but cannot bend it: the G string's fret 4 does.
    expect(out.find((n) => n.time === 0.7)).toMatchObject({ string: 3, fret: 4, bend_to_fret: 6 });
  });
});
