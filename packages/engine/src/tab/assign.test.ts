import { TUNING_PRESETS, type Tuning } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import type { DetectedNote, GuitarSetup } from '../types.js';
import { midi, seconds } from '../units.js';
import { assignTab, assignTabWithReport } from './assign.js';
import { fingersNeeded, positionsOf } from './fingering.js';
import { groupNotes } from './groups.js';

const STANDARD: GuitarSetup = { tuning: [40, 45, 50, 55, 59, 64], capo: 0, frets: 22 };
const tuning = (id: string): Tuning => {
  const preset = TUNING_PRESETS.find((t) => t.id === id);
  if (!preset) throw new Error(id);
  return preset.pitches;
};

function note(time: number, pitch: number, length = 0.4, amplitude = 0.8): DetectedNote {
  return {
    time: seconds(time),
    endTime: seconds(time + length),
    pitch: midi(pitch),
    amplitude,
    onset: 0.9,
    bend: [],
  };
}

/**
 * A shape as a guitarist writes it, low string first: "x32010", or with dashes for frets above
 * 9: "8-10-10-9-8-8". Returns [string, fret] of the played strings.
 */
function parseShape(shape: string): [number, number][] {
  const cells = shape.includes('-') ? shape.split('-') : shape.split(/(?=.)/u);
  return cells.flatMap((c, i): [number, number][] => (c === 'x' ? [] : [[6 - i, Number(c)]]));
}

/** The notes of a shape struck at `time` (a strum: 10 ms between strings). */
function strum(shape: string, setup: GuitarSetup, time: number, length = 0.45): DetectedNote[] {
  return parseShape(shape).map(([s, f], i) =>
    note(time + i * 0.01, (setup.tuning[6 - s] ?? 0) + setup.capo + f, length),
  );
}

/** "string:fret" of each placed note, in time order, low string first. */
function places(notes: DetectedNote[], setup: GuitarSetup): string[] {
  return assignTab(notes, setup).map((n) => `${n.string}:${n.fret}`);
}

const expected = (shape: string) => parseShape(shape).map(([s, f]) => `${s}:${f}`);

describe('fingering helpers', () => {
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
    expect(positionsOf(64.5, STANDARD)).toEqual([]);
  });

  it('counts fingers with a barre on the lowest fret and partial barres above it', () => {
    // F barre 133211: index bars fret 1, ring and little on 3, middle on 2.
    expect(fingersNeeded([6, 5, 4, 3, 2, 1], [1, 3, 3, 2, 1, 1])).toBe(3);
    // C x32010: three fingers.
    expect(fingersNeeded([5, 4, 3, 2, 1], [3, 2, 0, 1, 0])).toBe(3);
    // Five different frets cannot be held.
    expect(fingersNeeded([6, 5, 4, 3, 2], [1, 2, 3, 4, 5])).toBe(5);
  });

  it('groups a strum and keeps the six strongest of more than six notes', () => {
    const notes = [
      ...[40, 45, 50, 55, 59, 64].map((p, i) => note(i * 0.005, p, 0.4, 0.5 + i * 0.05)),
      note(0.02, 52, 0.4, 0.1),
      note(0.5, 60),
    ];
    const { groups, dropped } = groupNotes(notes);
    expect(groups.map((g) => g.notes.length)).toEqual([6, 1]);
    expect(dropped.map((n) => n.pitch)).toEqual([52]);
  });
});

describe('assignTab: chord shapes', () => {
  it.each([
    ['C', 'x32010'],
    ['G', '320003'],
    ['E', '022100'],
    ['Am', 'x02210'],
    ['D', 'xx0232'],
    ['A', 'x02220'],
    ['Em', '022000'],
    ['Dm', 'xx0231'],
  ])('plays an open %s as %s', (_name, shape) => {
    expect(places(strum(shape, STANDARD, 0), STANDARD)).toEqual(expected(shape));
  });

  it.each([
    ['F barre at 1', '133211'],
    ['Bm barre at 2', 'x24432'],
    ['A barre at 5', '577655'],
    ['C barre at 8', '8-10-10-9-8-8'],
    ['Eb A-shape at 6', 'x68886'],
  ])('keeps a barre chord up the neck as one shape: %s', (_name, shape) => {
    expect(places(strum(shape, STANDARD, 0), STANDARD)).toEqual(expected(shape));
  });

  it('plays a progression of barre chords with as few hand moves as it needs', () => {
    // Bb Eb F Bb, written as x13331 x68886 133211 x13331. The F needs the low F (6:1 only), so
    // the hand must visit first position once; a player takes Bb at the sixth fret (E shape) next
    // to the Eb A-shape there, and moves once.
    const shapes = ['x13331', 'x68886', '133211', 'x13331'];
    const out = assignTab(
      shapes.flatMap((s, i) => strum(s, STANDARD, i)),
      STANDARD,
    );
    const lowest = [0, 1, 2, 3].map((i) =>
      Math.min(...out.filter((n) => Math.floor(n.time) === i && n.fret > 0).map((n) => n.fret)),
    );
    let moves = 0;
    for (let i = 1; i < lowest.length; i += 1) if (lowest[i] !== lowest[i - 1]) moves += 1;
    expect(moves).toBe(1);
    expect(out.filter((n) => Math.floor(n.time) === 2).map((n) => `${n.string}:${n.fret}`)).toEqual(
      expected('133211'),
    );
  });

  it('holds an arpeggio in its chord shape and lets the bass ring', () => {
    // C arpeggio: the bass rings over the bar while the upper notes follow one by one.
    const notes = [
      note(0, 48, 2),
      note(0.25, 52, 1.75),
      note(0.5, 55, 1.5),
      note(0.75, 60, 1.25),
      note(1, 64, 1),
      note(1.25, 60, 0.25),
      note(1.5, 55, 0.5),
    ];
    expect(places(notes, STANDARD)).toEqual(['5:3', '4:2', '3:0', '2:1', '1:0', '2:1', '3:0']);
  });
});

