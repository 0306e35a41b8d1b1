import { voicing } from './chords.js';
import type { Performance, PlayedNote } from './performance.js';
import { between, seededRandom, type Random } from '@riffscribe/engine/stages';

/**
 * Seeded phrase writing: short musical figures in a key and hand position, each centred on one
 * technique (a bend, a vibrato, a hammer-on or pull-off run, a slide, dead notes, strummed chords)
 * and surrounded by plain picked notes, which are the negatives a detector must leave alone
 * (picked notes in a row on one string, long notes without vibrato). Each writer plays from `t`
 * and returns when the next phrase may begin.
 */

export type PhraseKind =
  'pick' | 'bend' | 'vibrato' | 'hammer' | 'pull' | 'slide' | 'mute' | 'chord';

export interface PhraseContext {
  perf: Performance;
  random: Random;
  /** Pitch classes of the key's scale. */
  scale: readonly number[];
  /** Hand positions (fret of the index finger, relative to the capo). */
  positions: readonly number[];
  /** Chord names (as they sound) for strummed phrases, in order. */
  progression: readonly string[];
  guitar: 'acoustic' | 'classical' | 'electric';
  /** Seconds per beat. */
  beat: number;
  /** Counts chords played so far (the progression advances). */
  chordIndex: number;
  position: number;
  /** Phrases that could run long (strumming) stop before this time, seconds. */
  deadline: number;
  /** Seconds between neighbouring strings of a strum, low and high (default 6-25 ms). */
  spread?: readonly [number, number];
  /** Frets low string to high string for a sounding chord name (default chords.ts's voicing). */
  voicing?: (name: string) => (number | null)[];
}

/** A phrase writer: plays from `t` and returns when the next phrase may begin. */
export type PhraseWriter = (c: PhraseContext, t: number) => number;

const mod12 = (v: number) => ((v % 12) + 12) % 12;

export function pick<T>(r: Random, xs: readonly T[]): T {
  const v = xs[Math.floor(r() * xs.length)];
  if (v === undefined) throw new Error('empty choice');
  return v;
}

export function inScale(c: PhraseContext, string: number, fret: number): boolean {
  return c.scale.includes(mod12(c.perf.pitchOf(string, fret)));
}

/** A scale fret on `string` inside the current hand position, or null. */
export function scaleFret(c: PhraseContext, string: number, lo = 0, hi = 4): number | null {
  const frets: number[] = [];
  for (let f = Math.max(0, c.position + lo); f <= Math.min(20, c.position + hi); f++)
    if (inScale(c, string, f)) frets.push(f);
  return frets.length > 0 ? pick(c.random, frets) : null;
}

function leadString(c: PhraseContext, strings: readonly number[]): [number, number] {
  for (let tries = 0; tries < 20; tries++) {
    const s = pick(c.random, strings);
    const f = scaleFret(c, s);
    if (f !== null) return [s, f];
  }
  return [pick(c.random, strings), c.position];
}

export function vibrato(c: PhraseContext, delay: number): NonNullable<PlayedNote['vibrato']> {
  const big = c.random() < 0.5;
  return {
    kind: big ? 'big' : 'small',
    // Real vibrato swings from about 10 to over 100 cents peak to peak at 4-8 Hz (issue 39);
    // `cents` is half the swing, and the engine calls it big from about 23 cents
    // (techniques/vibrato.ts).
    cents: big ? 28 * (60 / 28) ** c.random() : between(c.random, 10, 20),
    rate: between(c.random, 4.5, 7.5),
    delay,
    shape: c.guitar === 'classical' || c.random() < 0.5 ? 'centred' : 'upward',
  };
}

export function velocity(c: PhraseContext): number {
  return between(c.random, 0.55, 0.95);
}

/** Two to four picked notes; sometimes two in a row on one string (not legato). */
function pickPhrase(c: PhraseContext, t: number): number {
  const count = 2 + Math.floor(c.random() * 3);
  let s = 0;
  let previousFret = -1;
  for (let i = 0; i < count && t < c.deadline - 0.5; i++) {
    const d = pick(c.random, [0.5, 0.5, 1, 1.5]) * c.beat;
    let f: number;
    if (i > 0 && c.random() < 0.4) {
      const g = scaleFret(c, s);
      f = g ?? previousFret;
    } else [s, f] = leadString(c, [1, 2, 3, 4, 5]);
    const ring = c.random() < 0.5 ? d : d * between(c.random, 0.5, 0.85);
    c.perf.pick(s, f, t, ring, { velocity: velocity(c) });
    previousFret = f;
    t += d;
  }
  return t;
}

