import { TUNING_PRESETS, type TuningPresetId } from '@riffscribe/core';
import { parseChord, voicing } from '../corpus/chords.js';
import type { PlayedNote } from '../corpus/performance.js';
import {
  PHRASES,
  inScale,
  pick,
  scaleFret,
  velocity,
  vibrato,
  type PhraseContext,
  type PhraseKind,
  type PhraseWriter,
} from '../corpus/phrases.js';
import { between } from '@riffscribe/engine/stages';

/**
 * Tabs written the way guitarists play, for the SoundFont corpus: the string model's phrase
 * writers (corpus/phrases.ts: picked notes, bends, vibrato, hammer-ons, pull-offs, slides, dead
 * notes, strummed chords) plus the figures they lack: power chords, scale boxes, double stops,
 * arpeggios over a chord shape and riffs on the open low strings. Chords are voiced by
 * `guitaristVoicing`: open shapes and barre shapes relative to the capo, the same shapes in a
 * tuning lowered as a whole, and barres across the open strings in the open tunings.
 */

export type IdiomKind = PhraseKind | 'power' | 'box' | 'doubleStop' | 'arpeggio' | 'openRiff';

const STANDARD = [40, 45, 50, 55, 59, 64] as const;
const SHARPS = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'] as const;
const mod12 = (v: number) => ((v % 12) + 12) % 12;
const noteName = (pc: number) => SHARPS[mod12(pc)] ?? 'C';

/** The chord the open strings of an open tuning sound, as root pitch class and quality. */
const OPEN_TUNING_CHORD: Partial<Record<TuningPresetId, { root: number; quality: string }>> = {
  'open-g': { root: 7, quality: '' },
  'open-d': { root: 2, quality: '' },
  'open-e': { root: 4, quality: '' },
  dadgad: { root: 2, quality: 'sus4' },
};

function transposeName(name: string, semitones: number): string {
  const c = parseChord(name);
  const bass = c.bass === null ? '' : `/${noteName(c.bass + semitones)}`;
  return `${noteName(c.root + semitones)}${c.quality}${bass}`;
}

/**
 * How a guitarist grabs a sounding chord under a tuning preset and capo: frets low string to high
 * string (null = not played), relative to the capo.
 * - Open tunings: the chord of the open strings is strummed open, its transpositions as a barre
 *   across all six strings (a slide or index-finger barre); other chords as in standard tuning.
 * - A tuning lowered as a whole (Half Down): the standard shapes, which sound lower.
 * - Standard and Drop D: open shapes where they exist at the capo, else E- or A-shape barres
 *   (chords.ts's `voicing`; Drop D moves the sixth string by pitch).
 */
export function guitaristVoicing(
  tuning: TuningPresetId,
  capo: number,
): (name: string) => (number | null)[] {
  const preset = TUNING_PRESETS.find((t) => t.id === tuning);
  if (preset === undefined) throw new Error(`unknown tuning ${tuning}`);
  const pitches = preset.pitches;
  const shift = pitches[0] - STANDARD[0];
  const uniform = pitches.every((p, i) => p - (STANDARD[i] ?? 0) === shift);
  const open = OPEN_TUNING_CHORD[tuning];
  return (name) => {
    const c = parseChord(name);
    if (open !== undefined && c.bass === null && (c.quality === open.quality || c.quality === '5'))
      return Array.from({ length: 6 }, () => mod12(c.root - open.root - capo));
    if (uniform && shift !== 0) return voicing(transposeName(name, -shift), STANDARD, capo);
    return voicing(name, pitches, capo);
  };
}

const playable = (f: number) => f >= 0 && f <= 20;

/** The sounding chord name of a power chord with its root at `pitch`. */
const powerName = (pitch: number) => `${noteName(pitch)}5`;

/**
 * Power chords: root on the sixth or fifth string with the fifth (and often the octave) above,
 * fretted by pitch so that Drop D and the open tunings get their one-finger shapes; held, or
 * chugged in eighths, each one a chord in the answers.
 */