describe('assignTab: lines', () => {
  it('plays a scale run across positions with few hand shifts', () => {
    // Two octaves of A minor pentatonic and on up to the 17th fret.
    const run = [45, 48, 50, 52, 55, 57, 60, 62, 64, 67, 69, 72, 74, 76, 79, 81];
    const out = assignTab(
      run.map((p, i) => note(i * 0.2, p, 0.18)),
      STANDARD,
    );
    expect(out.map((n) => n.pitch)).toEqual(run);
    // The run stays in one hand position until it must climb, then shifts up once or twice.
    let shifts = 0;
    let low = Infinity;
    let high = -Infinity;
    for (const n of out.filter((x) => x.fret > 0)) {
      low = Math.min(low, n.fret);
      high = Math.max(high, n.fret);
      if (high - low > 4) {
        shifts += 1;
        low = n.fret;
        high = n.fret;
      }
    }
    expect(shifts).toBeLessThanOrEqual(2);
    expect(out.at(-1)?.fret).toBeGreaterThanOrEqual(12);
  });

  it('keeps a hammer-on on one string', () => {
    // D4 picked, E4 hammered (a weak onset): E4 could be the open e, but legato needs one string.
    const out = assignTab([note(0, 62, 0.3), { ...note(0.3, 64, 0.3), onset: 0.2 }], STANDARD);
    expect(out[0]?.string).toBe(out[1]?.string);
    expect(out[1]?.fret).toBeGreaterThan(0);
  });

  it('keeps a melody in fifth position rather than jumping to open strings', () => {
    // A minor pentatonic lick in the fifth-position box, from C5 at the eighth fret; E4, D4, G3
    // and E3 also exist as open or first-position notes, which would break the position.
    const lick: [number, string][] = [
      [72, '1:8'],
      [69, '1:5'],
      [67, '2:8'],
      [64, '2:5'],
      [62, '3:7'],
      [60, '3:5'],
      [57, '4:7'],
      [55, '4:5'],
      [52, '5:7'],
      [55, '4:5'],
      [57, '4:7'],
      [64, '2:5'],
      [69, '1:5'],
      [72, '1:8'],
    ];
    const notes = lick.map(([p], i) => note(i * 0.25, p, 0.22));
    expect(places(notes, STANDARD)).toEqual(lick.map(([, place]) => place));
  });

  it('plays a first-position melody with open strings', () => {
    // Opening of "Ode to Joy" in C: E E F G G F E D C C D E.
    const melody = [64, 64, 65, 67, 67, 65, 64, 62, 60, 60, 62, 64];
    const out = assignTab(
      melody.map((p, i) => note(i * 0.3, p, 0.28)),
      STANDARD,
    );
    expect(out.map((n) => `${n.string}:${n.fret}`)).toEqual([
      '1:0',
      '1:0',
      '1:1',
      '1:3',
      '1:3',
      '1:1',
      '1:0',
      '2:3',
      '2:1',
      '2:1',
      '2:3',
      '1:0',
    ]);
  });

  it('stays in a position for a long passage instead of drifting to the nut', () => {
    // Comping on an Eb barre at the sixth fret (x68886): a full strum, then 40 beats of notes,
    // dyads and triads of it that first position could also play (around the D shape xx1343).
    // A per-note cost of height would, over enough beats, pay for a shift to the nut.
    const fragments = [[51], [62, 67], [58], [62, 65], [51, 58], [63], [58, 62, 67]];
    const notes = [
      ...strum('x68886', STANDARD, 0),
      ...Array.from({ length: 40 }, (_, i) =>
        (fragments[i % fragments.length] ?? []).map((p) => note(0.5 + i * 0.45, p, 0.4)),
      ).flat(),
    ];
    const out = assignTab(notes, STANDARD);
    const fretted = out.filter((n) => n.fret > 0).map((n) => n.fret);
    expect(Math.min(...fretted)).toBeGreaterThanOrEqual(5);
  });

  it('plays a middle-register melody below the body joint, not high on the bass strings', () => {
    // G major phrase around the 7th-10th frets of the top strings; the same notes also fit one
    // box at the 15th-19th frets on the A to G strings, with fewer shifts.
    const melody = [62, 62, 72, 74, 69, 66, 69, 64, 74, 71, 71, 74, 64, 74, 59, 74, 72, 76, 67];
    const out = assignTab(
      melody.map((p, i) => note(i * 0.6, p, 0.55)),
      STANDARD,
    );
    for (const n of out) expect(n.fret).toBeLessThanOrEqual(14);
  });

  it('repeats a note on the string that still rings it', () => {
    const notes = [note(0, 57, 1.5), note(0.5, 57, 1), note(1, 64, 0.5)];
    const out = assignTab(notes, STANDARD);
    expect(out[0]?.string).toBe(out[1]?.string);
  });
});

