import { noteEventInputSchema, TECHNIQUE_FLAGS, type NoteEvent } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import { detectTechniques } from '../src/techniques/detect.js';
import type { GuitarSetup, TabNote } from '../src/types.js';
import {
  FRAME_RATE,
  SAMPLE_RATE,
  fret,
  midi,
  midiToHz,
  seconds,
  stringNumber,
} from '../src/units.js';

/**
 * Technique detection on constructed notes: each note's contour is cut from one absolute pitch
 * curve (semitones, per model frame), the way the notes stage hands a string's movement over.
 * Without audio, strikes come from the onset activation; the audio cases synthesise a clip.
 */

const SETUP: GuitarSetup = { tuning: [40, 45, 50, 55, 59, 64], capo: 0, frets: 22 };
const NO_AUDIO = new Float32Array(0);
const open = (s: number) => SETUP.tuning[6 - s]!;

/** A note on `string` from `time` to `end` whose pitch follows `curve` (absolute MIDI). */
function note(
  time: number,
  end: number,
  string: number,
  pitch: number,
  curve: (t: number) => number = () => pitch,
  onset = 0.9,
): TabNote {
  const start = Math.round(time * FRAME_RATE);
  const frames = Math.max(1, Math.round(end * FRAME_RATE) - start);
  return {
    time: seconds(start / FRAME_RATE),
    endTime: seconds((start + frames) / FRAME_RATE),
    pitch: midi(pitch),
    amplitude: 0.8,
    onset,
    bend: Array.from({ length: frames }, (_, i) => curve((start + i) / FRAME_RATE) - pitch),
    string: stringNumber(string),
    fret: fret(pitch - open(string)),
  };
}

const smoothstep = (x: number) => (x <= 0 ? 0 : x >= 1 ? 1 : x * x * (3 - 2 * x));
/** From `a` to `b` between times t0 and t1. */
const ramp = (t: number, t0: number, t1: number, a: number, b: number) =>
  a + (b - a) * smoothstep((t - t0) / (t1 - t0));
const wobble = (t: number, cents: number, from = 0.15) =>
  t < from ? 0 : (cents / 100) * Math.sin(2 * Math.PI * 6.5 * (t - from));

function flagsOf(e: NoteEvent): string[] {
  return TECHNIQUE_FLAGS.filter((k) => e[k]);
}

function expectValid(events: readonly NoteEvent[]): void {
  for (const e of events) {
    // The spec's format, as core validates it (one technique per side, frets, pitch_arr).
    expect(noteEventInputSchema.parse(e)).toEqual(e);
    expect(e.pitch_arr).toHaveLength(Math.floor(((e.end_time - e.time) * 22050) / 256) + 1);
  }
}

describe('bends', () => {
  it('finds a held whole-step bend: bend_to_fret at the top, no release, pitch_arr by the spec', () => {
    const n = note(0.5, 1.3, 3, 62, (t) => ramp(t, 0.6, 0.8, 62, 64));
    const [e, ...rest] = detectTechniques([n], NO_AUDIO, SETUP);
    expect(rest).toHaveLength(0);
    expect(e).toMatchObject({ string: 3, fret: 7, bend_to_fret: 9, release_to_fret: null });
    expect(e!.pitch_arr[0]).toBe(1);
    expect(Math.max(...e!.pitch_arr)).toBeCloseTo(7, 0);
    expectValid([e!]);
  });

  it('finds half-step and step-and-a-half bends with their releases', () => {
    const half = note(0.5, 1.4, 2, 67, (t) =>
      t < 1 ? ramp(t, 0.6, 0.75, 67, 68) : ramp(t, 1, 1.15, 68, 67),
    );
    const wide = note(2, 3, 1, 76, (t) =>
      t < 2.6 ? ramp(t, 2.1, 2.35, 76, 79) : ramp(t, 2.6, 2.8, 79, 76),
    );
    const events = detectTechniques([half, wide], NO_AUDIO, SETUP);
    expect(events.map((e) => [e.fret, e.bend_to_fret, e.release_to_fret])).toEqual([
      [8, 9, 8],
      [12, 15, 12],
    ]);
    expectValid(events);
  });

  it('clamps pitch_arr to -8..10', () => {
    const n = note(0.5, 1.2, 1, 72, (t) => ramp(t, 0.6, 0.8, 72, 75.5));
    const [e] = detectTechniques([n], NO_AUDIO, SETUP);
    expect(Math.max(...e!.pitch_arr)).toBe(10);
  });

  it('joins a bend the notes stage split into fretted, half-way and top notes', () => {
    const curve = (t: number) => (t < 1 ? ramp(t, 0.62, 0.82, 69, 71) : ramp(t, 1, 1.15, 71, 69));
    const notes = [
      note(0.5, 0.7, 3, 69, curve, 0.95),
      note(0.7, 0.76, 3, 70, curve, 0.3),
      note(0.76, 1.08, 3, 71, curve, 0.3),
      note(1.08, 1.4, 3, 69, curve, 0.3),
    ];
    const events = detectTechniques(notes, NO_AUDIO, SETUP);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ fret: 14, bend_to_fret: 16, release_to_fret: 14 });
    expect(flagsOf(events[0]!)).toEqual([]);
    expectValid(events);
  });

  it('reads no bend into a strummed chord whose contour a neighbouring string pulls up', () => {
    // An open E chord strummed; the G#3 string's contour drifts a semitone up, as the model's
    // contours do where a chord's strings beat against each other: alone, it would be a bend.
    const chord = [
      [6, 40],
      [5, 47],
      [4, 52],
      [3, 56],
      [2, 59],
      [1, 64],
    ].map(([s, p], i) =>
      note(0.5 + 0.01 * i, 1.6, s!, p!, p === 56 ? (t) => ramp(t, 0.7, 0.9, 56, 57) : () => p!),
    );
    const events = detectTechniques(chord, NO_AUDIO, SETUP);
    expect(events).toHaveLength(6);
    expect(events.every((e) => e.bend_to_fret === null)).toBe(true);
    // The same contour on a note picked alone is a bend.
    const alone = detectTechniques([chord[3]!], NO_AUDIO, SETUP);
    expect(alone[0]?.bend_to_fret).toBe(2);
  });

  it('writes a bend heard on an open string on the next string down, where a finger can bend it', () => {
    const n = note(0.5, 1.3, 1, 64, (t) => ramp(t, 0.6, 0.8, 64, 66));
    const [e] = detectTechniques([n], NO_AUDIO, SETUP);
    expect(e).toMatchObject({ string: 2, fret: 5, bend_to_fret: 7 });
  });
});