/** A number in [0, 1) from a note's time, string and fret: a choice that takes no random draw. */
function noteSeed(t: number, s: number, f: number): number {
  return seededRandom((Math.round(t * 1000) * 131 + s * 7_919 + f * 17) >>> 0)();
}

function bendPhrase(c: PhraseContext, t: number): number {
  const [s, f0] = leadString(c, [1, 2, 3, 3, 4]);
  const f = Math.max(2, f0);
  const semitones = pick(c.random, [1, 2, 2, 3]);
  const at = between(c.random, 0.03, 0.25);
  const rise = between(c.random, 0.1, 0.25);
  const released = c.random() < 0.5;
  // Players shake a held bend they let ring; that takes a few cycles.
  const withVibrato = !released && c.random() < 0.3;
  const hold = withVibrato ? between(c.random, 0.55, 0.9) : between(c.random, 0.15, 0.5);
  const fall = between(c.random, 0.1, 0.2);
  const after = between(c.random, 0.15, 0.4);
  const duration = at + rise + hold + (released ? fall + after : 0);
  // A pre-bend (issue 39): the string is bent before it is picked, then let down; about a third
  // of the released bends, chosen from the note's own seed so the phrase's other draws stay.
  if (released && noteSeed(t, s, f) < 0.35) {
    const top = between(c.random, 0.15, 0.4);
    c.perf.pick(s, f, t, top + fall + after, {
      velocity: velocity(c),
      bend: { semitones, at: -0.02, rise: 0.01, release: { at: top, fall, to: 0 } },
    });
    return t + top + fall + after + between(c.random, 0, 0.1);
  }
  c.perf.pick(s, f, t, duration, {
    velocity: velocity(c),
    bend: {
      semitones,
      at,
      rise,
      ...(released ? { release: { at: at + rise + hold, fall, to: 0 } } : {}),
    },
    ...(withVibrato ? { vibrato: vibrato(c, at + rise + 0.1) } : {}),
  });
  return t + duration + between(c.random, 0, 0.1);
}

function vibratoPhrase(c: PhraseContext, t: number): number {
  // A lead-in note, then the long note with vibrato.
  let end = t;
  if (c.random() < 0.3) end = pickPhrase(c, t);
  const [s, f0] = leadString(c, [1, 2, 3, 4, 5]);
  // Vibrato needs a fretting finger: never on an open string.
  const f = Math.max(1, f0);
  const duration = between(c.random, 0.7, 1.3);
  c.perf.pick(s, f, end, duration, {
    velocity: velocity(c),
    vibrato: vibrato(c, between(c.random, 0.1, 0.3)),
  });
  return end + duration + between(c.random, 0, 0.15);
}

/** The next fret up (or down) on a string within `reach` frets that is in the scale. */
export function legatoTarget(
  c: PhraseContext,
  s: number,
  f: number,
  up: boolean,
  reach = 4,
): number | null {
  const options: number[] = [];
  for (let k = 1; k <= reach; k++) {
    const g = up ? f + k : f - k;
    if (g < 0 || g > 20) continue;
    if (inScale(c, s, g) || g === 0) options.push(g);
  }
  return options.length > 0 ? pick(c.random, options.slice(0, 2)) : null;
}

function hammerPhrase(c: PhraseContext, t: number): number {
  const s = pick(c.random, [1, 2, 3, 4, 5, 6]);
  const open = c.position <= 3 && c.random() < 0.3;
  const f1 = open ? 0 : (scaleFret(c, s, 0, 2) ?? c.position);
  const f2 = legatoTarget(c, s, f1, true);
  if (f2 === null) return pickPhrase(c, t);
  const d1 = between(c.random, 0.15, 0.4);
  const first = c.perf.pick(s, f1, t, d1, { velocity: velocity(c) });
  const d2 = between(c.random, 0.15, 0.45);
  const second = c.perf.legato(first, f2, d2);
  let end = second.end;
  if (c.random() < 0.4) end = c.perf.legato(second, f1, between(c.random, 0.2, 0.5)).end;
  return end + between(c.random, 0.02, 0.15);
}

