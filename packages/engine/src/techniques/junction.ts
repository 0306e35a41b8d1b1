import type { ClipAudio } from '../types.js';
import { hzToMidi, midiToHz, SAMPLE_RATE } from '../units.js';
import { median } from './curves.js';

/**
 * How a string got from one pitch to the next (pure): by a glide (a slide or a bend passes
 * through the pitches in between) or by a step (a hammer-on or pull-off jumps, the string never
 * sounds in between). The model's contour is too coarse in time for a fast slide, so the clip
 * itself is read: a YIN period estimate (de Cheveigné and Kawahara, 2002) every JUNCTION_HOP
 * samples across the junction, with the period searched only between the two pitches (plus a
 * margin), and the time the string spends in the middle of the way counted.
 */

/** Hop (samples) of the junction analysis: 2.9 ms. */
export const JUNCTION_HOP = 64;
/** A frame's YIN dip must be at most this deep (0 = perfectly periodic) to count. */
const MAX_APERIODICITY = 0.35;
/**
 * ... or this deep when the two pitches are a whole tone or more apart: a window straddling two
 * steady notes that far apart dips at one of their periods, never at one in between, so a weaker
 * dip between them is still the string passing through (a fast slide smears the period within
 * one window). A semitone's two periods are too close for that, so there the strict limit holds.
 */
const MAX_APERIODICITY_WIDE = 0.6;
/** Semitones from which MAX_APERIODICITY_WIDE applies. */
const WIDE_INTERVAL = 2;
/** The middle of the way: fractions of the interval between the two pitches. */
export const MIDDLE: readonly [number, number] = [0.2, 0.8];

/**
 * Seconds a glide takes over the whole way, from `count` analysis steps (`stepsPerSecond` of
 * them a second) spent in the middle of the way, which is MIDDLE[1] - MIDDLE[0] of it.
 */
export function middleSeconds(count: number, stepsPerSecond: number): number {
  return count / stepsPerSecond / (MIDDLE[1] - MIDDLE[0]);
}

/** YIN's longest period (samples) for pitches down to `lowMidi`, and its difference width. */
function yinWindow(lowMidi: number): { tauMax: number; width: number } {
  const tauMax = Math.ceil(SAMPLE_RATE / midiToHz(lowMidi));
  return { tauMax, width: Math.max(256, tauMax) };
}

/**
 * YIN pitch (MIDI, fractional) of the window starting at `start`, with periods searched between
 * those of `lowMidi` and `highMidi`; null when the window is not periodic enough.
 */
export function yinPitch(
  audio: ClipAudio,
  start: number,
  lowMidi: number,
  highMidi: number,
  maxAperiodicity = MAX_APERIODICITY,
): number | null {
  const tauMin = Math.max(2, Math.floor(SAMPLE_RATE / midiToHz(highMidi)));
  const { tauMax, width } = yinWindow(lowMidi);
  if (start < 0 || start + width + tauMax + 1 >= audio.length) return null;
  const x = audio.subarray(start, start + width + tauMax + 1);
  const d = new Float64Array(tauMax + 2);
  for (let tau = 1; tau <= tauMax + 1; tau++) {
    let sum = 0;
    for (let i = 0; i < width; i++) {
      const diff = (x[i] ?? 0) - (x[i + tau] ?? 0);
      sum += diff * diff;
    }
    d[tau] = sum;
  }
  // Cumulative mean normalised difference.
  const cm = new Float64Array(tauMax + 2);
  cm[0] = 1;
  let running = 0;
  for (let tau = 1; tau <= tauMax + 1; tau++) {
    running += d[tau] ?? 0;
    cm[tau] = running > 0 ? ((d[tau] ?? 0) * tau) / running : 1;
  }
  let best = -1;
  let bestValue = Number.POSITIVE_INFINITY;
  for (let tau = tauMin; tau <= tauMax; tau++) {
    const v = cm[tau] ?? 1;
    if (v < bestValue) {
      bestValue = v;
      best = tau;
    }
  }
  if (best < 0 || bestValue > maxAperiodicity) return null;
  const a = cm[best - 1] ?? bestValue;
  const c = cm[best + 1] ?? bestValue;
  const curvature = a - 2 * bestValue + c;
  const shift = curvature > 0 ? Math.max(-0.5, Math.min(0.5, (0.5 * (a - c)) / curvature)) : 0;
  return hzToMidi(SAMPLE_RATE / (best + shift));
}

export interface Junction {
  /** Seconds the string spent in the middle of the way, scaled to the whole way. */
  glideSeconds: number;
  /** Hops with a periodic estimate, and how many of them were in the middle. */
  voiced: number;
  middle: number;
  /** Seconds from the string leaving the departing pitch to reaching the arriving one (ramp). */
  rampSeconds: number;
}

/** Semitones from the departing pitch within which the string has not left it yet. */
const AT_PITCH = 0.1;
/** Voiced hops that must move, each further than the last, for the string to be seen leaving. */
const RAMP_HOPS = 3;
/** ... and how far (semitones) they must have moved toward the arriving pitch in all. */
const RAMP_SEMITONES = 0.3;
/** Voiced hops at the window's start that give the departing pitch. */
const RAMP_REFERENCE_HOPS = 5;

