import {
  PITCH_POINT_MAX,
  PITCH_POINT_MIN,
  PITCH_STEPS_PER_FRET,
  type NoteEvent,
} from '@riffscribe/core';
import type { GuitarSetup, TabNote } from '../types.js';
import { FRAME_RATE } from '../units.js';

/**
 * Technique detection thresholds, from guitar practice rather than fitted to recordings:
 * a bend is at least a half step held (a quarter-tone "curl" is not written as a bend); vibrato
 * is a 4-9 Hz modulation (players use 5-7 Hz) of at least 10 cents, big from 25 cents (between
 * the spec's small 15 and big 35); a note with no pluck of its own is one whose onset activation
 * stays under the weak-onset floor of the notes stage (0.6 x the 0.7 onset threshold).
 */
export const TECHNIQUE_THRESHOLDS = {
  bendSemitones: 0.7,
  releaseSemitones: 0.35,
  vibratoMinCents: 10,
  vibratoBigCents: 25,
  vibratoMinHz: 4,
  vibratoMaxHz: 9,
  vibratoMinSeconds: 0.3,
  unpluckedOnset: 0.42,
  legatoGapSeconds: 0.06,
  slideGlideSemitones: 0.5,
} as const;

/** Largest interval (frets) of a hammer-on or pull-off: one hand's reach. */
const MAX_LEGATO_FRETS = 5;

/** Frames (about 70 ms) at a note's end that never count as a bend. */
const TAIL_FRAMES = 6;

const clampPoint = (v: number) => Math.min(PITCH_POINT_MAX, Math.max(PITCH_POINT_MIN, v));

/** Moving average over `radius` frames each side. */
function smooth(values: readonly number[], radius: number): number[] {
  return values.map((_, i) => {
    let sum = 0;
    let count = 0;
    for (let j = Math.max(0, i - radius); j <= Math.min(values.length - 1, i + radius); j += 1) {
      sum += values[j] ?? 0;
      count += 1;
    }
    return count === 0 ? 0 : sum / count;
  });
}

/** Running median over `radius` frames each side: drops the contour's one-frame jumps. */
export function median(values: readonly number[], radius: number): number[] {
  return values.map((_, i) => {
    const window = values.slice(Math.max(0, i - radius), i + radius + 1);
    const sorted = [...window].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  });
}

/**
 * A note's contour relative to its own settled pitch (the median of its first ~120 ms), after a
 * 3-frame median: the model's contour carries a constant tuning offset per recording and
 * single-frame jumps to a neighbouring note's partials; neither is a bend.
 */
export function relativeContour(bend: readonly number[]): number[] {
  if (bend.length === 0) return [];
  const clean = median(bend, 1);
  const head = [...clean.slice(0, Math.max(3, Math.round(FRAME_RATE * 0.12)))].sort(
    (a, b) => a - b,
  );
  const base = head[Math.floor(head.length / 2)] ?? 0;
  return clean.map((v) => v - base);
}

/**
 * The note's pitch curve in the spec's units: one point per analysis hop
 * (points = floor(duration * 22050 / 256) + 1), 1 = unbent, +3 per semitone, clamped -8..10.
 * A note without a contour gets the default [1, 1].
 */
export function pitchArr(note: TabNote): number[] {
  if (note.bend.length === 0) return [1, 1];
  const contour = relativeContour(note.bend);
  const points = Math.floor((note.endTime - note.time) * FRAME_RATE) + 1;
  const out: number[] = [];
  for (let i = 0; i < Math.max(2, points); i += 1) {
    const semis = contour[Math.min(i, contour.length - 1)] ?? 0;
    out.push(clampPoint(Math.round((1 + PITCH_STEPS_PER_FRET * semis) * 100) / 100));
  }
  return out;
}

/** Bend found on a contour: the fret reached at the top and, when it comes back, the release. */
export function findBend(
  bend: readonly number[],
  fret: number,
): { to: number; release: number | null } | null {
  if (bend.length < TAIL_FRAMES + 4) return null;
  // A bend is held: a 7-frame (80 ms) median keeps it and removes glitches shorter than that.
  const curve = median(relativeContour(bend), 3);
  const start = 0;
  let peak = 0;
  let peakAt = 0;
  // The last frames of a note are its decay, where the next note's partials take the contour.
  curve.slice(0, curve.length - TAIL_FRAMES).forEach((v, i) => {
    if (v - start > peak) {
      peak = v - start;
      peakAt = i;
    }
  });
  if (peak < TECHNIQUE_THRESHOLDS.bendSemitones) return null;
  const after = curve.slice(peakAt);
  const released = after.some((v) => v - start < TECHNIQUE_THRESHOLDS.releaseSemitones);
  return { to: fret + Math.round(peak), release: released ? fret : null };
}

