import { describe, expect, it } from 'vitest';
import type { TabNote } from '../types.js';
import { fret, FRAME_RATE, midi, seconds, stringNumber } from '../units.js';
import type { AttackAnalysis } from './attacks.js';
import { buildChains, findStrikes, findStrums } from './chains.js';
import type { GuitarSetup } from '../types.js';

function note(time: number, end: number, pitch: number): TabNote {
  return {
    time: seconds(time),
    endTime: seconds(end),
    pitch: midi(pitch),
    amplitude: 0.8,
    onset: 0.8,
    bend: [],
    string: stringNumber(3),
    fret: fret(pitch - 55),
  };
}

/** Attack flux `flux[k]` at each note's start, flat partials' power (no rise). */
function attacks(notes: readonly TabNote[], flux: readonly number[], seconds = 4): AttackAnalysis {
  const frames = Math.round(seconds * FRAME_RATE);
  const f = new Float32Array(frames);
  notes.forEach((n, k) => {
    f[Math.round(n.time * FRAME_RATE)] = flux[k] ?? 0;
  });
  return { flux: f, energy: new Float32Array(frames).fill(1) };
}

describe('findStrikes', () => {
  // Three clear picks set the clip's typical attack (1.0); the fourth note starts where the
  // third stops, with half a pick's attack.
  const picks = [note(0.2, 0.5, 60), note(0.8, 1.1, 62), note(1.4, 1.7, 64)];

  it('takes a half-strength attack going up as a pick: a hammer-on adds less', () => {
    const notes = [...picks, note(1.7, 2.0, 65)];
    const struck = findStrikes(notes, attacks(notes, [1, 1, 1, 0.5]), findStrums(notes));
    expect(struck).toEqual([true, true, true, true]);
  });

  it('leaves it unstruck after a higher note (a pull-off plucks the string)', () => {
    const notes = [...picks, note(1.7, 2.0, 62)];
    const struck = findStrikes(notes, attacks(notes, [1, 1, 1, 0.5]), findStrums(notes));
    expect(struck).toEqual([true, true, true, false]);
  });

  it('measures a pick by the upper quartile of all strikes when none is clear of a stopping note', () => {
    // Played without a break: every note but the first starts where another stops. The picks
    // (0.7) are the clip's typical attack, so the picked note going down is struck and only the
    // pull-off (0.2) is not; against a fixed typical attack of 1.3 the pick would be a pull-off.
    const notes = [
      note(0.2, 0.5, 64),
      note(0.5, 0.8, 62),
      note(0.8, 1.1, 60),
      note(1.1, 1.4, 62),
      note(1.4, 1.7, 64),
    ];
    const struck = findStrikes(notes, attacks(notes, [0.7, 0.7, 0.2, 0.7, 0.7]), findStrums(notes));
    expect(struck).toEqual([true, true, false, true, true]);
  });

  it('leaves a note the clip glides into unstruck unless its attack is a full pick', () => {
    // A slide up five frets: the arrival shows half a pick's attack (the slide's end on the
    // fret), which alone reads as a soft pick.
    const arrival = { ...note(1.7, 2.0, 69), glidesIn: true };
    const notes = [...picks, arrival];
    expect(findStrikes(notes, attacks(notes, [1, 1, 1, 0.5]), findStrums(notes))).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect(findStrikes(notes, attacks(notes, [1, 1, 1, 0.7]), findStrums(notes))).toEqual([
      true,
      true,
      true,
      true,
    ]);
  });

  it('leaves a weak attack going up unstruck', () => {
    const notes = [...picks, note(1.7, 2.0, 65)];
    const struck = findStrikes(notes, attacks(notes, [1, 1, 1, 0.2]), findStrums(notes));
    expect(struck).toEqual([true, true, true, false]);
  });
});

describe('findStrums', () => {
  it('keeps a slow strum whole when one onset came a frame late', () => {
    // Strings 12 ms apart, the third reported 2 frames (23 ms) late: 42 ms after the second.
    const notes = [note(0.3, 1, 48), note(0.312, 1, 52), note(0.354, 1, 55), note(0.366, 1, 60)];
    expect(findStrums(notes)).toEqual([true, true, true, true]);
  });

  it('does not join notes a beat apart', () => {
    const notes = [note(0.3, 1, 48), note(0.312, 1, 52), note(0.324, 1, 55), note(0.5, 1, 60)];
    expect(findStrums(notes)).toEqual([true, true, true, false]);
  });
});

describe('buildChains', () => {
  const setup: GuitarSetup = { tuning: [40, 45, 50, 55, 59, 64], capo: 0, frets: 22 };
  const on = (n: TabNote, string: number, open: number): TabNote => ({
    ...n,
    string: stringNumber(string),
    fret: fret(n.pitch - open),
  });

  it('moves a chain to a string that carries the note continuing it', () => {
    // The tab put E4 on the open first string and the C#4 sliding from it on the second: one
    // string carries both (the second, frets 5 and 2).
    const notes = [on(note(0.2, 0.6, 64), 1, 64), on(note(0.6, 1.0, 61), 2, 59)];
    const chains = buildChains(notes, [true, false], findStrums(notes), setup);
    expect(chains).toHaveLength(1);
    expect(chains[0]?.string).toBe(2);
    expect(chains[0]?.notes).toHaveLength(2);
  });

  it('keeps a strummed chain on its string', () => {
    const strum = [
      on(note(0.2, 0.6, 52), 5, 45),
      on(note(0.21, 0.6, 59), 2, 59),
      on(note(0.22, 0.6, 64), 1, 64),
    ];
    const notes = [...strum, on(note(0.6, 1.0, 61), 2, 59)];
    const chains = buildChains(notes, [true, true, true, false], findStrums(notes), setup);
    expect(chains.find((c) => c.notes.some((n) => n.pitch === 64))?.string).toBe(1);
    expect(chains.find((c) => c.notes.some((n) => n.pitch === 64))?.notes).toHaveLength(1);
  });
});
