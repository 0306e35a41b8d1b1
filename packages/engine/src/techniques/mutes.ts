import { type NoteEvent, plainNote } from '@riffscribe/core';
import { openPitch } from '../tab/fingering.js';
import type { ClipAudio, GuitarSetup } from '../types.js';
import { FRAME_RATE, HOP, midiToHz, SAMPLE_RATE } from '../units.js';
import { attackAt, energyRiseAt, type AttackAnalysis } from './attacks.js';
import { pitchArray } from './bend.js';
import { median } from './curves.js';
import { firstAtLeast } from '../sorted.js';
import { frameSpectrum, spectrumBuffer } from './spectrum.js';

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
  /**
   * A weaker attack (from `isolatedRatio` of the typical strike) is considered when it stands
   * alone: `prominence` times the strongest attack flux within `isolationFrames` either side
   * (its own peak's neighbouring frames aside). A dead note played softly, or under a string
   * still ringing, is a click over a quiet stretch of the high band; a pick's noise in a busy
   * passage or a distorted guitar's hiss is not. It must also add power to the partials
   * (`isolatedRiseDb`, energyRiseAt): a string damped at the end of its note clicks too, while
   * the sound falls.
   */
  isolatedRatio: number;
  prominence: number;
  isolationFrames: number;
  isolatedRiseDb: number;
  /** Frames before and after the attack in which a note's start explains it. */
  explainBefore: number;
  explainAfter: number;
  /**
   * Frames after the peak of the partials' power (the loudest of the attack's frame and the two
   * after it) at which the power is compared with that peak.
   */
  decayFrames: number;
  /** ... and how far it must have fallen (dB). */
  decayDb: number;
  /** Length written for a dead note (seconds). */
  seconds: number;
}

export const MUTE_OPTIONS: MuteOptions = {
  minRatio: 0.7,
  isolatedRatio: 0.15,
  prominence: 3,
  isolationFrames: 10,
  isolatedRiseDb: 3,
  explainBefore: 4,
  explainAfter: 3,
  decayFrames: 6,
  decayDb: 12,
  seconds: 0.08,
};

export interface DeadPitchOptions {
  /** Longest reported note (seconds) that can be a dead note: a dead note's sound lasts ~0.1 s. */
  maxSeconds: number;
  /** Frames after the loudest of the first frames at which its partials' power is read. */
  decayFrames: number;
  /**
   * How far (dB) the partials must have fallen by then: 30 dB in 116 ms is a decay of over
   * 250 dB/s, several times faster than a palm-muted string (tens of dB per second), so only a
   * string stopped by the hand falls this fast.
   */
  decayDb: number;
}

export const DEAD_PITCH_OPTIONS: DeadPitchOptions = {
  maxSeconds: 0.2,
  decayFrames: 10,
  decayDb: 30,
};

/** Window (samples) of the partials' power: 46 ms, enough to resolve a low E's partials. */
const PARTIAL_WINDOW = 1024;
/** Partials summed (up to this many, below PARTIAL_MAX_HZ). */
const PARTIALS = 6;
const PARTIAL_MAX_HZ = 5000;

/** Power of the first partials of `midi` in the frame centred on `center` (samples). */
function partialPower(
  audio: ClipAudio,
  center: number,
  midi: number,
  spectrum = spectrumBuffer(PARTIAL_WINDOW),
): number {
  const { re, im } = frameSpectrum(audio, center, PARTIAL_WINDOW, spectrum);
  const binHz = SAMPLE_RATE / PARTIAL_WINDOW;
  const f0 = midiToHz(midi);
  let power = 0;
  for (let h = 1; h <= PARTIALS && h * f0 < PARTIAL_MAX_HZ; h++) {
    const k = Math.round((h * f0) / binHz);
    for (let j = Math.max(1, k - 1); j <= k + 1; j++)
      power += (re[j] ?? 0) ** 2 + (im[j] ?? 0) ** 2;
  }
  return power;
}

/**
 * Turns struck, short, plain pitched notes whose partials fall by `decayDb` within `decayFrames`
 * into dead notes (mute: true, at the same string and fret). Notes joined to others by a slur or
 * slide, bent or with vibrato are left alone: their string kept sounding.
 */
