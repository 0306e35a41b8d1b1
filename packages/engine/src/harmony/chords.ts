import type { ChordEvent } from '@riffscribe/core';
import { MIN_CHORD_SECONDS } from '@riffscribe/core';
import { estimateKey, keyUsesFlats, type SoundingNote } from './key.js';

const SHARPS = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];
const FLATS = ['C', 'Db', 'D', 'Eb', 'E', 'F', 'Gb', 'G', 'Ab', 'A', 'Bb', 'B'];

/** Chord qualities: suffix and intervals above the root, simplest first (wins ties). */
export const QUALITIES: readonly { suffix: string; intervals: readonly number[] }[] = [
  { suffix: '', intervals: [0, 4, 7] },
  { suffix: 'm', intervals: [0, 3, 7] },
  { suffix: '5', intervals: [0, 7] },
  { suffix: '7', intervals: [0, 4, 7, 10] },
  { suffix: 'm7', intervals: [0, 3, 7, 10] },
  { suffix: 'maj7', intervals: [0, 4, 7, 11] },
  { suffix: 'sus4', intervals: [0, 5, 7] },
  { suffix: 'sus2', intervals: [0, 2, 7] },
  { suffix: '6', intervals: [0, 4, 7, 9] },
  { suffix: 'add9', intervals: [0, 2, 4, 7] },
  { suffix: 'dim', intervals: [0, 3, 6] },
  { suffix: 'aug', intervals: [0, 4, 8] },
];

/** A named chord: root pitch class, quality suffix, bass pitch class. */
export interface ChordName {
  root: number;
  suffix: string;
  bass: number;
}

const pc = (pitch: number) => ((Math.round(pitch) % 12) + 12) % 12;

/**
 * Names a set of sounding pitches: the root and quality whose template explains the pitch
 * classes best (missing and extra tones cost, a root in the bass is preferred), or null when
 * fewer than three pitch classes sound (two only for a power chord: root and fifth, doubled).
 */
export function nameChord(pitches: readonly number[]): ChordName | null {
  if (pitches.length === 0) return null;
  const classes = new Set(pitches.map(pc));
  const bass = pc(Math.min(...pitches));
  const power = classes.size === 2 && pitches.length >= 3;
  if (classes.size < 3 && !power) return null;
  let best: ChordName | null = null;
  let bestScore = -Infinity;
  for (const root of classes) {
    QUALITIES.forEach((q, order) => {
      if (q.suffix === '5' && !power) return;
      const template = new Set(q.intervals.map((i) => (root + i) % 12));
      let matched = 0;
      for (const c of classes) if (template.has(c)) matched += 1;
      const extra = classes.size - matched;
      const missing = template.size - matched;
      // A chord needs its third or its sus tone; a missing fifth is forgiven more easily.
      const score =
        matched - 1.2 * extra - 0.9 * missing + (root === bass ? 0.35 : 0) - order * 0.01;
      if (score > bestScore) {
        bestScore = score;
        best = { root, suffix: q.suffix, bass };
      }
    });
  }
  return best;
}

/** Text of a chord name, with a slash bass when the bass is not the root. */
export function chordText(name: ChordName, flats: boolean): string {
  const names = flats ? FLATS : SHARPS;
  const root = `${names[name.root] ?? 'C'}${name.suffix}`;
  return name.bass === name.root ? root : `${root}/${names[name.bass] ?? 'C'}`;
}

/** Analysis hop and window (seconds): a chord is judged over what rang around each step. */
const HOP_SECONDS = 0.125;
const WINDOW_BEFORE = 0.125;
const WINDOW_AFTER = 0.375;
/** A pitch class counts when it sounds at least this share of the strongest one's time. */
const MIN_SHARE = 0.3;

/** Pitches that shape the harmony in a window: weighted by how long they sound in it. */
function windowPitches(notes: readonly SoundingNote[], from: number, to: number): number[] {
  const weight = new Array<number>(12).fill(0);
  const lowest = new Map<number, number>();
  for (const n of notes) {
    const overlap = Math.min(n.endTime, to) - Math.max(n.time, from);
    if (overlap <= 0) continue;
    const c = pc(n.pitch);
    weight[c] = (weight[c] ?? 0) + overlap;
    lowest.set(c, Math.min(lowest.get(c) ?? Infinity, n.pitch));
  }
  const max = Math.max(...weight);
  if (max <= 0) return [];
  const out: number[] = [];
  weight.forEach((w, c) => {
    const p = lowest.get(c);
    if (w >= MIN_SHARE * max && p !== undefined) out.push(p);
  });
  return out;
}

/**
 * Chord events over a clip: at every 1/8 s the pitch classes that rang in the surrounding half
 * second (arpeggios included, passing tones below 30% of the strongest left out) are named;
 * where fewer than three pitch classes sound there is no chord. Unchanged neighbours are merged
 * and no event is shorter than MIN_CHORD_SECONDS (0.05 s). Spelling follows the clip's key.
 */
export function detectChords(notes: readonly SoundingNote[]): ChordEvent[] {
  if (notes.length === 0) return [];
  const flats = keyUsesFlats(estimateKey(notes));
  const start = Math.min(...notes.map((n) => n.time));
  const end = Math.max(...notes.map((n) => n.endTime));
  const spans: ChordEvent[] = [];
  for (let t = start; t < end; t += HOP_SECONDS) {
    const stepEnd = Math.min(end, t + HOP_SECONDS);
    const sounding = notes.some((n) => n.time < stepEnd && n.endTime > t);
    const name = sounding
      ? nameChord(windowPitches(notes, t - WINDOW_BEFORE, t + WINDOW_AFTER))
      : null;
    if (!name) continue;
    const chord = chordText(name, flats);
    const last = spans.at(-1);
    if (last?.chord === chord && t - last.end_time < 1e-6) last.end_time = stepEnd;
    else spans.push({ time: t, end_time: stepEnd, chord, event_type: 'chord' });
  }
  // A change that lasts under two steps is the window crossing a chord change, not a chord of
  // its own: the previous chord holds on. Slivers are dropped.
  const out: ChordEvent[] = [];
  for (const span of spans) {
    if (span.end_time - span.time < MIN_CHORD_SECONDS) continue;
    const previous = out.at(-1);
    if (
      previous &&
      span.end_time - span.time < 2 * HOP_SECONDS - 1e-6 &&
      span.time - previous.end_time < 1e-6 &&
      span !== spans.at(-1)
    ) {
      previous.end_time = span.end_time;
      continue;
    }
    const last = out.at(-1);
    if (last?.chord === span.chord && span.time - last.end_time < 0.3) {
      last.end_time = span.end_time;
    } else out.push({ ...span });
  }
  // Chord changes land on the note onset nearest the step where the name changed.
  const onsets = notes.map((n) => n.time);
  for (let i = 1; i < out.length; i += 1) {
    const event = out[i];
    const previous = out[i - 1];
    if (!event || !previous) continue;
    let best = event.time;
    let distance = HOP_SECONDS * 1.5;
    for (const t of onsets) {
      if (Math.abs(t - event.time) < distance) {
        distance = Math.abs(t - event.time);
        best = t;
      }
    }
    if (best > previous.time + MIN_CHORD_SECONDS && best < event.end_time - MIN_CHORD_SECONDS) {
      if (previous.end_time >= event.time - 1e-6) previous.end_time = best;
      event.time = best;
    }
  }
  return out;
}