/**
 * The ramp of a fast slide: the middle of the way can be unreadable (the window holds pitches
 * too far apart to be periodic), but the string is seen leaving, hop after hop further toward the
 * arriving pitch, before the estimate breaks off or arrives. A hammer-on or pull-off jumps: the
 * estimate stays at the departing pitch until the window reaches the new note. The track is
 * median-filtered over voiced hops (a window straddling the break can give one stray value), the
 * departing pitch is where the track starts (the median of its first voiced hops: a note can sit
 * a little off its semitone). Returns the seconds from the last hop at the departing pitch to the
 * first in the arrival's part of the way (MIDDLE[1] onwards), or 0 when no ramp leads there.
 * `spanHops`: the hops one YIN window spans.
 */
export function rampSeconds(
  track: readonly (number | null)[],
  fromMidi: number,
  toMidi: number,
  spanHops: number,
): number {
  const delta = toMidi - fromMidi;
  const voicedAt = track.flatMap((p, i) => (p === null ? [] : [i]));
  const smooth = track.map(() => Number.NaN);
  voicedAt.forEach((i, k) => {
    const around = [voicedAt[k - 1], i, voicedAt[k + 1]]
      .map((j) => (j === undefined ? null : track[j]))
      .filter((p): p is number => p != null);
    smooth[i] = median(around, Number.NaN);
  });
  const first = voicedAt.slice(0, RAMP_REFERENCE_HOPS).map((i) => smooth[i] ?? Number.NaN);
  if (first.length < RAMP_REFERENCE_HOPS) return 0;
  const departing = median(first, fromMidi);
  const way = (p: number) => (p - departing) / (toMidi - departing);
  const arrive = smooth.findIndex((p) => !Number.isNaN(p) && way(p) >= MIDDLE[1]);
  if (arrive <= 0) return 0;
  let leave = -1;
  for (let i = arrive - 1; i >= 0; i--) {
    const p = smooth[i] ?? Number.NaN;
    if (!Number.isNaN(p) && Math.abs(p - departing) <= AT_PITCH) {
      leave = i;
      break;
    }
  }
  if (leave < 0) return 0;
  let moving = 0;
  let last = 0;
  let movedBy = -1;
  for (let i = leave + 1; i < arrive; i++) {
    const p = smooth[i] ?? Number.NaN;
    if (Number.isNaN(p)) continue;
    const x = way(p);
    // The estimate wobbles by a few hundredths of a semitone; a string going back is no ramp.
    if (x < last - AT_PITCH / Math.abs(delta)) return 0;
    if (x > last) {
      moving++;
      last = x;
    }
    if (movedBy < 0 && last * Math.abs(delta) >= RAMP_SEMITONES) movedBy = i;
  }
  // A window straddling a step mixes the two periods and can read a few values in between, but
  // only within one window's span of the arrival: a slide's string is seen moving before that.
  if (moving < RAMP_HOPS || movedBy < 0 || arrive - movedBy < spanHops) return 0;
  return ((arrive - leave) * JUNCTION_HOP) / SAMPLE_RATE;
}

/**
 * Reads the junction between `fromTime` and `toTime` (seconds) where a string moves from
 * `fromMidi` to `toMidi`. `glideSeconds` is 0 for a clean step; for a fast slide whose middle is
 * unreadable it is the ramp's length (rampSeconds) when that is longer.
 */
export function readJunction(
  audio: ClipAudio,
  fromTime: number,
  toTime: number,
  fromMidi: number,
  toMidi: number,
): Junction {
  const low = Math.min(fromMidi, toMidi) - 0.6;
  const high = Math.max(fromMidi, toMidi) + 0.6;
  const delta = toMidi - fromMidi;
  const limit = Math.abs(delta) >= WIDE_INTERVAL ? MAX_APERIODICITY_WIDE : MAX_APERIODICITY;
  const a = Math.round(fromTime * SAMPLE_RATE);
  const b = Math.round(toTime * SAMPLE_RATE);
  const track: (number | null)[] = [];
  let voiced = 0;
  let middle = 0;
  for (let s = a; s <= b; s += JUNCTION_HOP) {
    const p = yinPitch(audio, s, low, high, limit);
    track.push(p);
    if (p === null) continue;
    voiced++;
    const x = (p - fromMidi) / delta;
    if (x > MIDDLE[0] && x < MIDDLE[1]) middle++;
  }
  const { tauMax, width } = yinWindow(low);
  const spanHops = Math.ceil((width + tauMax) / JUNCTION_HOP);
  const ramp = rampSeconds(track, fromMidi, toMidi, spanHops);
  const glideSeconds = Math.max(middleSeconds(middle, SAMPLE_RATE / JUNCTION_HOP), ramp);
  return { glideSeconds, voiced, middle, rampSeconds: ramp };
}
