import type { NoteEvent } from '../events.js';
import { openStringPitch, type Tuning } from '../guitar.js';
import { MIN_MIDI, PITCH_COUNT } from './analysis.js';

/**
 * Listen & check's judge (issue 40), pure: what the tab expects around each time (groups of notes
 * starting together: a single note or a chord), and whether what the microphone heard matches.
 *
 * A single note matches when its pitch is strong against everything heard, rose at the attack,
 * and beats the pitches two semitones either side on strength and rise together (so not a note
 * still ringing, and not a note two semitones off). A chord matches by its pitch classes: at least two thirds of them strong.
 */

export type Verdict = 'hit' | 'early' | 'late' | 'missed';

/** Within this many seconds of the tab's time a matching attack is a hit. */
export const HIT_S = 0.1;
/** Within this many, early or late; further away it is not this note's. */
export const LATE_S = 0.25;
/** Notes starting within this many seconds of each other are one group (a chord, a strum). */
const GROUP_S = 0.04;
/** A pitch counts as sounding at this share of the strongest pitch heard. */
const STRONG = 0.55;
/** ...and when it rose by this share of the strongest since just before the attack. */
const RISE = 0.08;

export interface ExpectedGroup {
  time: number;
  /** MIDI pitches (with the capo), distinct, low to high. */
  pitches: number[];
  /** Indices of the group's notes in the lesson's notes. */
  notes: number[];
}

/** The tab's notes as the checker expects them: muted notes have no pitch and are left out. */
export function expectedGroups(
  notes: readonly NoteEvent[],
  tuning: Tuning,
  capo: number,
): ExpectedGroup[] {
  const order = notes
    .map((n, i) => ({ n, i }))
    .filter(({ n }) => !n.mute)
    .sort((a, b) => a.n.time - b.n.time);
  const groups: ExpectedGroup[] = [];
  for (const { n, i } of order) {
    const pitch = openStringPitch(tuning, n.string) + capo + n.fret;
    const last = groups[groups.length - 1];
    if (last && n.time - last.time <= GROUP_S) {
      if (!last.pitches.includes(pitch)) last.pitches.push(pitch);
      last.pitches.sort((a, b) => a - b);
      last.notes.push(i);
    } else {
      groups.push({ time: n.time, pitches: [pitch], notes: [i] });
    }
  }
  return groups;
}

const at = (s: Float32Array, midi: number) => {
  const i = midi - MIN_MIDI;
  return i >= 0 && i < PITCH_COUNT ? (s[i] ?? 0) : 0;
};

/** Whether `midi` sounds in `salience` (see the file's comment), `before` the attack. */
export function pitchSounds(midi: number, salience: Float32Array, before: Float32Array): boolean {
  let max = 0;
  for (const v of salience) max = Math.max(max, v);
  if (max <= 0) return false;
  const s = at(salience, midi);
  if (s < STRONG * max) return false;
  // Against its neighbours, by strength and by how much it rose at the attack together: a
  // neighbour may be as strong (sharing unresolved low harmonics, or a ringing note's), or may
  // have risen as much (the new note's partials where a ringing note had none).
  const rise = (m: number) => at(salience, m) - at(before, m);
  const score = (m: number) => at(salience, m) + rise(m);
  const mine = score(midi);
  for (const d of [-2, -1, 1, 2]) if (score(midi + d) > mine) return false;
  return rise(midi) >= RISE * max;
}

/** Pitch-class strengths (the strongest octave of each). */
function chroma(salience: Float32Array): Float64Array {
  const out = new Float64Array(12);
  for (let i = 0; i < PITCH_COUNT; i += 1) {
    const pc = (MIN_MIDI + i) % 12;
    out[pc] = Math.max(out[pc] ?? 0, salience[i] ?? 0);
  }
  return out;
}

/** Whether a heard attack matches a group: its note, or two thirds of its chord's pitch classes. */
export function groupMatches(
  pitches: readonly number[],
  salience: Float32Array,
  before: Float32Array,
): boolean {
  const classes = [...new Set(pitches.map((p) => p % 12))];
  if (classes.length <= 1) return pitches.some((p) => pitchSounds(p, salience, before));
  const c = chroma(salience);
  const b = chroma(before);
  let max = 0;
  for (const v of c) max = Math.max(max, v);
  let found = 0;
  for (const pc of classes) {
    const v = c[pc] ?? 0;
    const strongest = v >= (c[(pc + 1) % 12] ?? 0) && v >= (c[(pc + 11) % 12] ?? 0);
    if (v >= STRONG * max && strongest && v - (b[pc] ?? 0) >= -0.2 * max) found += 1;
  }
  return found >= Math.ceil((2 * classes.length) / 3);
}

