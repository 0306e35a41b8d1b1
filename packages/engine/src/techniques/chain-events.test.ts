import { describe, expect, it } from 'vitest';
import type { GuitarSetup, TabNote } from '../types.js';
import { glide, tone } from '../../test/support/tones.js';
import { fret, FRAME_RATE, midi, seconds, stringNumber } from '../units.js';
import { chainEvents } from './chain-events.js';

const setup: GuitarSetup = { tuning: [40, 45, 50, 55, 59, 64], capo: 0, frets: 22 };

/** A note on the third string (open G3 = 55) whose contour follows `bend` (semitones, per frame). */
function note(time: number, end: number, pitch: number, bend: number[] = []): TabNote {
  return {
    time: seconds(time),
    endTime: seconds(end),
    pitch: midi(pitch),
    amplitude: 0.8,
    onset: 0.2,
    bend,
    string: stringNumber(3),
    fret: fret(pitch - 55),
  };
}

/** A contour that holds for `hold` frames, then rises by `by` semitones over `ramp` frames. */
function holdThenGlide(hold: number, ramp: number, by: number): number[] {
  return [
    ...Array.from({ length: hold }, () => 0),
    ...Array.from({ length: ramp }, (_, i) => (by * (i + 1)) / (ramp + 1)),
  ];
}

/** The lesson's notes for the chain of `notes` on the third string, without audio. */
const eventsOnThird = (notes: TabNote[]) =>
  chainEvents({ string: 3, notes, strummed: false }, new Float32Array(0), setup);

/**
 * The lesson's notes for a note of `from` (MIDI) at 0.2 s gliding to `to` over `d` seconds from
 * 0.6 s, then `to` until 1.2 s, on the third string, the glide heard in the clip (tones.ts): the
 * notes stage's contour holds, then moves halfway during the glide.
 */
function glideHeard(from: number, to: number, d: number) {
  const frames = (a: number, b: number) => Math.round((b - a) * FRAME_RATE);
  return chainEvents(
    {
      string: 3,
      notes: [
        note(
          0.2,
          0.6 + d / 2,
          from,
          holdThenGlide(frames(0.2, 0.6), frames(0.6, 0.6 + d / 2), (to - from) / 2),
        ),
        note(0.6 + d / 2, 1.2, to),
      ],
      strummed: false,
    },
    tone(1.3, glide(from, to, 0.6, d)),
    setup,
  );
}

describe('chainEvents', () => {
  it('moves a chain off the string whose open note it glides away from', () => {
    // A3, a pull-off to G3, then a slow glide up to C4. The tab has G3 as the open third string,
    // which no finger can slide from: the fourth string plays all three (frets 7, 5, 10).
    const frames = (a: number, b: number) => Math.round((b - a) * FRAME_RATE);
    const notes = [
      note(0.2, 0.5, 57),
      note(0.5, 0.9, 55, holdThenGlide(frames(0.5, 0.9) - 8, 8, 5)),
      note(0.9, 1.4, 60),
    ];
    const events = eventsOnThird(notes);
    expect(events.map((e) => [e.string, e.fret])).toEqual([
      [4, 7],
      [4, 5],
      [4, 10],
    ]);
    expect(events[0]?.trailing_pull_off).toBe(true);
    expect(events[1]?.trailing_slide).toBe(true);
    expect(events[2]?.leading_slide).toBe(true);
  });

  it('reads a whole step up faster than a bend rises as a slide, a slower one as a bend', () => {
    // C4 (fret 5) gliding to D4 (fret 7) at 0.6 s, heard in the clip: in 70 ms the hand moved
    // (about 40 semitones a second through the middle of the way); in 200 ms the string was
    // pushed (about 14).
    const glideUp = (d: number) => glideHeard(60, 62, d);
    const fast = glideUp(0.07);
    expect(fast.map((e) => e.fret)).toEqual([5, 7]);
    expect(fast[0]?.trailing_slide).toBe(true);
    const slow = glideUp(0.2);
    expect(slow.map((e) => [e.fret, e.bend_to_fret])).toEqual([[5, 7]]);
  });

  it('keeps a step from the open string on it (a hammer-on)', () => {
    const events = eventsOnThird([note(0.2, 0.5, 57), note(0.5, 0.9, 55), note(0.9, 1.4, 57)]);
    expect(events.map((e) => [e.string, e.fret])).toEqual([
      [3, 2],
      [3, 0],
      [3, 2],
    ]);
    expect(events[1]?.trailing_hammer_on).toBe(true);
  });

  it('keeps a held note under a vibrato whole when the onset fires on a swell (issue 39), and a plain repeat apart', () => {
    // 0.9 s of A3 (fret 2) with a 40-cent vibrato at 6 Hz, the model reporting a second note of
    // the same pitch at 0.5 s with a clear onset (the level's swell), no strike.
    const wobble = (from: number, frames: number) =>
      Array.from(
        { length: frames },
        (_, i) => 0.4 * Math.sin((2 * Math.PI * 6 * (from + i)) / FRAME_RATE),
      );
    const first = Math.round(0.5 * FRAME_RATE);
    const rest = Math.round(0.4 * FRAME_RATE);
    const swell = { ...note(0.5, 0.9, 57, wobble(first, rest)), onset: 0.8 };
    const held = eventsOnThird([note(0, 0.5, 57, wobble(0, first)), swell]);
    expect(held).toHaveLength(1);
    expect(held[0]?.vibrato).not.toBe('');
    // The same two notes without a vibrato: the second is played again.
    const repeated = eventsOnThird([note(0, 0.5, 57), { ...note(0.5, 0.9, 57), onset: 0.8 }]);
    expect(repeated).toHaveLength(2);
  });

  it('reads a picked note that comes slowly down a whole step as a pre-bend released (issue 39), a fast fall as a slide', () => {
    // D4 (fret 7) from 0.2 s gliding down to C4 (fret 5) at 0.6 s, heard in the clip: in 200 ms
    // the string was let down (a pre-bend's release); in 70 ms the hand slid.
    const glideDown = (d: number) => glideHeard(62, 60, d);
    const slow = glideDown(0.2);
    expect(slow.map((e) => [e.fret, e.bend_to_fret, e.release_to_fret])).toEqual([[5, 7, 5]]);
    const fast = glideDown(0.07);
    expect(fast.map((e) => e.fret)).toEqual([7, 5]);
    expect(fast[0]?.trailing_slide).toBe(true);
  });
});
