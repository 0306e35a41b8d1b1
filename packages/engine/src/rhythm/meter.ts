import type { RhythmNote } from './envelope.js';
import { FRAME_RATE } from '../units.js';

/**
 * Meter and downbeat phase from three cues measured at each beat: a bass note starting on it
 * (players put the root on the one), the harmony changing at it (chords change at bar lines) and
 * the onset accent. For each meter (3 or 4 beats a bar) and phase, the score is how much higher
 * the cues are on the would-be downbeats than on all beats, in standard deviations; 4/4 gets a
 * small head start because it is by far the commonest meter in guitar lessons.
 */

export interface Meter {
  /** Beats a bar. */
  perBar: 3 | 4;
  /** Index of the first downbeat among the beats (0 .. perBar - 1; earlier beats are a pickup). */
  phase: number;
}

/**
 * Cue weights and the 4/4 head start, in standard deviations of the cues. Bass first (players
 * put the root on the one), harmony next, accent least (a strummed guitar accents every beat).
 * Set by hand before any measurement: the rendered corpora have no bar lines to tune them on
 * (corpus.ts), and the real excerpts are never tuned on. The synthetic tests check the waltz,
 * the pickup and 4/4.
 */
const BASS_WEIGHT = 1;
const CHANGE_WEIGHT = 0.8;
const ACCENT_WEIGHT = 0.4;
const FOUR_HEAD_START = 0.15;
/** A note starts on a beat within this many seconds (the evaluation's ±70 ms tolerance). */
const ON_BEAT = 0.07;
/** A bass note: pitch at or under E3 counts fully, fading out up to C4. */
const BASS_FULL = 52;
const BASS_NONE = 60;

function zscores(x: readonly number[]): number[] {
  const n = Math.max(1, x.length);
  const mean = x.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(x.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
  return sd > 1e-9 ? x.map((v) => (v - mean) / sd) : x.map(() => 0);
}

/** Per beat: bass onset, harmony change and accent cues (raw). */
export function beatCues(
  beats: readonly number[],
  notes: readonly RhythmNote[],
  env: Float32Array,
): { bass: number[]; change: number[]; accent: number[] } {
  const sorted = [...notes].sort((a, b) => a.time - b.time);
  const bass = beats.map(() => 0);
  const chroma = beats.map(() => new Float64Array(12));
  let k = 0;
  beats.forEach((b, i) => {
    while (k < sorted.length && (sorted[k]?.time ?? 0) < b - ON_BEAT) k++;
    for (let j = k; j < sorted.length && (sorted[j]?.time ?? 0) <= b + ON_BEAT; j++) {
      const note = sorted[j];
      if (!note) continue;
      const low = Math.min(1, Math.max(0, (BASS_NONE - note.pitch) / (BASS_NONE - BASS_FULL)));
      bass[i] = Math.max(bass[i] ?? 0, low * (0.5 + note.onset));
    }
  });
  // Pitch classes sounding in each beat span (weighted by overlap, low notes counting double),
  // visiting only the beats a note overlaps (beats are sorted): linear in the clip's length.
  let first = 0;
  for (const note of sorted) {
    while (first < beats.length - 1 && (beats[first + 1] ?? 0) <= note.time) first++;
    for (let i = first; i < beats.length; i++) {
      const start = beats[i] ?? 0;
      if (start - ON_BEAT >= note.endTime) break;
      const end = beats[i + 1] ?? start + (start - (beats[i - 1] ?? start - 0.5));
      const overlap = Math.min(end, note.endTime) - Math.max(start - ON_BEAT, note.time);
      if (overlap <= 0) continue;
      const c = chroma[i];
      if (c) {
        const pc = ((note.pitch % 12) + 12) % 12;
        c[pc] = (c[pc] ?? 0) + overlap * (note.pitch < BASS_NONE ? 2 : 1);
      }
    }
  }
  const change = beats.map((_, i) => {
    const a = chroma[i - 1];
    const b = chroma[i];
    if (!a || !b) return 0;
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (let p = 0; p < 12; p++) {
      dot += (a[p] ?? 0) * (b[p] ?? 0);
      na += (a[p] ?? 0) ** 2;
      nb += (b[p] ?? 0) ** 2;
    }
    return na > 0 && nb > 0 ? 1 - dot / Math.sqrt(na * nb) : 0;
  });
  const accent = beats.map((b) => {
    const t = Math.round(b * FRAME_RATE);
    let m = 0;
    for (let d = -3; d <= 3; d++) m = Math.max(m, env[t + d] ?? 0);
    return m;
  });
  return { bass, change, accent };
}

/** The meter and phase whose downbeats stand out most. */
export function chooseMeter(
  beats: readonly number[],
  notes: readonly RhythmNote[],
  env: Float32Array,
): Meter {
  const cues = beatCues(beats, notes, env);
  const bass = zscores(cues.bass);
  const change = zscores(cues.change);
  const accent = zscores(cues.accent);
  const cue = beats.map(
    (_, i) =>
      BASS_WEIGHT * (bass[i] ?? 0) +
      CHANGE_WEIGHT * (change[i] ?? 0) +
      ACCENT_WEIGHT * (accent[i] ?? 0),
  );
  let best: Meter = { perBar: 4, phase: 0 };
  let bestScore = -Infinity;
  for (const perBar of [4, 3] as const) {
    for (let phase = 0; phase < perBar; phase++) {
      let sum = 0;
      let count = 0;
      for (let i = phase; i < cue.length; i += perBar) {
        sum += cue[i] ?? 0;
        count++;
      }
      const score = (count > 0 ? sum / count : 0) + (perBar === 4 ? FOUR_HEAD_START : 0);
      if (score > bestScore) {
        bestScore = score;
        best = { perBar, phase };
      }
    }
  }
  return best;
}