function powerPhrase(c: PhraseContext, t: number): number {
  const count = 2 + Math.floor(c.random() * 3);
  for (let i = 0; i < count && t < c.deadline - 0.6; i++) {
    const root = pick(c.random, [6, 6, 5]);
    const candidates: number[] = [];
    for (let f = 0; f <= 9; f++) {
      const p = c.perf.pitchOf(root, f);
      if (inScale(c, root, f) && c.scale.includes(mod12(p + 7))) candidates.push(f);
    }
    const f = candidates.length > 0 ? pick(c.random, candidates) : 0;
    const pitch = c.perf.pitchOf(root, f);
    const fifth = pitch + 7 - c.perf.pitchOf(root - 1, 0);
    const octave = pitch + 12 - c.perf.pitchOf(root - 2, 0);
    const withOctave = c.random() < 0.6 && playable(octave);
    if (!playable(fifth)) continue;
    const frets: (number | null)[] = Array.from({ length: 6 }, () => null);
    frets[6 - root] = f;
    frets[7 - root] = fifth;
    if (withOctave) frets[8 - root] = octave;
    const start = t;
    const chugs = pick(c.random, [1, 2, 4]);
    const step = c.beat / 2;
    for (let k = 0; k < chugs; k++) {
      const last = k === chugs - 1;
      const ring = last ? step * between(c.random, 1.5, 3) : step * between(c.random, 0.6, 0.9);
      c.perf.strum(frets, t, ring, {
        spread: between(c.random, 0.002, 0.008),
        velocity: velocity(c),
      });
      t += last ? ring : step;
    }
    c.perf.chord(powerName(pitch), start, t);
    t += between(c.random, 0.02, 0.1);
  }
  return t;
}

/** A run through the scale box at the hand position, up or down, two or three notes a string. */
function boxPhrase(c: PhraseContext, t: number): number {
  const box: [number, number][] = [];
  for (let s = 6; s >= 1; s--)
    for (let f = Math.max(0, c.position); f <= Math.min(20, c.position + 4); f++)
      if (inScale(c, s, f)) box.push([s, f]);
  if (box.length < 4) return PHRASES.pick(c, t);
  const up = c.random() < 0.5;
  const run = up ? box : [...box].reverse();
  const count = 4 + Math.floor(c.random() * 6);
  const from = Math.floor(c.random() * Math.max(1, run.length - count));
  // Eighths, or sixteenths when the tempo leaves at least 0.13 s a note.
  const step = Math.max(0.13, c.beat * pick(c.random, [0.5, 0.5, 0.25]));
  let previous: PlayedNote | null = null;
  for (const [s, f] of run.slice(from, from + count)) {
    if (t > c.deadline - 0.3) break;
    // Guitarists slur some notes on one string: a hammer-on going up, a pull-off going down.
    if (previous !== null && previous.string === s && previous.fret !== f && c.random() < 0.35) {
      previous.end = t;
      previous = c.perf.legato(previous, f, step * between(c.random, 0.7, 0.95));
    } else {
      previous = c.perf.pick(s, f, t, step * between(c.random, 0.7, 0.95), {
        velocity: velocity(c),
      });
    }
    t += step;
  }
  return t + between(c.random, 0.05, 0.2);
}

