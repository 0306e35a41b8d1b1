import {
  ANALYSIS_HOP,
  ANALYSIS_SAMPLE_RATE,
  PITCH_STEPS_PER_FRET,
  VIBRATO_CENTS,
  VIBRATO_RATE_HZ,
  type NoteEvent,
  type Tuning,
} from '@riffscribe/core';
import { notePitch } from '../model/lesson';
import { windowRange, type NoteIndex } from '../model/noteIndex';
import { curveAt } from '../timeline/glyphs';

/**
 * Synth note scheduling from events (spec sections 5 and 9): which notes start in a stretch of
 * video time, at what audio-clock time each must start at the current speed, and the pitch bend
 * it follows (its pitch_arr, plus the spec's vibrato when the curve does not carry one).
 */

/** Muted notes: a short damped click rather than a pitch. */
export const MUTED_SECONDS = 0.06;
/** Detune curve resolution, points per second of note. */
const DETUNE_RATE = 100;

export interface Voice {
  note: number;
  /** MIDI pitch: open string + capo + fret. */
  midi: number;
  /** Hz of the unbent pitch. */
  frequency: number;
  /** Video-time start and length, seconds (length at speed 1). */
  time: number;
  duration: number;
  muted: boolean;
  /** Pitch offset in cents over the note, sampled evenly from start to end; empty when flat. */
  detune: Float32Array;
}

export const midiToHz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);

/**
 * How much the curve itself wobbles around its own smoothed line, in cents: a curve measured from
 * a real vibrato (the engine's) has it, a default or hand-drawn bend does not.
 */
export function curveWobbleCents(note: NoteEvent): number {
  const pts = note.pitch_arr;
  const radius = Math.max(1, Math.round(ANALYSIS_SAMPLE_RATE / ANALYSIS_HOP / VIBRATO_RATE_HZ / 2));
  if (pts.length < 2 * radius + 3) return 0;
  let sum = 0;
  for (let i = radius; i < pts.length - radius; i += 1) {
    let mean = 0;
    for (let j = i - radius; j <= i + radius; j += 1) mean += pts[j] ?? 1;
    mean /= 2 * radius + 1;
    sum += ((pts[i] ?? 1) - mean) ** 2;
  }
  const rms = Math.sqrt(sum / (pts.length - 2 * radius));
  return (rms / PITCH_STEPS_PER_FRET) * 100 * Math.SQRT2;
}

/**
 * The note's detune curve in cents: 100 cents per 3 pitch steps above 1; with vibrato flagged and
 * not already in the curve, a sine of the spec's depth (small 15, big 35 cents) at 6.5 Hz.
 */
export function detuneCurve(note: NoteEvent): Float32Array {
  const duration = note.end_time - note.time;
  const flat = note.pitch_arr.every((v) => Math.abs(v - 1) < 1e-6);
  const depth = note.vibrato ? VIBRATO_CENTS[note.vibrato] : 0;
  const addVibrato = depth > 0 && curveWobbleCents(note) < depth / 2;
  if (flat && !addVibrato) return new Float32Array(0);
  const n = Math.max(2, Math.ceil(duration * DETUNE_RATE) + 1);
  const out = new Float32Array(n);
  for (let k = 0; k < n; k += 1) {
    const t = (k / (n - 1)) * duration;
    const bend = ((curveAt(note.pitch_arr, duration, t) - 1) / PITCH_STEPS_PER_FRET) * 100;
    // Vibrato eases in over the first 0.15 s, as a player's hand does.
    const vib = addVibrato
      ? depth * Math.min(1, t / 0.15) * Math.sin(2 * Math.PI * VIBRATO_RATE_HZ * t)
      : 0;
    out[k] = bend + vib;
  }
  return out;
}

export function voiceFor(index: NoteIndex, i: number, tuning: Tuning, capo: number): Voice | null {
  const note = index.notes[i];
  if (!note) return null;
  const midi = notePitch(note, tuning, capo);
  return {
    note: i,
    midi,
    frequency: midiToHz(midi),
    time: note.time,
    duration: note.mute ? MUTED_SECONDS : note.end_time - note.time,
    muted: note.mute,
    detune: note.mute ? new Float32Array(0) : detuneCurve(note),
  };
}

/** Indices of the notes that start in [from, to) seconds of video time. */
export function startingBetween(index: NoteIndex, from: number, to: number): number[] {
  const [lo, hi] = windowRange(index, from, to);
  const out: number[] = [];
  for (let i = lo; i < hi; i += 1) {
    const t = index.notes[i]?.time ?? -1;
    if (t >= from && t < to) out.push(i);
  }
  return out;
}

/**
 * Audio-clock time at which video time `mediaTime` plays, given that video time `anchorMedia`
 * plays at audio time `anchorAudio` and the video runs at `speed`.
 */
export function audioTimeFor(
  mediaTime: number,
  anchor: { media: number; audio: number },
  speed: number,
): number {
  return anchor.audio + (mediaTime - anchor.media) / speed;
}

/** A voice as the audio graph plays it at `speed`: start on the audio clock and real length. */
export interface ScheduledVoice {
  voice: Voice;
  startAt: number;
  length: number;
}

/**
 * The voices to start for video time [from, to) at `speed`, each with its audio-clock start
 * (never in the past: a note due a moment ago starts now) and its length at that speed.
 */
export function scheduleWindow(input: {
  index: NoteIndex;
  tuning: Tuning;
  capo: number;
  from: number;
  to: number;
  anchor: { media: number; audio: number };
  speed: number;
}): ScheduledVoice[] {
  const { index, tuning, capo, from, to, anchor, speed } = input;
  const out: ScheduledVoice[] = [];
  for (const i of startingBetween(index, from, to)) {
    const voice = voiceFor(index, i, tuning, capo);
    if (!voice) continue;
    out.push({
      voice,
      startAt: Math.max(anchor.audio, audioTimeFor(voice.time, anchor, speed)),
      length: voice.duration / speed,
    });
  }
  return out;
}