export interface PassScore {
  hits: number;
  early: number;
  late: number;
  missed: number;
  /** Notes (groups) judged in the pass. */
  total: number;
  /** hits / total, 0..1. */
  score: number;
}

/** A pass at least this good lets the speed trainer step up while Listen & check is on. */
export const CLEAN_PASS = 0.9;

/** Whether a pass counts for the speed trainer: clean, or with no note to judge. */
export function passCountsForTrainer(pass: PassScore | null): boolean {
  return !pass || pass.total === 0 || pass.score >= CLEAN_PASS;
}

/**
 * Verdicts per group for the pass being played. `heard` places an attack (already on the
 * lesson's time, latency taken off); `sweep` marks what went by unheard.
 */
export class ListenChecker {
  readonly verdicts: (Verdict | undefined)[];
  /** Heard time minus the tab's time, for the judged groups. */
  readonly offsets: (number | undefined)[];

  constructor(readonly groups: readonly ExpectedGroup[]) {
    this.verdicts = groups.map(() => undefined);
    this.offsets = groups.map(() => undefined);
  }

  /** Groups whose time is in [from, to). */
  private range(from: number, to: number): number[] {
    const out: number[] = [];
    this.groups.forEach((g, i) => {
      if (g.time >= from && g.time < to) out.push(i);
    });
    return out;
  }

  /** Forgets the verdicts in [from, to) (a new pass over them). */
  clear(from: number, to: number): void {
    for (const i of this.range(from, to)) {
      this.verdicts[i] = undefined;
      this.offsets[i] = undefined;
    }
  }

  /**
   * An attack heard at lesson time `time`: the nearest group within LATE_S that it matches and
   * that is not already a hit takes it. Returns that group's index, or -1.
   */
  heard(time: number, salience: Float32Array, before: Float32Array): number {
    let best = -1;
    let bestD = Infinity;
    this.groups.forEach((g, i) => {
      const d = Math.abs(time - g.time);
      if (d > LATE_S || d >= bestD || this.verdicts[i] === 'hit') return;
      if (!groupMatches(g.pitches, salience, before)) return;
      best = i;
      bestD = d;
    });
    if (best < 0) return -1;
    const offset = time - (this.groups[best]?.time ?? time);
    const previous = this.offsets[best];
    if (previous !== undefined && Math.abs(previous) <= Math.abs(offset)) return best;
    this.offsets[best] = offset;
    this.verdicts[best] = Math.abs(offset) <= HIT_S ? 'hit' : offset < 0 ? 'early' : 'late';
    return best;
  }

  /** A group matched by ear in wait mode: a hit whatever the time. */
  matchNow(index: number): void {
    this.verdicts[index] = 'hit';
    this.offsets[index] = 0;
  }

  /** Groups in [from, until - LATE_S) still without a verdict are missed. Returns them. */
  sweep(from: number, until: number): number[] {
    const out: number[] = [];
    for (const i of this.range(from, until - LATE_S)) {
      if (this.verdicts[i] === undefined) {
        this.verdicts[i] = 'missed';
        out.push(i);
      }
    }
    return out;
  }

  /** The score of the groups in [from, to) that have a verdict. */
  score(from: number, to: number): PassScore {
    const s: PassScore = { hits: 0, early: 0, late: 0, missed: 0, total: 0, score: 0 };
    for (const i of this.range(from, to)) {
      const v = this.verdicts[i];
      if (!v) continue;
      s.total += 1;
      if (v === 'hit') s.hits += 1;
      else if (v === 'early') s.early += 1;
      else if (v === 'late') s.late += 1;
      else s.missed += 1;
    }
    s.score = s.total ? s.hits / s.total : 0;
    return s;
  }

  /** The first group at or after `time` without a hit (wait mode's next note), or -1. */
  nextOpen(time: number): number {
    return this.groups.findIndex((g, i) => g.time >= time - 1e-3 && this.verdicts[i] !== 'hit');
  }
}
