import {
  bendAt,
  levelAt,
  smooth,
  vibratoAt,
  type Performance,
  type PlayedNote,
} from '../corpus/performance.js';
import { pitchBendRangeEvents, type MidiEvent, type MidiFileSpec } from './midi-file.js';

/**
 * A performance (corpus/performance.ts) as General MIDI for FluidSynth, the same notes and
 * pitch curves the answer key is written from:
 *
 * - one MIDI channel per string (channel 0 = string 1 ... channel 5 = string 6), so that a bend,
 *   vibrato or slide (pitch-bend messages) moves only the notes of its string; every channel's
 *   pitch-bend range is set to PITCH_BEND_RANGE semitones with RPN 0;
 * - 1 tick = 1 ms (1000 ticks per quarter at 60 bpm), so times are exact to half a millisecond;
 * - a picked note is a note-on; the pitch wheel follows the note's bend, release, vibrato and
 *   constant detune, sampled every BEND_STEP seconds, and the expression controller (CC 11) the
 *   level a vibrato or bend brings (corpus/performance.ts levelAt: a real string's level swings
 *   with its pitch; a SoundFont's does not), around EXPRESSION of full scale;
 * - a slide keeps the sounding MIDI note and glides the pitch wheel to the new fret, so no new
 *   attack is heard (as on a guitar); the wheel then holds the new fret's offset;
 * - a hammer-on or pull-off, like a slide, keeps the sounding MIDI note and moves the pitch wheel,
 *   at once, to the new fret (issue 39: the string goes on ringing at its new pitch with no pick's
 *   attack, as on a guitar; until then they were new notes at LEGATO_VELOCITY, a soft pick's
 *   sample attack, which is how MIDI guitar parts play them but not how a guitar sounds), with
 *   the energy the finger adds as a step of the expression controller: +HAMMER_DB for a hammer-on,
 *   +PULL_DB for a pull-off (the fretting finger plucks the string). Only a slur with no note
 *   sounding on its string (or beyond the wheel's range) is a new note at LEGATO_VELOCITY;
 * - a dead note (percussive, the fretting hand only touching the string) is played on its own
 *   channel (DEAD_CHANNEL) with GM program 28, Electric Guitar (muted), DEAD_SECONDS long and at
 *   DEAD_VELOCITY of its velocity: the choice between "program 28" and "very short soft notes on
 *   the item's own program" went to program 28 because a short note on a sustained patch still
 *   carries its pick attack and a clear pitch through the envelope's release, which is a muted but
 *   pitched note, while the muted-guitar sample is a thud with little pitch, closer to a dead note.
 */

/** Pitch-bend range in semitones set on every string channel (RPN 0). */
export const PITCH_BEND_RANGE = 12;
/** Milliseconds per tick (ticks per quarter 1000 at a tempo of one quarter per second). */
const TICKS_PER_SECOND = 1000;
/** Pitch-wheel update interval, seconds. */
const BEND_STEP = 0.005;
const LEGATO_VELOCITY = 0.55;
/** The level a hammer-on and a pull-off add to the ringing string (dB, expression). */
const HAMMER_DB = 1;
const PULL_DB = 3;
/** The expression controller's resting value: room above it for a swell of about 2 dB. */
const EXPRESSION = 100;
export const DEAD_CHANNEL = 6;
export const MUTED_GUITAR_PROGRAM = 28;
const DEAD_SECONDS = 0.05;
const DEAD_VELOCITY = 0.5;

const tick = (seconds: number) => Math.max(0, Math.round(seconds * TICKS_PER_SECOND));
const velocity7 = (v: number) => Math.max(1, Math.min(127, Math.round(20 + 107 * v)));
const wheel = (semitones: number) => (semitones / PITCH_BEND_RANGE) * 8192;

/** Semitones above the fretted pitch at absolute time `t` inside note `n` (bend, vibrato, glide). */
function offsetAt(n: PlayedNote, t: number): number {
  const tau = t - n.start;
  let p = n.detune + bendAt(n.bend, tau) + vibratoAt(n.vibrato, tau);
  if (n.next && n.glide !== undefined && t > n.end - n.glide)
    p += (n.next.fret - n.fret) * smooth((t - (n.end - n.glide)) / n.glide);
  return p;
}

/**
 * The MIDI file of a performance played with GM `program` (24..31) on every string, lasting
 * `endSeconds` (a last controller event keeps a renderer going until then, through the tails).
 */