describe('assignTab: tunings and capo', () => {
  it('writes frets relative to a capo (capo 2)', () => {
    const setup = { ...STANDARD, capo: 2 };
    // G shape and D shape with capo 2 sound A and E.
    expect(places(strum('320003', setup, 0), setup)).toEqual(expected('320003'));
    expect(places(strum('xx0232', setup, 0), setup)).toEqual(expected('xx0232'));
  });

  it('writes frets relative to a capo (capo 7)', () => {
    const setup = { ...STANDARD, capo: 7 };
    // C shape with capo 7 sounds G; an Am shape sounds Em.
    expect(places(strum('x32010', setup, 0), setup)).toEqual(expected('x32010'));
    expect(places(strum('x02210', setup, 1), setup)).toEqual(expected('x02210'));
    // Below the capo nothing can sound: the note is dropped and counted.
    const { notes, dropped } = assignTabWithReport([note(0, 45)], setup);
    expect(notes).toEqual([]);
    expect(dropped.outOfRange).toBe(1);
  });

  it('uses the dropped string in drop D', () => {
    const setup = { ...STANDARD, tuning: tuning('drop-d') };
    // D5 open, F5 and G5 as one-finger power chords on the three low strings.
    const shapes = ['000xxx', '333xxx', '555xxx', '333xxx'];
    const notes = shapes.flatMap((s, i) => strum(s, setup, i * 0.5));
    expect(places(notes, setup)).toEqual(shapes.flatMap(expected));
  });

  it('plays open DADGAD and a shape on it', () => {
    const setup = { ...STANDARD, tuning: tuning('dadgad') };
    expect(places(strum('000000', setup, 0), setup)).toEqual(expected('000000'));
    // D A C D over the low D: the hand frets two notes, the rest ring open.
    expect(places(strum('0x0230', setup, 1), setup)).toEqual(expected('0x0230'));
  });
});

describe('assignTab: what cannot be played', () => {
  it('drops and counts notes no string reaches, and never writes a fret past the guitar', () => {
    const setup = { ...STANDARD, frets: 19 };
    const { notes, dropped } = assignTabWithReport([note(0, 30), note(0, 64), note(0, 100)], setup);
    expect(notes.map((n) => n.pitch)).toEqual([64]);
    expect(dropped.outOfRange).toBe(2);
    const top = assignTab([note(0, 83)], setup);
    expect(top[0]?.fret).toBe(19);
  });

  it('keeps the six strongest of seven simultaneous notes', () => {
    const notes = [
      ...strum('022100', STANDARD, 0).map((n) => ({ ...n, amplitude: 0.9 })),
      { ...note(0.01, 57), amplitude: 0.2 },
    ];
    const { notes: out, dropped } = assignTabWithReport(notes, STANDARD);
    expect(out).toHaveLength(6);
    expect(out.map((n) => n.pitch)).not.toContain(57);
    expect(dropped.overSixStrings).toBe(1);
  });

  it('puts two notes of one group on two strings and keeps frets valid', () => {
    const out = assignTab([note(0, 59), note(0, 64), note(0, 64)], STANDARD);
    expect(new Set(out.map((n) => n.string)).size).toBe(out.length);
    for (const n of out) {
      expect(n.fret).toBeGreaterThanOrEqual(0);
      expect(n.fret).toBeLessThanOrEqual(22);
    }
  });

  it('drops the weakest note of a group no hand can hold', () => {
    // Low E (only 6:0), G5 and B5 (only high up: 2:20 and 1:19) and a weak B2, which could
    // only go on 5:2 here: no hand reaches frets 2 and 20 at once.
    const notes = [note(0, 47, 0.4, 0.3), note(0, 79), note(0, 83), note(0, 40)];
    const { notes: out, dropped } = assignTabWithReport(notes, STANDARD);
    expect(dropped.unplayable).toBe(1);
    expect(out.map((n) => `${n.string}:${n.fret}`)).toEqual(['6:0', '2:20', '1:19']);
  });

  it('is empty for no notes and drops notes with impossible values', () => {
    expect(assignTab([], STANDARD)).toEqual([]);
    const { notes, dropped } = assignTabWithReport(
      [
        { ...note(0, 60), time: seconds(Number.NaN) },
        { ...note(1, 64), endTime: seconds(0.5) },
      ],
      STANDARD,
    );
    expect(notes).toEqual([]);
    expect(dropped.invalid).toBe(2);
  });
});