/** Vibrato on a contour: 'small' or 'big' by depth, '' when there is none. */
export function findVibrato(bend: readonly number[]): '' | 'small' | 'big' {
  const seconds = bend.length / FRAME_RATE;
  if (seconds < TECHNIQUE_THRESHOLDS.vibratoMinSeconds) return '';
  // Remove glitches, then the slow trend (a bend, drift), so only the wobble remains.
  const clean = median(bend, 1);
  const trend = smooth(clean, Math.round(FRAME_RATE / 8));
  const wobble = clean.map((v, i) => v - (trend[i] ?? 0));
  const body = wobble.slice(3, Math.max(3, wobble.length - 3));
  if (body.length < 8) return '';
  let crossings = 0;
  for (let i = 1; i < body.length; i += 1) {
    if (Math.sign(body[i] ?? 0) !== Math.sign(body[i - 1] ?? 0)) crossings += 1;
  }
  const rate = crossings / 2 / (body.length / FRAME_RATE);
  const sorted = [...body].sort((a, b) => a - b);
  const hi = sorted[Math.floor(sorted.length * 0.9)] ?? 0;
  const lo = sorted[Math.floor(sorted.length * 0.1)] ?? 0;
  const depthCents = ((hi - lo) / 2) * 100;
  if (rate < TECHNIQUE_THRESHOLDS.vibratoMinHz || rate > TECHNIQUE_THRESHOLDS.vibratoMaxHz)
    return '';
  if (depthCents < TECHNIQUE_THRESHOLDS.vibratoMinCents) return '';
  return depthCents >= TECHNIQUE_THRESHOLDS.vibratoBigCents ? 'big' : 'small';
}

function plain(note: TabNote): NoteEvent {
  return {
    time: note.time,
    end_time: note.endTime,
    string: note.string,
    fret: note.fret,
    event_type: 'note',
    pitch_arr: pitchArr(note),
    mute: false,
    vibrato: '',
    bend_to_fret: null,
    release_to_fret: null,
    leading_slide: false,
    trailing_slide: false,
    leading_hammer_on: false,
    trailing_hammer_on: false,
    leading_pull_off: false,
    trailing_pull_off: false,
  };
}

/**
 * Techniques from the contour and the onsets (pure):
 * - bends (bend_to_fret, release_to_fret) and vibrato ('small' | 'big') from each note's contour;
 * - for consecutive notes on one string where the second has no pluck of its own and starts as
 *   the first ends: a slide when the first note's pitch glides toward the second, otherwise a
 *   hammer-on (going up) or a pull-off (going down); flags on both notes, one technique per side.
 * Muted (dead) notes are not detected yet: the notes stage only hands over pitched notes.
 * `audio` and `setup` are accepted for that detector and for future refinements.
 */
export function detectTechniques(
  notes: readonly TabNote[],
  _audio: Float32Array,
  _setup: GuitarSetup,
): NoteEvent[] {
  const sorted = [...notes].sort((a, b) => a.time - b.time);
  const events = sorted.map((note) => {
    const event = plain(note);
    const bend = findBend(note.bend, note.fret);
    if (bend) {
      event.bend_to_fret = bend.to;
      event.release_to_fret = bend.release;
    } else {
      event.vibrato = findVibrato(note.bend);
    }
    return event;
  });

  const lastOnString = new Map<number, number>();
  sorted.forEach((note, i) => {
    const prevIndex = lastOnString.get(note.string);
    lastOnString.set(note.string, i);
    if (prevIndex === undefined) return;
    const prev = sorted[prevIndex];
    const prevEvent = events[prevIndex];
    const event = events[i];
    if (!prev || !prevEvent || !event) return;
    const gap = note.time - prev.endTime;
    if (note.onset >= TECHNIQUE_THRESHOLDS.unpluckedOnset) return;
    if (gap > TECHNIQUE_THRESHOLDS.legatoGapSeconds || gap < -0.1) return;
    if (note.fret === prev.fret || prevEvent.trailing_slide) return;
    const direction = Math.sign(note.fret - prev.fret);
    const tail = median(prev.bend, 1).slice(-5);
    const glide = (tail.at(-1) ?? 0) - (tail[0] ?? 0);
    if (direction * glide >= TECHNIQUE_THRESHOLDS.slideGlideSemitones) {
      // The rise at the end of the note carried it to the next fret: a slide, not a bend.
      prevEvent.bend_to_fret = null;
      prevEvent.release_to_fret = null;
      prevEvent.trailing_slide = true;
      event.leading_slide = true;
    } else if (
      prevEvent.bend_to_fret !== null ||
      Math.abs(note.fret - prev.fret) > MAX_LEGATO_FRETS
    ) {
      // A fretting hand hammers or pulls within its reach only.
      return;
    } else if (direction > 0) {
      prevEvent.trailing_hammer_on = true;
      event.leading_hammer_on = true;
    } else {
      prevEvent.trailing_pull_off = true;
      event.leading_pull_off = true;
    }
  });
  return events;
}
