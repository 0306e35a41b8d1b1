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

/**
 * Chord events over a clip: the timeline is cut at every note start and end; where three or more
 * pitch classes sound together the span gets a chord name; unchanged neighbours are merged and
 * no event is shorter than MIN_CHORD_SECONDS (0.05 s). Spelling follows the clip's key.
 */
export function detectChords(notes: readonly SoundingNote[]): ChordEvent[] {
  if (notes.length === 0) return [];
  const flats = keyUsesFlats(estimateKey(notes));
  const cuts = [...new Set(notes.flatMap((n) => [n.time, n.endTime]))].sort((a, b) => a - b);
  const spans: ChordEvent[] = [];
  for (let i = 0; i + 1 < cuts.length; i += 1) {
    const start = cuts[i] ?? 0;
    const end = cuts[i + 1] ?? start;
    if (end - start <= 0) continue;
    const mid = (start + end) / 2;
    const sounding = notes.filter((n) => n.time <= mid && n.endTime > mid).map((n) => n.pitch);
    const name = nameChord(sounding);
    if (!name) continue;
    const chord = chordText(name, flats);
    const last = spans.at(-1);
    if (last?.chord === chord && start - last.end_time < 0.1) last.end_time = end;
    else spans.push({ time: start, end_time: end, chord, event_type: 'chord' });
  }
  // Drop slivers, then merge neighbours that became equal.
  const out: ChordEvent[] = [];
  for (const span of spans) {
    if (span.end_time - span.time < MIN_CHORD_SECONDS) continue;
    const last = out.at(-1);
    if (last?.chord === span.chord && span.time - last.end_time < 0.25) {
      last.end_time = span.end_time;
    } else out.push({ ...span });
  }
  return out;
}
