import type { GuitarSetup } from '../types.js';
import { median } from '@riffscribe/core';
import { positionsOf } from './fingering.js';

/**
 * The hand's position rule (issue 39 build item 4): a note, or a short run of notes played on one
 * string, is not placed more than POSITION_REACH frets from the hand position of the notes around
 * it when a string in that position reaches it. Held-back real playing showed the fingering and
 * the technique stage breaking it: D3 at fret 10 of the low E string in a piece played at the
 * nut with the open D string free, and a B4 at fret 21 of the D string in a lead played around
 * the 9th fret (its pull-offs moved with it to frets 14 and 11). Pure.
 *
 * - The hand position around a note is the median fret of the fretted notes near it in time
 *   (up to CONTEXT_NOTES before and after, within CONTEXT_SECONDS, not the note's own chord or
 *   run); open strings say nothing of where the hand is and are always within reach.
 * - A note outside the position moves to a string where its fret is within it (an open string
 *   counts as within it), free at that moment (no other note starting with it there), the
 *   preferred such string first (the fingering model's probability where known, else the
 *   nearest fret, an open string first when the hand is at the nut).
 * - A run (notes joined by a technique on one string: a slur or a slide) moves whole to one
 *   string where all of it is in position; when no string takes all of it, each note outside the
 *   position moves alone; the caller then drops the marks that joined it to the run (a mark the
 *   hand cannot play is worse than none).
 * - Notes of a chord (another note starting within CHORD_SECONDS) keep their strings: the
 *   fingering decoder's chord rules placed them.
 */

/** Frets a note may lie from the hand position. */
export const POSITION_REACH = 4;
/** Fretted notes on each side that say where the hand is. */
export const CONTEXT_NOTES = 4;
/** ... within this many seconds of the note. */
export const CONTEXT_SECONDS = 2;
/** Notes starting this close together are one chord. */
export const CHORD_SECONDS = 0.04;
/**
 * A move must bring the note (the run's farthest note) at least this many frets nearer the hand:
 * the position is an estimate, and a note just out of reach on one side is no better placed just
 * in reach on the other.
 */
export const MIN_GAIN = 2;
/**
 * A run no one string in reach takes is split (its far notes moved alone, their marks dropped)
 * only for a note this many frets or more from the hand: a slur a little out of reach is more
 * likely a stretch or a quick shift than a wrong string.
 */
export const SPLIT_DISTANCE = 8;
/** The hand is at the nut (an open string is its first choice) up to this position. */
const NUT_POSITION = 5;

/** A placed note as the rule sees it. */
export interface Placed {
  time: number;
  string: number;
  fret: number;
}

export interface PositionRuleOptions<T extends Placed> {
  /** The note's sounding pitch at its start (MIDI), which every string it may move to must play. */
  pitchOf: (note: T) => number;
  /** The note on another string at another fret (everything else kept). */
  moveTo: (note: T, string: number, fret: number) => T;
  /** Groups of indices that move together (a slurred or slid run on one string); default none. */
  runs?: readonly (readonly number[])[];
  /**
   * Runs that carry the hand (a slide moves it with the string): left where they are, and the
   * notes after them judged by where the hand went.
   */
  carried?: readonly (readonly number[])[];
  /**
   * Notes on other strings starting this close together are one chord (default CHORD_SECONDS;
   * a strum heard in a recording spreads over up to 80 ms).
   */
  chordSeconds?: number;
  /** Whether the note may be played at (string, fret) at all (a bent note needs a finger). */
  canPlace?: (note: T, string: number, fret: number) => boolean;
  /** How much the note is wanted on a string (higher first), e.g. the model's probability. */
  preference?: (note: T, string: number) => number | undefined;
}

/** Frets from the hand position to `fret` (an open string is no distance: always in reach). */
const distance = (fret: number, position: number) => (fret === 0 ? 0 : Math.abs(fret - position));

/** Whether fret `f` is within the hand's reach at `position`. */
export const inPosition = (fret: number, position: number) =>
  distance(fret, position) <= POSITION_REACH;

/**
 * The hand position around the notes `members` (indices into `notes`; `order` is every index in
 * time order): the median over the nearest moments on each side (up to CONTEXT_NOTES, within
 * CONTEXT_SECONDS) of the lowest fretted fret of each moment (a chord's notes are one moment, its
 * lowest fret where the index finger is), leaving out the members and their chords; null when
 * none is near.
 */
export function handPositionAround(
  notes: readonly Placed[],
  order: readonly number[],
  members: readonly number[],
  rank: ReadonlyMap<number, number> = new Map(order.map((i, k) => [i, k])),
): number | null {
  const inRun = new Set(members);
  const times = members.map((i) => notes[i]?.time ?? 0);
  const first = Math.min(...times);
  const last = Math.max(...times);
  const together = (t: number) => times.some((m) => Math.abs(m - t) < CHORD_SECONDS);
  // Fretted moments on one side, nearest first: [time of the moment, its lowest fret].
  const side = (from: number, step: 1 | -1, outside: (t: number) => boolean) => {
    const moments: { time: number; fret: number }[] = [];
    for (let k = from; k >= 0 && k < order.length; k += step) {
      const i = order[k] ?? -1;
      const note = notes[i];
      if (!note || inRun.has(i) || !outside(note.time) || together(note.time)) continue;
      if (Math.min(Math.abs(note.time - first), Math.abs(note.time - last)) > CONTEXT_SECONDS)
        break;
      if (note.fret === 0) continue;
      const moment = moments.at(-1);
      if (moment && Math.abs(moment.time - note.time) < CHORD_SECONDS) {
        moment.fret = Math.min(moment.fret, note.fret);
      } else {
        if (moments.length === CONTEXT_NOTES) break;
        moments.push({ time: note.time, fret: note.fret });
      }
    }
    return moments.map((m) => m.fret);
  };
  const ranks = members.map((i) => rank.get(i) ?? 0);
  const frets = [
    ...side(Math.min(...ranks) - 1, -1, (t) => t < first),
    ...side(Math.max(...ranks) + 1, 1, (t) => t > last),
  ];
  return frets.length > 0 ? median(frets) : null;
}