describe('vibrato', () => {
  const held = (cents: number, rate = 6.5) =>
    note(0.5, 1.7, 2, 67, (t) =>
      t < 0.65 ? 67 : 67 + (cents / 100) * Math.sin(2 * Math.PI * rate * (t - 0.65)),
    );

  it('tells small (15 cents) from big (35 cents) at 6.5 Hz, and none from a steady note', () => {
    const events = [held(15), held(35), held(0)].map(
      (n) => detectTechniques([n], NO_AUDIO, SETUP)[0]?.vibrato,
    );
    expect(events).toEqual(['small', 'big', '']);
  });

  it('ignores a wobble faster than a hand can shake', () => {
    expect(detectTechniques([held(35, 14)], NO_AUDIO, SETUP)[0]?.vibrato).toBe('');
  });

  it('reads the vibrato from the audio when the contour is too coarse to show it', () => {
    for (const [cents, kind] of [
      [15, 'small'],
      [35, 'big'],
      [0, ''],
    ] as const) {
      const audio = synth(2, [
        { start: 0.3, end: 1.8, pitch: (t) => 67 + wobble(t - 0.3, cents), attack: true },
      ]);
      const flat = note(0.3, 1.8, 2, 67);
      expect(detectTechniques([flat], audio, SETUP)[0]?.vibrato).toBe(kind);
    }
  });
});

describe('slides, hammer-ons and pull-offs', () => {
  it('marks a slide on both notes and starts the arriving note where the glide arrives', () => {
    const curve = (t: number) => ramp(t, 0.86, 0.93, 62, 67);
    const events = detectTechniques(
      [note(0.5, 0.9, 3, 62, curve, 0.95), note(0.9, 1.4, 3, 67, curve, 0.3)],
      NO_AUDIO,
      SETUP,
    );
    expect(events.map((e) => [e.fret, ...flagsOf(e)])).toEqual([
      [7, 'trailing_slide'],
      [12, 'leading_slide'],
    ]);
    expect(events[1]!.time).toBeGreaterThanOrEqual(0.9);
    expect(events[1]!.time).toBeLessThan(0.95);
    expect(events[0]!.bend_to_fret).toBeNull();
    expectValid(events);
  });

  it('marks a hammer-on going up and a pull-off going down, trailing on the first note', () => {
    const step = (t: number) => (t < 0.8 ? 60 : t < 1.1 ? 62 : 60);
    const events = detectTechniques(
      [
        note(0.5, 0.8, 3, 60, step, 0.95),
        note(0.8, 1.1, 3, 62, step, 0.3),
        note(1.1, 1.5, 3, 60, step, 0.3),
      ],
      NO_AUDIO,
      SETUP,
    );
    expect(events.map((e) => flagsOf(e))).toEqual([
      ['trailing_hammer_on'],
      ['leading_hammer_on', 'trailing_pull_off'],
      ['leading_pull_off'],
    ]);
    expectValid(events);
  });

  it('leaves picked notes, out-of-reach steps and strums alone', () => {
    const picked = detectTechniques(
      [note(0.5, 0.8, 3, 60, undefined, 0.95), note(0.8, 1.1, 3, 62, undefined, 0.9)],
      NO_AUDIO,
      SETUP,
    );
    const tooFar = detectTechniques(
      [note(0.5, 0.8, 3, 57, undefined, 0.95), note(0.8, 1.1, 3, 65, undefined, 0.3)],
      NO_AUDIO,
      SETUP,
    );
    // Three strings struck in one motion: a strum, even if the model's onsets are weak.
    const strum = detectTechniques(
      [
        note(0.3, 0.52, 4, 50, undefined, 0.95),
        note(0.5, 1.2, 5, 48, undefined, 0.3),
        note(0.515, 1.2, 4, 52, undefined, 0.3),
        note(0.53, 1.2, 3, 55, undefined, 0.3),
      ],
      NO_AUDIO,
      SETUP,
    );
    for (const events of [picked, tooFar, strum])
      for (const e of events) expect(flagsOf(e)).toEqual([]);
    expect(tooFar).toHaveLength(2);
  });

  it('tells a pick from a hammer-on by the attack in the audio', () => {
    const hammered = synth(2.5, [
      ...warmUpPlucks(),
      { start: 1.5, end: 2.3, pitch: (t) => (t < 1.8 ? 60 : 62), attack: true },
    ]);
    const repicked = synth(2.5, [
      ...warmUpPlucks(),
      { start: 1.5, end: 1.8, pitch: () => 60, attack: true },
      { start: 1.8, end: 2.3, pitch: () => 62, attack: true },
    ]);
    // The model reports both second notes with a strong onset; only the audio tells them apart.
    const notes = [
      ...warmUpNotes(),
      note(1.5, 1.8, 3, 60, (t) => (t < 1.8 ? 60 : 62), 0.95),
      note(1.8, 2.3, 3, 62, (t) => (t < 1.8 ? 60 : 62), 0.95),
    ];
    const legato = detectTechniques(notes, hammered, SETUP).filter((e) => e.time > 1.4);
    const picked = detectTechniques(notes, repicked, SETUP).filter((e) => e.time > 1.4);
    expect(legato.map(flagsOf)).toEqual([['trailing_hammer_on'], ['leading_hammer_on']]);
    expect(picked.map(flagsOf)).toEqual([[], []]);
  });
});