export function performanceMidi(
  perf: Performance,
  program: number,
  endSeconds: number,
): MidiFileSpec {
  const events: MidiEvent[] = [
    { tick: 0, type: 'trackName', text: 'riffscribe soundfont corpus' },
    { tick: 0, type: 'tempo', microsecondsPerQuarter: 1_000_000 },
  ];
  for (let ch = 0; ch <= DEAD_CHANNEL; ch++) {
    events.push(
      {
        tick: 0,
        type: 'programChange',
        channel: ch,
        program: ch === DEAD_CHANNEL ? MUTED_GUITAR_PROGRAM : program,
      },
      { tick: 0, type: 'controlChange', channel: ch, controller: 7, value: 100 },
      { tick: 0, type: 'controlChange', channel: ch, controller: 10, value: 64 },
      // Effects come afterwards from ffmpeg (and FluidSynth runs with its own reverb and chorus off).
      { tick: 0, type: 'controlChange', channel: ch, controller: 91, value: 0 },
      { tick: 0, type: 'controlChange', channel: ch, controller: 93, value: 0 },
      ...pitchBendRangeEvents(0, ch, PITCH_BEND_RANGE),
    );
  }

  for (let s = 1; s <= 6; s++) {
    const channel = s - 1;
    const notes = perf.notes.filter((n) => n.string === s).sort((a, b) => a.start - b.start);
    // The MIDI note sounding on this string and the time its note-off is due.
    let sounding: { key: number; off: number } | null = null;
    let lastWheel = Number.NaN;
    let lastExpression = Number.NaN;
    const setExpression = (t: number, db: number) => {
      const v = Math.max(1, Math.min(127, Math.round(EXPRESSION * 10 ** (db / 20))));
      if (v === lastExpression) return;
      lastExpression = v;
      events.push({ tick: tick(t), type: 'controlChange', channel, controller: 11, value: v });
    };
    const setWheel = (t: number, semitones: number) => {
      const v = Math.round(Math.max(-8192, Math.min(8191, wheel(semitones))));
      if (v === lastWheel) return;
      lastWheel = v;
      events.push({ tick: tick(t), type: 'pitchBend', channel, value: v });
    };
    const noteOff = (t: number) => {
      if (sounding === null) return;
      events.push({
        tick: tick(Math.min(t, sounding.off)),
        type: 'noteOff',
        channel,
        note: sounding.key,
      });
      sounding = null;
    };
    for (const n of notes) {
      if (n.attack === 'mute') {
        const key = perf.pitchOf(s, n.fret);
        // The fretting hand's touch silences what the string was playing.
        noteOff(n.start);
        events.push(
          {
            tick: tick(n.start),
            type: 'noteOn',
            channel: DEAD_CHANNEL,
            note: key,
            velocity: velocity7(n.velocity * DEAD_VELOCITY),
          },
          { tick: tick(n.start + DEAD_SECONDS), type: 'noteOff', channel: DEAD_CHANNEL, note: key },
        );
        continue;
      }
      const fretted = perf.pitchOf(s, n.fret);
      let base: number;
      let continued = false;
      if (
        (n.attack === 'slide' || n.attack === 'hammer' || n.attack === 'pull') &&
        sounding !== null &&
        Math.abs(fretted - sounding.key) < PITCH_BEND_RANGE
      ) {
        base = sounding.key;
        sounding.off = n.end;
        continued = true;
      } else {
        noteOff(n.start);
        const soft = n.attack === 'hammer' || n.attack === 'pull' || n.attack === 'slide';
        base = fretted;
        setWheel(n.start, offsetAt(n, n.start));
        events.push({
          tick: tick(n.start),
          type: 'noteOn',
          channel,
          note: base,
          velocity: velocity7(n.velocity * (soft ? LEGATO_VELOCITY : 1)),
        });
        sounding = { key: base, off: n.end };
      }
      const moves = n.vibrato !== undefined || n.bend !== undefined;
      // The finger's energy on a slurred note that goes on ringing from the one before.
      const slurDb = !continued
        ? 0
        : n.attack === 'hammer'
          ? HAMMER_DB
          : n.attack === 'pull'
            ? PULL_DB
            : 0;
      if (moves || slurDb !== 0 || lastExpression !== EXPRESSION)
        setExpression(n.start, slurDb + levelAt(n, 0));
      for (let t = n.start; t < n.end; t += BEND_STEP) {
        setWheel(t, fretted - base + offsetAt(n, t));
        if (moves) setExpression(t, slurDb + levelAt(n, t - n.start));
      }
      if (n.next === undefined) noteOff(n.end);
    }
    noteOff(Number.POSITIVE_INFINITY);
  }
  events.push({
    tick: tick(endSeconds),
    type: 'controlChange',
    channel: 0,
    controller: 7,
    value: 100,
  });
  return { ticksPerQuarter: TICKS_PER_SECOND, tracks: [events] };
}