/**
 * The notes with the position rule applied (see the module's comment); the input is not changed
 * and the order of the notes is kept.
 */
export function keepHandInPosition<T extends Placed>(
  input: readonly T[],
  setup: GuitarSetup,
  options: PositionRuleOptions<T>,
): T[] {
  const notes = [...input];
  const order = notes
    .map((_, i) => i)
    .sort((a, b) => (notes[a]?.time ?? 0) - (notes[b]?.time ?? 0));
  const runOf = new Map<number, readonly number[]>();
  for (const run of options.runs ?? []) for (const i of run) runOf.set(i, run);
  const rank = new Map(order.map((i, k) => [i, k]));
  const done = new Set<number>();
  const chordSeconds = options.chordSeconds ?? CHORD_SECONDS;
  for (const run of options.carried ?? []) for (const i of run) done.add(i);
  // A note on another string, not of the note's run, starts within chordSeconds of it.
  const inChord = (i: number) => {
    const k = rank.get(i) ?? 0;
    const note = notes[i];
    if (!note) return false;
    const run = runOf.get(i) ?? [i];
    for (const step of [-1, 1]) {
      for (let j = k + step; j >= 0 && j < order.length; j += step) {
        const index = order[j] ?? -1;
        const other = notes[index];
        if (!other || Math.abs(other.time - note.time) >= chordSeconds) break;
        if (other.string !== note.string && !run.includes(index)) return true;
      }
    }
    return false;
  };
  // Whether `string` is free for note i: no note outside `members` starts with it there.
  const free = (i: number, string: number, members: readonly number[]) => {
    const note = notes[i];
    if (!note) return false;
    return !notes.some(
      (other, j) =>
        !members.includes(j) &&
        other.string === string &&
        Math.abs(other.time - note.time) < CHORD_SECONDS,
    );
  };
  // Cost of note i at (string, fret) in `position`: lower is better.
  const cost = (i: number, string: number, fret: number, position: number) => {
    const note = notes[i];
    const wanted = note ? options.preference?.(note, string) : undefined;
    // An open string is the first choice at the nut; up the neck, the last one in reach.
    const away =
      fret === 0 ? (position <= NUT_POSITION ? 0 : POSITION_REACH - 1) : distance(fret, position);
    return wanted === undefined ? away : -wanted * 100 + away / 100;
  };
  // The best in-position place for each of `members` on one string, or null; it must bring the
  // farthest of them at least MIN_GAIN frets nearer.
  const placeOnOneString = (members: readonly number[], position: number) => {
    const farthest = Math.max(...members.map((i) => distance(notes[i]?.fret ?? 0, position)));
    // Where each member's pitch can be played: [string, fret] pairs.
    const places = members.map((i) => {
      const note = notes[i];
      return note ? positionsOf(options.pitchOf(note), setup) : [];
    });
    let best: { string: number; frets: number[]; cost: number } | null = null;
    for (let string = 1; string <= 6; string += 1) {
      const frets: number[] = [];
      let total = 0;
      for (const [k, i] of members.entries()) {
        const note = notes[i];
        const fret = places[k]?.find(([s]) => s === string)?.[1];
        if (
          fret === undefined ||
          !inPosition(fret, position) ||
          !free(i, string, members) ||
          (note && options.canPlace && !options.canPlace(note, string, fret))
        ) {
          total = Number.POSITIVE_INFINITY;
          break;
        }
        frets.push(fret);
        total += cost(i, string, fret, position);
      }
      const reached = Math.max(...frets.map((f) => distance(f, position)));
      if (farthest - reached < MIN_GAIN) continue;
      if (total < (best?.cost ?? Number.POSITIVE_INFINITY)) best = { string, frets, cost: total };
    }
    return best;
  };
  for (const i of order) {
    if (done.has(i)) continue;
    const members = runOf.get(i) ?? [i];
    for (const m of members) done.add(m);
    if (members.some(inChord)) continue;
    const position = handPositionAround(notes, order, members, rank);
    if (position === null) continue;
    const far = members.filter((m) => {
      const note = notes[m];
      return note !== undefined && !inPosition(note.fret, position);
    });
    if (far.length === 0) continue;
    const whole = placeOnOneString(members, position);
    if (whole) {
      members.forEach((m, k) => {
        const note = notes[m];
        const fret = whole.frets[k];
        if (note && fret !== undefined && (note.string !== whole.string || note.fret !== fret)) {
          notes[m] = options.moveTo(note, whole.string, fret);
        }
      });
      continue;
    }
    if (members.length === 1) continue;
    // No string takes the whole run: each note far out of reach moves alone, split from the run.
    for (const m of far) {
      if (Math.abs((notes[m]?.fret ?? 0) - position) < SPLIT_DISTANCE) continue;
      const alone = placeOnOneString([m], position);
      const note = notes[m];
      const fret = alone?.frets[0];
      if (!alone || !note || fret === undefined) continue;
      notes[m] = options.moveTo(note, alone.string, fret);
    }
  }
  return notes;
}