function pullPhrase(c: PhraseContext, t: number): number {
  const s = pick(c.random, [1, 2, 3, 4, 5, 6]);
  const f2 = Math.max(1, scaleFret(c, s, 1, 4) ?? c.position + 2);
  const toOpen = c.position <= 3 && c.random() < 0.35;
  const f1 = toOpen ? 0 : legatoTarget(c, s, f2, false);
  if (f1 === null) return pickPhrase(c, t);
  const d1 = between(c.random, 0.15, 0.4);
  const first = c.perf.pick(s, f2, t, d1, { velocity: velocity(c) });
  let last = c.perf.legato(first, f1, between(c.random, 0.15, 0.45));
  if (f1 > 0 && c.random() < 0.3) {
    const f0 = legatoTarget(c, s, f1, false);
    if (f0 !== null) last = c.perf.legato(last, f0, between(c.random, 0.2, 0.5));
  }
  return last.end + between(c.random, 0.02, 0.15);
}

function slidePhrase(c: PhraseContext, t: number): number {
  const s = pick(c.random, [1, 2, 3, 4, 5]);
  // A slide needs a finger on the string: it neither leaves nor reaches an open string (the
  // lowest fret in the key instead, chosen without a draw so the rest of the clip stays as it was).
  let f1 = scaleFret(c, s, 0, 3) ?? c.position;
  if (f1 < 1) {
    f1 = 1;
    while (f1 < 4 && !inScale(c, s, f1)) f1++;
  }
  const up = f1 < 4 || (f1 < 14 && c.random() < 0.6);
  const distance = 2 + Math.floor(c.random() * 6);
  let f2 = up ? f1 + distance : f1 - distance;
  f2 = Math.max(1, Math.min(19, f2));
  while (f2 > 1 && !inScale(c, s, f2) && f2 !== f1) f2 += up ? 1 : -1;
  if (f2 === f1) return pickPhrase(c, t);
  const glide = between(c.random, 0.04, 0.12);
  const first = c.perf.pick(s, f1, t, between(c.random, 0.2, 0.45) + glide, {
    velocity: velocity(c),
  });
  const second = c.perf.legato(first, f2, between(c.random, 0.25, 0.6), { glide });
  let end = second.end;
  if (c.random() < 0.3) {
    const back = between(c.random, 0.04, 0.12);
    second.end += back;
    end = c.perf.legato(second, f1, between(c.random, 0.25, 0.5), { glide: back }).end;
  }
  return end + between(c.random, 0.02, 0.15);
}

/** Dead notes mixed with picked notes, like a funk or percussive strumming figure. */
function mutePhrase(c: PhraseContext, t: number): number {
  const count = 3 + Math.floor(c.random() * 3);
  const step = pick(c.random, [0.25, 0.5]) * c.beat * 2;
  let muted = 0;
  for (let i = 0; i < count; i++) {
    const s = pick(c.random, [2, 3, 4, 5, 6]);
    if ((i % 2 === 1 || c.random() < 0.4) && muted < 4) {
      c.perf.mute(s, c.position + Math.floor(c.random() * 3), t, velocity(c));
      muted++;
    } else {
      const f = scaleFret(c, s) ?? c.position;
      c.perf.pick(s, f, t, step * between(c.random, 0.6, 0.95), { velocity: velocity(c) });
    }
    t += Math.max(step, 0.14);
  }
  return t;
}

function chordPhrase(c: PhraseContext, t: number): number {
  const name = c.progression[c.chordIndex % c.progression.length];
  c.chordIndex++;
  if (name === undefined) return pickPhrase(c, t);
  const frets = c.voicing ? c.voicing(name) : voicing(name, c.perf.tuning, c.perf.capo);
  const strums = pick(c.random, [1, 2, 2, 3, 4]);
  const start = t;
  let up = false;
  for (let i = 0; i < strums; i++) {
    const d = pick(c.random, [1, 1, 2]) * c.beat;
    const last = i === strums - 1 || t + d + 0.6 > c.deadline;
    const ring = last ? between(c.random, 0.6, 1.2) : d;
    c.perf.strum(frets, t, ring, {
      up,
      spread: between(c.random, c.spread?.[0] ?? 0.006, c.spread?.[1] ?? 0.025),
      velocity: velocity(c),
    });
    up = !up && c.random() < 0.5;
    t += last ? ring : d;
    if (last) break;
  }
  c.perf.chord(name, start, t);
  return t + between(c.random, 0.02, 0.1);
}

export const PHRASES: Record<PhraseKind, PhraseWriter> = {
  pick: pickPhrase,
  bend: bendPhrase,
  vibrato: vibratoPhrase,
  hammer: hammerPhrase,
  pull: pullPhrase,
  slide: slidePhrase,
  mute: mutePhrase,
  chord: chordPhrase,
};
