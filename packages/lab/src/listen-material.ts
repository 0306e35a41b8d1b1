import { DEFAULT_TUNING, plainNote, type NoteEvent } from '@riffscribe/core';
import { SAMPLE_RATE, seededRandom } from '@riffscribe/engine/stages';
import { Performance } from './corpus/performance.js';
import { renderPerformance, TIMBRES, type Instrument } from './corpus/render.js';

/**
 * Material for Listen & check (issue 40): a four-bar lesson at 120 bpm (a beat every 0.5 s, bars
 * at 0, 2, 4 and 6 s, the server's steady grid) of single notes across the strings and two
 * chords, and performances of it rendered by the string model (an acoustic guitar): as written,
 * two semitones up, and with its second bar left out. The e2e plays them into Chromium's fake
 * microphone; the lab measures the checker on them.
 */

/** [time, string, fret] single notes, and chord shapes low string first (null = not played). */
const MELODY: readonly (readonly [number, number, number])[] = [
  [0.5, 5, 3],
  [1.0, 4, 2],
  [1.5, 3, 2],
  [2.0, 2, 1],
  [2.5, 1, 0],
  [3.0, 2, 3],
  [3.5, 3, 0],
  [5.0, 6, 3],
  [5.5, 5, 2],
  [6.0, 1, 5],
  [6.5, 2, 5],
  [7.0, 3, 5],
];
const CHORDS: readonly (readonly [number, readonly (number | null)[]])[] = [
  [4.0, [null, 0, 2, 2, 1, 0]],
  [7.5, [null, 3, 2, 0, 1, 0]],
];
const NOTE_SECONDS = 0.45;
const CHORD_SECONDS = 0.9;
/** The second bar: what the "bar left out" performance leaves out. */
export const LEFT_OUT_BAR = { start: 2, end: 4 } as const;
/** Seconds of audio a performance takes (its last chord rings to 8.4 s). */
export const PERFORMANCE_SECONDS = 8.5;

/** The lesson's notes, as a tab (time order; chords one note per string). */
export function listenLessonNotes(): NoteEvent[] {
  const notes: NoteEvent[] = MELODY.map(([time, string, fret]) =>
    plainNote({ time, end_time: time + NOTE_SECONDS, string, fret }),
  );
  for (const [time, shape] of CHORDS) {
    shape.forEach((fret, i) => {
      if (fret === null) return;
      notes.push(plainNote({ time, end_time: time + CHORD_SECONDS, string: 6 - i, fret }));
    });
  }
  return notes.sort((a, b) => a.time - b.time || b.string - a.string);
}

export type Variant = 'as-written' | 'transposed' | 'bar-left-out';

const ACOUSTIC: Instrument = { timbre: TIMBRES.acoustic, kind: 'acoustic', noise: 0.002 };

/** A performance of the lesson, mono at SAMPLE_RATE (22050 Hz), PERFORMANCE_SECONDS long. */
export function renderListenPerformance(variant: Variant, seed = 7): Float32Array {
  const random = seededRandom(seed);
  const p = new Performance(DEFAULT_TUNING, 0, random);
  const up = variant === 'transposed' ? 2 : 0;
  const skip = (t: number) =>
    variant === 'bar-left-out' && t >= LEFT_OUT_BAR.start && t < LEFT_OUT_BAR.end;
  const events = [
    ...MELODY.map(([t, s, f]) => ({ t, play: () => p.pick(s, f + up, t, NOTE_SECONDS) })),
    ...CHORDS.map(([t, shape]) => ({
      t,
      play: () =>
        p.strum(
          shape.map((f) => (f === null ? null : f + up)),
          t,
          CHORD_SECONDS,
        ),
    })),
  ].sort((a, b) => a.t - b.t);
  for (const e of events) if (!skip(e.t)) e.play();
  return renderPerformance(p, ACOUSTIC, PERFORMANCE_SECONDS, random);
}

/** A single plucked open A string (the calibration's note), `seconds` long. */
export function renderPluck(seconds = 0.4, seed = 3): Float32Array {
  const random = seededRandom(seed);
  const p = new Performance(DEFAULT_TUNING, 0, random);
  p.pick(5, 0, 0.005, seconds - 0.05, { velocity: 0.9 });
  return renderPerformance(p, ACOUSTIC, seconds, random);
}

/** Adds `clip` into `into` from `at` seconds, scaled by `gain`. */
export function mixAt(into: Float32Array, clip: Float32Array, at: number, gain = 1): void {
  const from = Math.round(at * SAMPLE_RATE);
  for (let i = 0; i < clip.length && from + i < into.length; i += 1) {
    into[from + i] = (into[from + i] ?? 0) + gain * (clip[i] ?? 0);
  }
}
