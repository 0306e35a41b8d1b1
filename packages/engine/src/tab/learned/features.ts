import type { GuitarType } from '@riffscribe/core';
import { openPitch } from '../fingering.js';
/**
 * The learned fingering model's input: per note, features that mean the same in any tuning and
 * with any capo (the fret each string would need, time gaps, chord membership, guitar type).
 * Mirrors training/fingering/features.py exactly; the encoding is documented field by field in
 * packages/engine/models/fingering/MODEL_CARD.md. Pure.
 */

/** Features per note. */
export const N_FEATURES = 36;
/** Highest fret the model knows (the corpus's frets 0..24). */
export const MODEL_MAX_FRET = 24;
/** Onsets within this many seconds of a group's first note are struck together. */
export const GROUP_EPS = 0.02;
const STD_INTERVALS = [5, 5, 5, 4, 5] as const;

/** What kind of guitar the tab is for: the corpus's MIDI programs 24, 25, 26-31. */
export type GuitarClass = 'nylon' | 'steel' | 'electric' | 'unknown';

/** Guitar class of an upload's guitar type. */
export function guitarClassOfType(type: GuitarType): GuitarClass {
  return type === 'classical' ? 'nylon' : type === 'acoustic' ? 'steel' : 'electric';
}

/** Guitar class from a General MIDI program (24 nylon, 25 steel, 26-31 electric). */
export function guitarClassOfProgram(program: number): GuitarClass {
  if (program === 24) return 'nylon';
  if (program === 25) return 'steel';
  if (program >= 26 && program <= 31) return 'electric';
  return 'unknown';
}

/** The guitar the notes are fingered for. */
export interface FingeringSetup {
  /** Six open-string MIDI pitches, low to high. */
  readonly tuning: readonly number[];
  /** Capo fret; frets are written relative to it. */
  readonly capo: number;
  /** Highest fret that may be used (at most the lesson's visible frets). */
  readonly maxFret: number;
}

/**
 * Fret needed on strings 1..6 (index 0 = string 1, the highest), null where the pitch cannot be
 * played there within 0..maxFret.
 */
export function fretsFor(pitch: number, setup: FingeringSetup): (number | null)[] {
  const out: (number | null)[] = [];
  for (let s = 1; s <= 6; s += 1) {
    const f = pitch - openPitch(setup, s);
    out.push(Number.isInteger(f) && f >= 0 && f <= setup.maxFret ? f : null);
  }
  return out;
}

/**
 * Groups of note indices struck together, for notes sorted by time then pitch: a note joins the
 * group when its onset is within GROUP_EPS of the group's first onset and the group has fewer
 * than six notes.
 */
export function groupsOf(times: readonly number[]): number[][] {
  const groups: number[][] = [];
  let first = 0;
  times.forEach((t, i) => {
    const last = groups.at(-1);
    if (last && t - first <= GROUP_EPS && last.length < 6) last.push(i);
    else {
      groups.push([i]);
      first = t;
    }
  });
  return groups;
}

const GUITAR_COLUMN: Record<GuitarClass, number | null> = {
  nylon: 32,
  steel: 33,
  electric: 34,
  unknown: null,
};

/**
 * The model's input for notes sorted by time then pitch, channels first: value of feature c for
 * note i at [c * n + i] (the ONNX input [1, N_FEATURES, n]). The per-string frets are computed
 * with frets 0..MODEL_MAX_FRET, as in training, whatever the lesson's visible frets.
 */
export function encodeFeatures(
  pitches: readonly number[],
  times: readonly number[],
  tuning: readonly number[],
  capo: number,
  guitar: GuitarClass,
): Float32Array {
  const n = pitches.length;
  const x = new Float32Array(N_FEATURES * n);
  const set = (c: number, i: number, v: number) => {
    x[c * n + i] = v;
  };
  const groups = groupsOf(times);
  const low = tuning[0] ?? 40;
  const base = low + capo;
  const intervals = STD_INTERVALS.map((std, j) => (tuning[j + 1] ?? 0) - (tuning[j] ?? 0) - std);
  const guitarColumn = GUITAR_COLUMN[guitar];
  const setup: FingeringSetup = { tuning, capo, maxFret: MODEL_MAX_FRET };
  groups.forEach((members, g) => {
    const t0 = times[members[0] ?? 0] ?? 0;
    const prev = groups[g - 1];
    const next = groups[g + 1];
    const dtPrev = prev ? t0 - (times[prev[0] ?? 0] ?? 0) : 4;
    const dtNext = next ? (times[next[0] ?? 0] ?? 0) - t0 : 4;
    members.forEach((i, rank) => {
      const pitch = pitches[i] ?? 0;
      const frets = fretsFor(pitch, setup);
      frets.forEach((f, k) => {
        if (f === null) return;
        set(3 * k, i, 1);
        set(3 * k + 1, i, f / 12);
        set(3 * k + 2, i, f === 0 ? 1 : 0);
      });
      set(18, i, frets.filter((f) => f !== null).length / 6);
      set(19, i, capo / 7);
      intervals.forEach((v, j) => {
        set(20 + j, i, v / 2);
      });
      set(25, i, (base - 40) / 12);
      set(26, i, Math.log1p(Math.max(0, dtPrev) * 10) / 4);
      set(27, i, Math.log1p(Math.max(0, dtNext) * 10) / 4);
      set(28, i, members.length / 6);
      set(29, i, rank / 5);
      set(30, i, rank === 0 ? 1 : 0);
      set(31, i, rank === members.length - 1 ? 1 : 0);
      if (guitarColumn !== null) set(guitarColumn, i, 1);
      set(35, i, (pitch - base) / 24);
    });
  });
  return x;
}
