import { defaultGrid, MAX_BEAT_SECONDS, MIN_BEAT_SECONDS, type BeatGrid } from '@riffscribe/core';
import { FRAME_RATE } from '../units.js';
import {
  frameCount,
  onsetEnvelope,
  smooth,
  type RhythmActivations,
  type RhythmNote,
} from './envelope.js';
import { chooseMeter } from './meter.js';
import { globalTempo, localPeriods } from './tempo.js';
import { trackBeats } from './track.js';

/**
 * The rhythm stage: beats, tempo and bars of a clip from Basic Pitch's posteriorgrams and the
 * detected notes (pure; envelope.ts, tempo.ts, track.ts, meter.ts). The grid covers the whole
 * clip: the tracked chain of beats is moved onto the starts of the attacks it sits on
 * (snapToAttacks) and extended at its edge tempo to the clip's start and end.
 * Simple meters only (3 or 4 quarter-note beats a bar, beat_unit 4): compound meters (6/8,
 * 12/8) are not modelled and are expected to come out as their dotted-quarter pulse in 2 or 4
 * (untested); the editor corrects them.
 */

/** Tempo and meter of a clip without a pulse (silence, too few notes): the spec's default. */
/** Fewest notes that can show a pulse (two bars of 3/4), set by hand. */
const MIN_NOTES = 6;
/**
 * Least autocorrelation at the beat period relative to lag 0 for a pulse: under it the onsets are
 * no more periodic than noise. Set by hand low (0.05): no string-model or SoundFont tuned clip
 * falls under it; it only stops near-empty envelopes.
 */
const MIN_CLARITY = 0.05;
/** Smoothing of the envelope, frames (about 23 ms, a strum's spread). */
const TRACK_SIGMA = 2;

/**
 * The beat grid of a clip `duration` seconds long. `activations` null (silence) or fewer than
 * MIN_NOTES notes give core's default grid. Valid under beatGridSchema.
 */
export function detectBeats(
  activations: RhythmActivations | null,
  notes: readonly RhythmNote[],
  duration: number,
): BeatGrid {
  if (notes.length < MIN_NOTES || duration <= 0) return defaultGrid(duration);
  const length = frameCount(duration);
  const env = onsetEnvelope(activations, notes, length);
  // Smoothed, an onset one frame early or late still lines up with the next one: a beat period
  // falls between whole frames, and the raw envelope's one-frame peaks would make the
  // autocorrelation prefer lags that are whole multiples of a frame (a 150 BPM piece read at 75).
  const smoothed = smooth(env, TRACK_SIGMA);
  const tempo = globalTempo(smoothed);
  if (tempo === null || tempo.clarity < MIN_CLARITY) return defaultGrid(duration);
  const periods = localPeriods(smoothed, tempo.period);
  const frames = trackBeats(smoothed, periods);
  if (frames.length < 2) return defaultGrid(duration);
  const tracked = frames.map((f) => f / FRAME_RATE);
  const beats = extend(snapToAttacks(tracked, notes), duration);
  const meter = chooseMeter(beats, notes, env);
  const downbeats: number[] = [];
  for (let i = meter.phase; i < beats.length; i += meter.perBar) downbeats.push(i);
  if (downbeats.length === 0) downbeats.push(0);
  return { beats, downbeats, beat_unit: 4 };
}

/**
 * Snapping a tracked beat to the attack under it: the window each side of the beat, seconds, and
 * the most between neighbouring notes of one strum. The envelope peaks in the middle of a strum
 * (its strings' onsets summed and smoothed), 25-45 ms after the strum starts on the rhythm
 * corpus's strummed clips, while a beat is heard, and annotated, where the attack starts; the
 * detected notes' onsets are within a few milliseconds of the true ones. On the tuned part
 * (packages/lab/src/rhythm-dev.ts) the matched beats' median offset went from +26 ms to +17 ms (mean |offset|
 * 25 to 20 ms), beat F1 unchanged; windows of 40, 60 and 80 ms gave the same. 60 ms stays inside
 * the ±70 ms a beat is scored by and under a third of the shortest beat (MIN_BEAT_SECONDS);
 * 30 ms is the widest strum spread between neighbouring strings the corpora play (15 ms) twice.
 */
const SNAP_SECONDS = 0.06;
const STRUM_GAP = 0.03;

/**
 * Each beat moved to the start of the attack it sits on: the detected note onset nearest to it
 * within ±SNAP_SECONDS, then back through the notes of the same strum (each within STRUM_GAP of
 * the next) to the first. A beat with no note near it (a rest, a tied-over beat) stays. Beats
 * stay in order. Linear in beats + notes.
 */
export function snapToAttacks(beats: readonly number[], notes: readonly RhythmNote[]): number[] {
  const times = notes.map((n) => n.time).sort((a, b) => a - b);
  let k = 0;
  const out = beats.map((b) => {
    while (k < times.length && (times[k] ?? 0) < b - SNAP_SECONDS) k++;
    let best = -1;
    for (let j = k; j < times.length && (times[j] ?? 0) <= b + SNAP_SECONDS; j++)
      if (best < 0 || Math.abs((times[j] ?? 0) - b) < Math.abs((times[best] ?? 0) - b)) best = j;
    if (best < 0) return b;
    while (best > 0 && (times[best] ?? 0) - (times[best - 1] ?? 0) <= STRUM_GAP) best--;
    return times[best] ?? b;
  });
  // Two beats never snap past each other (extend() then drops a gap too short).
  for (let i = 1; i < out.length; i++) out[i] = Math.max(out[i] ?? 0, (out[i - 1] ?? 0) + 1e-3);
  return out;
}

/**
 * Extends a chain of beat times at its edge gaps to cover 0..duration, and keeps every gap
 * within the schema's limits (a gap too short is dropped, one too long is split).
 */
function extend(chain: readonly number[], duration: number): number[] {
  const first = chain[0] ?? 0;
  const second = chain[1] ?? first + 0.5;
  const firstGap = clampGap(second - first);
  const lastGap = clampGap((chain.at(-1) ?? 0) - (chain.at(-2) ?? 0));
  const before: number[] = [];
  for (let t = first - firstGap; t >= -1e-9; t -= firstGap) before.push(Math.max(0, t));
  const after: number[] = [];
  for (let t = (chain.at(-1) ?? 0) + lastGap; t <= duration + 1e-9; t += lastGap) after.push(t);
  const all = [...before.reverse(), ...chain, ...after];
  const out: number[] = [];
  for (const t of all) {
    const prev = out.at(-1);
    if (prev === undefined) {
      out.push(t);
      continue;
    }
    let gap = t - prev;
    if (gap < MIN_BEAT_SECONDS) continue;
    const parts = Math.ceil(gap / MAX_BEAT_SECONDS);
    gap /= parts;
    for (let k = 1; k <= parts; k++) out.push(prev + k * gap);
  }
  if (out.length < 2) return defaultGrid(duration).beats;
  return out;
}

function clampGap(gap: number): number {
  return Math.min(MAX_BEAT_SECONDS, Math.max(MIN_BEAT_SECONDS, gap));
}
