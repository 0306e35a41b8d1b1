import { type NoteEvent, plainNote } from '@riffscribe/core';
import type { GuitarSetup } from '../types.js';
import { FRAME_RATE } from '../units.js';
import { attackAt, type AttackAnalysis } from './attacks.js';
import { pitchArray } from './bend.js';
import { median } from './curves.js';

/**
 * Dead (muted) notes (pure): the picking hand strikes a string the fretting hand only touches, so
 * the clip has an attack as strong as a pick's but no pitch rings on: the partials' power falls
 * away within a few tens of milliseconds. The notes stage reports pitches only, so a dead note is
 * an attack that no note starting there explains and after which the sound dies at once (a
 * plucked note the model missed rings on, and is not called a dead note).
 *
 * A dead note is written on the string of the nearest note in time whose string is not sounding
 * then (a string rings until its note ends, and a string plays one note at a time), at that note's
 * fret (where the fretting hand is), with mute: true; when every string is sounding, on the
 * nearest note's string.
 */

export interface MuteOptions {
  /** Attack flux, relative to the clip's typical strike, from which an attack is considered. */
  minRatio: number;
  /** Frames before and after the attack in which a note's start explains it. */
  explainBefore: number;
  explainAfter: number;
  /** Frames after the attack at which the partials' power is compared with the attack's. */
  decayFrames: number;
  /** ... and how far it must have fallen (dB). */
  decayDb: number;
  /** Length written for a dead note (seconds). */
  seconds: number;
}

export const MUTE_OPTIONS: MuteOptions = {
  minRatio: 0.7,
  explainBefore: 4,
  explainAfter: 3,
  decayFrames: 6,
  decayDb: 12,
  seconds: 0.08,
};

/** Strings on which one of `notes` is sounding at `time`. */
function soundingStrings(notes: readonly NoteEvent[], time: number): Set<number> {
  return new Set(notes.filter((n) => n.time <= time && time < n.end_time).map((n) => n.string));
}

/** The event (sorted by time) whose start is nearest `time`, by binary search. */
function nearestEvent(byTime: readonly NoteEvent[], time: number): NoteEvent | undefined {
  let lo = 0;
  let hi = byTime.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((byTime[mid]?.time ?? 0) < time) lo = mid + 1;
    else hi = mid;
  }
  const after = byTime[lo];
  const before = byTime[lo - 1];
  if (after === undefined) return before;
  if (before === undefined) return after;
  return time - before.time <= after.time - time ? before : after;
}

/** Dead notes in the clip that `events` (the pitched notes) do not explain. */
export function findMutes(
  events: readonly NoteEvent[],
  attacks: AttackAnalysis,
  setup: GuitarSetup,
  opts: MuteOptions = MUTE_OPTIONS,
): NoteEvent[] {
  const { flux, energy } = attacks;
  const struckAt = events
    .filter((e) => !e.leading_slide && !e.leading_hammer_on && !e.leading_pull_off)
    .map((e) => attackAt(attacks, e.time));
  const reference = median(struckAt, 1);
  const byTime = [...events].sort((a, b) => a.time - b.time);
  const starts = events.map((e) => Math.round(e.time * FRAME_RATE)).sort((a, b) => a - b);
  const out: NoteEvent[] = [];
  let next = 0;
  for (let t = 2; t < flux.length - 1; t++) {
    const v = flux[t] ?? 0;
    if (v < opts.minRatio * reference) continue;
    if (!(v > (flux[t - 1] ?? 0) && v >= (flux[t + 1] ?? 0))) continue;
    while (next < starts.length && (starts[next] ?? 0) < t - opts.explainBefore) next++;
    if (next < starts.length && (starts[next] ?? 0) <= t + opts.explainAfter) continue;
    const peak = Math.max(energy[t] ?? 0, energy[t + 1] ?? 0, energy[t + 2] ?? 0);
    const late = energy[t + opts.decayFrames] ?? 0;
    if (10 * Math.log10((peak + 1e-12) / (late + 1e-12)) < opts.decayDb) continue;
    const time = t / FRAME_RATE;
    const busy = soundingStrings([...byTime, ...out], time);
    const free = byTime.filter((e) => !busy.has(e.string));
    const nearest = nearestEvent(free, time) ?? nearestEvent(byTime, time);
    const string = nearest?.string ?? 6;
    const fret = Math.max(0, Math.min(setup.frets, nearest?.fret ?? 0));
    out.push(
      plainNote({
        time,
        end_time: time + opts.seconds,
        string,
        fret,
        pitch_arr: pitchArray([], opts.seconds),
        mute: true,
      }),
    );
  }
  return out;
}