export function deadenShortNotes(
  events: readonly NoteEvent[],
  audio: ClipAudio,
  setup: GuitarSetup,
  opts: DeadPitchOptions = DEAD_PITCH_OPTIONS,
): NoteEvent[] {
  if (audio.length === 0) return [...events];
  const spectrum = spectrumBuffer(PARTIAL_WINDOW);
  return events.map((e) => {
    const plain =
      !e.mute &&
      !e.leading_slide &&
      !e.trailing_slide &&
      !e.leading_hammer_on &&
      !e.trailing_hammer_on &&
      !e.leading_pull_off &&
      !e.trailing_pull_off &&
      e.bend_to_fret === null &&
      e.vibrato === '';
    if (!plain || e.end_time - e.time > opts.maxSeconds) return e;
    const midi = openPitch(setup, e.string) + e.fret;
    const start = Math.round(e.time * FRAME_RATE);
    // Where the clip ends within the window, silence is the end of the recording, not a decay.
    if ((start + 3 + opts.decayFrames) * HOP + PARTIAL_WINDOW / 2 > audio.length) return e;
    // The loudest of the frames in which the model places the attack (attacks.ts ATTACK_SEARCH).
    let peak = 0;
    let peakAt = start;
    for (let f = start; f <= start + 3; f++) {
      const p = partialPower(audio, f * HOP, midi, spectrum);
      if (p > peak) {
        peak = p;
        peakAt = f;
      }
    }
    const late = partialPower(audio, (peakAt + opts.decayFrames) * HOP, midi, spectrum);
    if (10 * Math.log10((peak + 1e-12) / (late + 1e-12)) < opts.decayDb) return e;
    return {
      ...e,
      mute: true,
      end_time: e.time + MUTE_OPTIONS.seconds,
      pitch_arr: pitchArray([], MUTE_OPTIONS.seconds),
    };
  });
}

/** Strings on which one of `notes` is sounding at `time`. */
function soundingStrings(notes: readonly NoteEvent[], time: number): Set<number> {
  return new Set(notes.filter((n) => n.time <= time && time < n.end_time).map((n) => n.string));
}

/** The event (sorted by time) whose start is nearest `time`, by binary search. */
function nearestEvent(byTime: readonly NoteEvent[], time: number): NoteEvent | undefined {
  const lo = firstAtLeast(byTime, time, (e) => e.time);
  const after = byTime[lo];
  const before = byTime[lo - 1];
  if (after === undefined) return before;
  if (before === undefined) return after;
  return time - before.time <= after.time - time ? before : after;
}

/** Whether the attack flux at frame `t` stands `prominence` times above its surroundings. */
function isolated(flux: Float32Array, t: number, opts: MuteOptions): boolean {
  let around = 0;
  for (let k = t - opts.isolationFrames; k <= t + opts.isolationFrames; k++)
    if (Math.abs(k - t) > 1) around = Math.max(around, flux[k] ?? 0);
  return (flux[t] ?? 0) >= opts.prominence * around;
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
    if (v < opts.isolatedRatio * reference) continue;
    if (!(v > (flux[t - 1] ?? 0) && v >= (flux[t + 1] ?? 0))) continue;
    if (
      v < opts.minRatio * reference &&
      !(isolated(flux, t, opts) && energyRiseAt(attacks, t / FRAME_RATE) >= opts.isolatedRiseDb)
    )
      continue;
    while (next < starts.length && (starts[next] ?? 0) < t - opts.explainBefore) next++;
    if (next < starts.length && (starts[next] ?? 0) <= t + opts.explainAfter) continue;
    // The partials' power is read `decayFrames` after its own peak, which can follow the
    // attack's by a frame or two (a low string's partials build up after the click).
    let peakAt = t;
    for (let k = t + 1; k <= t + 2; k++) if ((energy[k] ?? 0) > (energy[peakAt] ?? 0)) peakAt = k;
    const peak = energy[peakAt] ?? 0;
    const late = energy[peakAt + opts.decayFrames] ?? 0;
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