describe('dead notes', () => {
  it('writes a percussive attack that no note explains as a muted note at the hand position', () => {
    const parts: Part[] = [
      ...warmUpPlucks(),
      { start: 1.6, end: 2.2, pitch: () => 57, attack: true },
    ];
    const withDeadNote = synth(2.5, parts, [1.42]);
    const clean = synth(2.5, parts);
    const notes = [...warmUpNotes(), note(1.6, 2.2, 4, 57)];
    const mutes = detectTechniques(notes, withDeadNote, SETUP).filter((e) => e.mute);
    expect(mutes).toHaveLength(1);
    expect(mutes[0]!.time).toBeCloseTo(1.42, 1);
    // The hand is where the nearest note is.
    expect(mutes[0]).toMatchObject({ string: 4, fret: 7, vibrato: '', bend_to_fret: null });
    expectValid(mutes);
    expect(detectTechniques(notes, clean, SETUP).filter((e) => e.mute)).toHaveLength(0);
  });
});

// ---- synthesis for the audio cases ----

interface Part {
  start: number;
  end: number;
  /** MIDI pitch at a time (seconds from the clip's start). */
  pitch: (t: number) => number;
  /** A pick: a short noise burst at the start (the attack's high band). */
  attack: boolean;
}

/** Three picked notes on other strings, so the clip has its own typical attack. */
function warmUpPlucks(): Part[] {
  return [0.2, 0.6, 1.0].map((start, k) => ({
    start,
    end: start + 0.3,
    pitch: () => 64 + 2 * k,
    attack: true,
  }));
}

function warmUpNotes(): TabNote[] {
  return [0.2, 0.6, 1.0].map((start, k) => note(start, start + 0.3, 1, 64 + 2 * k));
}

/** Harmonic tones (six partials, 1/h) following their pitch curves, plus dead-note slaps. */
function synth(
  length: number,
  parts: readonly Part[],
  slaps: readonly number[] = [],
): Float32Array {
  const out = new Float32Array(Math.round(length * SAMPLE_RATE));
  let seed = 12345;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed / 2 ** 31 - 1;
  };
  for (const p of parts) {
    let phase = 0;
    const a = Math.round(p.start * SAMPLE_RATE);
    const b = Math.min(out.length, Math.round(p.end * SAMPLE_RATE));
    for (let i = a; i < b; i++) {
      const t = i / SAMPLE_RATE;
      phase += (2 * Math.PI * midiToHz(p.pitch(t))) / SAMPLE_RATE;
      const env = Math.exp(-2 * (t - p.start)) * Math.min(1, (i - a) / 40, (b - i) / 200);
      let v = 0;
      for (let h = 1; h <= 6; h++) v += Math.sin(h * phase) / h;
      out[i] = out[i]! + 0.2 * env * v;
    }
    if (p.attack)
      for (let i = a; i < Math.min(b, a + 110); i++)
        out[i] = out[i]! + 0.3 * noise() * (1 - (i - a) / 110);
  }
  for (const s of slaps) {
    const a = Math.round(s * SAMPLE_RATE);
    for (let i = a; i < a + 330; i++) out[i] = out[i]! + 0.5 * noise() * Math.exp(-(i - a) / 80);
  }
  return out;
}
