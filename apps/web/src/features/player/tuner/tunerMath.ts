import {
  STRING_COUNT,
  TUNER_GAUGE_CENTS,
  clamp,
  openStringPitch,
  type Tuning,
} from '@riffscribe/core';
import { midiToHz } from '../synth/schedule';

const NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];

/** "E2", "A#3": scientific pitch name of a MIDI note (60 = C4). */
export function noteName(midi: number): string {
  const m = Math.round(midi);
  return `${NAMES[((m % 12) + 12) % 12] ?? 'C'}${String(Math.floor(m / 12) - 1)}`;
}

/** Fractional MIDI pitch of a frequency (A4 = 440 Hz = 69). */
export const hzToMidi = (hz: number) => 69 + 12 * Math.log2(hz / 440);

/** Scientific names of strings 1..6 (high e first) as they sound with the capo: "E4 B3 ... E2". */
export function stringNames(tuning: Tuning, capo: number): string[] {
  const names: string[] = [];
  for (let s = 1; s <= STRING_COUNT; s += 1)
    names.push(noteName(openStringPitch(tuning, s) + capo));
  return names;
}

export interface TunerReading {
  /** String 1..6 whose target is nearest. */
  string: number;
  /** Target MIDI pitch of that string: open pitch + capo. */
  target: number;
  targetHz: number;
  /** Signed distance from the target, cents (flat < 0 < sharp). */
  cents: number;
  /** Needle position for the gauge, cents clamped to +-50. */
  gauge: number;
  inTune: boolean;
}

/** Within this many cents a string counts as in tune. */
export const IN_TUNE_CENTS = 5;

/**
 * The string of the lesson's tuning (with its capo) nearest to a heard frequency, and how far
 * off it is. Null for a frequency no guitar string makes (below 20 Hz or not finite).
 */
export function readTuner(hz: number, tuning: Tuning, capo: number): TunerReading | null {
  if (!Number.isFinite(hz) || hz < 20) return null;
  const heard = hzToMidi(hz);
  let best: { string: number; target: number } | null = null;
  for (let s = 1; s <= STRING_COUNT; s += 1) {
    const target = openStringPitch(tuning, s) + capo;
    if (!best || Math.abs(heard - target) < Math.abs(heard - best.target))
      best = { string: s, target };
  }
  if (!best) return null;
  const cents = (heard - best.target) * 100;
  return {
    string: best.string,
    target: best.target,
    targetHz: midiToHz(best.target),
    cents,
    gauge: clamp(cents, -TUNER_GAUGE_CENTS, TUNER_GAUGE_CENTS),
    inTune: Math.abs(cents) <= IN_TUNE_CENTS,
  };
}