/** Two notes on neighbouring strings a third, fourth or sixth apart, picked together. */
function doubleStopPhrase(c: PhraseContext, t: number): number {
  const count = 2 + Math.floor(c.random() * 3);
  for (let i = 0; i < count && t < c.deadline - 0.6; i++) {
    let pair: [number, number, number, number] | null = null;
    for (let tries = 0; tries < 20 && pair === null; tries++) {
      const high = pick(c.random, [1, 2, 3]);
      const fh = scaleFret(c, high);
      const fl = scaleFret(c, high + 1, -1, 4);
      if (fh === null || fl === null) continue;
      const interval = c.perf.pitchOf(high, fh) - c.perf.pitchOf(high + 1, fl);
      if ([3, 4, 5, 8, 9].includes(interval)) pair = [high, fh, high + 1, fl];
    }
    if (pair === null) return PHRASES.pick(c, t);
    const [hs, hf, ls, lf] = pair;
    const d = pick(c.random, [0.5, 1, 1]) * c.beat;
    const v = velocity(c);
    const gap = between(c.random, 0.002, 0.008);
    const slide = c.random() < 0.3 && hf >= 1 && lf >= 1 && hf + 2 <= 20 && lf + 2 <= 20;
    if (slide) {
      // Both fingers slide a whole step into the double stop.
      const glide = between(c.random, 0.05, 0.1);
      const lo = c.perf.pick(ls, lf, t, d * 0.5, { velocity: v });
      const hi = c.perf.pick(hs, hf, t + gap, d * 0.5 - gap, { velocity: v });
      const l2 = c.perf.legato(lo, lf + 2, d, { glide });
      c.perf.legato(hi, hf + 2, d, { glide });
      t = l2.end;
    } else {
      const withVibrato = c.random() < 0.2 && hf >= 1;
      c.perf.pick(ls, lf, t, d, { velocity: v });
      c.perf.pick(hs, hf, t + gap, d - gap, {
        velocity: v,
        ...(withVibrato ? { vibrato: vibrato(c, 0.15) } : {}),
      });
      t += d;
    }
    t += between(c.random, 0, 0.08);
  }
  return t;
}

/** A chord shape picked one string at a time, bass first, every string left ringing. */
function arpeggioPhrase(c: PhraseContext, t: number): number {
  const name = c.progression[c.chordIndex % c.progression.length];
  c.chordIndex++;
  if (name === undefined) return PHRASES.pick(c, t);
  const frets = c.voicing ? c.voicing(name) : voicing(name, c.perf.tuning, c.perf.capo);
  const strings = frets
    .map((f, i) => ({ f, s: 6 - i }))
    .filter((x): x is { f: number; s: number } => x.f !== null);
  if (strings.length < 3) return PHRASES.pick(c, t);
  const order = c.random() < 0.5 ? strings : [...strings, ...strings.slice(1, -1).reverse()];
  const step = (c.beat / 2) * pick(c.random, [1, 1, 0.5]);
  const end = Math.min(c.deadline, t + order.length * step + between(c.random, 0.3, 0.8));
  const start = t;
  for (const { s, f } of order) {
    if (t >= end - 0.1) break;
    c.perf.pick(s, f, t, end - t, { velocity: velocity(c) * 0.9 });
    t += step;
  }
  c.perf.chord(name, start, end);
  return end + between(c.random, 0.02, 0.1);
}

/** A riff on the open low strings: open-string chugs between fretted scale notes, slurs to open. */
function openRiffPhrase(c: PhraseContext, t: number): number {
  const count = 5 + Math.floor(c.random() * 5);
  const step = c.beat / 2;
  let previous: PlayedNote | null = null;
  for (let i = 0; i < count && t < c.deadline - 0.3; i++) {
    const s = pick(c.random, [6, 6, 6, 5, 5, 4]);
    const frets: number[] = [];
    for (let f = 1; f <= 5; f++) if (inScale(c, s, f)) frets.push(f);
    const chug = frets.length === 0 || c.random() < 0.45;
    const f = chug ? 0 : pick(c.random, frets);
    const ring = step * (chug ? between(c.random, 0.4, 0.7) : between(c.random, 0.75, 0.95));
    if (
      previous !== null &&
      previous.string === s &&
      previous.fret !== f &&
      previous.end >= t - 0.06 &&
      c.random() < 0.4
    ) {
      // A pull-off to the open string or a hammer-on from it, in time.
      previous.end = t;
      previous = c.perf.legato(previous, f, ring);
    } else {
      previous = c.perf.pick(s, f, t, ring, { velocity: velocity(c) });
    }
    t += step;
  }
  return t + between(c.random, 0.02, 0.15);
}

/** Every phrase writer of the SoundFont corpus. */
export const IDIOMS: Record<IdiomKind, PhraseWriter> = {
  ...PHRASES,
  power: powerPhrase,
  box: boxPhrase,
  doubleStop: doubleStopPhrase,
  arpeggio: arpeggioPhrase,
  openRiff: openRiffPhrase,
};
