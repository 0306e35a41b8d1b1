import { LEGATO_ONSET } from '../tab/assign.js';
import { openPitch } from '../tab/fingering.js';
import type { GuitarSetup, TabNote } from '../types.js';
import { attackAt, energyRiseAt, type AttackAnalysis } from './attacks.js';
import { median, quantile } from './curves.js';

/**
 * Which notes were struck, and which continue a string that was already sounding (pure).
 *
 * A string sounds from a pick (or pluck) until it is damped or struck again; in between, the
 * player can move its pitch without striking it: hammer-ons, pull-offs, slides and bends. The
 * notes stage hands such a movement over as several notes: one per pitch the string dwelt on
 * (a bend often arrives as the fretted note, a short note half-way and the note at the top). A
 * *chain* gathers the notes of one string between two strikes, in time order; `chain-events.ts`
 * then reads what the string did from the chain's pitch track.
 *
 * A note is struck when the clip shows an attack at its start (attacks.ts), measured against the
 * clip's own typical attack so that the recording's level, noise and pick do not matter; notes
 * that start together with two or more others (a strum) are struck. Without audio, the model's
 * onset activation decides (a legato note's onset stays under the notes stage's weak-onset floor).
 * An unstruck note continues the note that stops where it starts, within a hand's reach on that
 * note's string.
 */

export interface ChainOptions {
  /** Attack flux (relative to the clip's typical attack) from which a note is struck. */
  strikeRatio: number;
  /** A weaker attack still counts as a strike when the partials' power rises by this much (dB). */
  strikeRatioLow: number;
  strikeRiseDb: number;
  /**
   * Attack flux (relative) from which a note is struck when it cannot be a pull-off (no higher
   * note stops where it starts): a hammer-on or a slide's arrival adds little high-band attack
   * (a fingertip on the fret, or nothing), while a pull-off plucks the string with the fretting
   * finger and can reach `strikeRatio`.
   */
  strikeRatioUp: number;
  /**
   * When fewer than three strikes are clear of a stopping note, the typical attack is this
   * quantile of all strikes' attacks.
   */
  allStrikesQuantile: number;
  /** Typical attack flux when the clip has too few attacks to measure its own. */
  defaultAttack: number;
  /**
   * Onset activation from which a note is struck when there is no audio: the tab stage's
   * LEGATO_ONSET, the same line between a plucked note and a legato continuation.
   */
  onsetStrike: number;
  /** Notes starting within this many seconds of each other form one strike (a strum). */
  strumWindow: number;
  /**
   * Onsets each within this many seconds of the previous belong to one strum: a slow strum's
   * strings follow each other by up to about 25 ms, and the notes stage may place an onset a
   * frame or two (12-23 ms) late. Chosen on the string model and the SoundFont tuned part from
   * 0.04 (a strum split in two left its last strings as pull-offs from the chord before), 0.05
   * and 0.06 (same as 0.05).
   */
  strumGap: number;
  /** The previous note may stop this long before the continuing note starts (seconds). */
  maxGap: number;
  /** ... or ring on this long after it (the model lets a note fade out over a few frames). */
  maxOverlap: number;
  /** Largest pitch change (semitones) one string makes without a strike (a slide's reach). */
  maxInterval: number;
}

export const CHAIN_OPTIONS: ChainOptions = {
  strikeRatio: 0.6,
  strikeRatioLow: 0.4,
  strikeRiseDb: 8,
  strikeRatioUp: 0.4,
  allStrikesQuantile: 0.75,
  defaultAttack: 1.3,
  onsetStrike: LEGATO_ONSET,
  strumWindow: 0.06,
  strumGap: 0.05,
  maxGap: 0.1,
  maxOverlap: 0.2,
  maxInterval: 12,
};

/** One string between two strikes: notes in time order, all playable on `string`. */
export interface Chain {
  string: number;
  notes: TabNote[];
  /** The chain starts with a note of a strum (three or more strings struck in one motion). */
  strummed: boolean;
}

/**
 * Notes (sorted by time) that belong to a strum: onsets each within `strumGap` of the previous
 * form one motion of the picking hand; three or more notes in one motion are a strum.
 */
export function findStrums(
  notes: readonly TabNote[],
  opts: ChainOptions = CHAIN_OPTIONS,
): boolean[] {
  const out = notes.map(() => false);
  let i = 0;
  while (i < notes.length) {
    let j = i + 1;
    while (j < notes.length && (notes[j]?.time ?? 0) - (notes[j - 1]?.time ?? 0) <= opts.strumGap)
      j++;
    if (j - i >= 3) for (let k = i; k < j; k++) out[k] = true;
    i = j;
  }
  return out;
}

function playableOn(setup: GuitarSetup, string: number, pitch: number): boolean {
  const f = pitch - openPitch(setup, string);
  return f >= 0 && f <= setup.frets;
}

/** Notes looked back over for a possible legato predecessor. */
const LOOKBACK = 48;

/**
 * The clip's typical attack: the median, over strikes (notes starting within the strum window
 * grouped), of the strongest attack flux of the strike, counting only strikes that cannot be
 * legato (no note stops near their start); with fewer than three such strikes, the
 * `allStrikesQuantile` of all strikes.
 */
function typicalAttack(
  notes: readonly TabNote[],
  attacks: AttackAnalysis,
  opts: ChainOptions,
): number {
  const values: number[] = [];
  const all: number[] = [];
  let i = 0;
  while (i < notes.length) {
    const first = notes[i];
    if (first === undefined) break;
    let j = i;
    let best = 0;
    let clear = true;
    while (j < notes.length && (notes[j]?.time ?? 0) - first.time <= opts.strumWindow) {
      const n = notes[j];
      if (n !== undefined) {
        best = Math.max(best, attackAt(attacks, n.time));
        // A note that could be legato has an earlier note stopping near its start; with six
        // strings, such a note is among the few dozen notes before it.
        for (let k = Math.max(0, j - LOOKBACK); k < j && clear; k++) {
          const p = notes[k];
          if (
            p !== undefined &&
            p.time < n.time &&
            p.endTime >= n.time - opts.maxGap &&
            p.endTime <= n.time + opts.maxOverlap
          )
            clear = false;
        }
      }
      j++;
    }
    if (clear) values.push(best);
    all.push(best);
    i = j;
  }
  if (values.length >= 3) return median(values, opts.defaultAttack);
  // Played without a break (legato phrases, ringing chords, double stops), hardly a strike is
  // clear of a note stopping near it. Most notes are still picked and the legato ones are the
  // weak few, so the upper quartile of all strikes is a pick's attack.
  if (all.length >= 3) return quantile(all, opts.allStrikesQuantile, opts.defaultAttack);
  return opts.defaultAttack;
}

/** Whether a higher note stops where note `i` (of `notes`, sorted by time) starts. */
function couldPullOff(notes: readonly TabNote[], i: number, opts: ChainOptions): boolean {
  const n = notes[i];
  if (n === undefined) return false;
  for (let k = Math.max(0, i - LOOKBACK); k < i; k++) {
    const p = notes[k];
    if (
      p !== undefined &&
      p.pitch > n.pitch &&
      p.time < n.time - 0.02 &&
      p.endTime >= n.time - opts.maxGap &&
      p.endTime <= n.time + opts.maxOverlap
    )
      return true;
  }
  return false;
}

/** Names of the columns of strikeFeatures, in order (the learned strike model's inputs). */
export const STRIKE_FEATURES = [
  'attack_ratio',
  'energy_rise_db',
  'onset',
  'amplitude',
  'has_previous',
  'interval',
  'gap',
  'previous_seconds',
  'seconds',
  'glides_in',
  'could_pull_off',
  'strummed',
  'contour_start',
] as const;

/**
 * What the strike decision can read about each note (sorted by time), one row per note in
 * STRIKE_FEATURES order, scaled to about -1..1: its attack against the clip's typical one, the
 * rise of the partials' power, the model's onset and note activations, the note before it on its
 * string (interval, gap, length), its own length, whether the clip glides into it or a higher
 * note stops where it starts, whether it is part of a strum, and how far its contour starts from
 * its pitch. Pure.
 */
export function strikeFeatures(
  notes: readonly TabNote[],
  attacks: AttackAnalysis | null,
  strummed: readonly boolean[],
  opts: ChainOptions = CHAIN_OPTIONS,
): number[][] {
  const reference = attacks ? typicalAttack(notes, attacks, opts) : 1;
  const lastOn = new Map<number, TabNote>();
  const clip = (v: number, a: number, b: number) => Math.min(b, Math.max(a, v));
  return notes.map((n, i) => {
    const previous = lastOn.get(n.string);
    lastOn.set(n.string, n);
    const ratio = attacks ? attackAt(attacks, n.time) / reference : n.onset;
    const rise = attacks ? energyRiseAt(attacks, n.time) : 0;
    return [
      clip(ratio, 0, 4) / 2,
      clip(rise, -20, 40) / 20,
      n.onset,
      n.amplitude,
      previous ? 1 : 0,
      previous ? clip(n.pitch - previous.pitch, -12, 12) / 12 : 0,
      previous ? clip(n.time - previous.endTime, -0.5, 1) : 1,
      previous ? clip(previous.endTime - previous.time, 0, 2) / 2 : 0,
      clip(n.endTime - n.time, 0, 2) / 2,
      n.glidesIn === true ? 1 : 0,
      couldPullOff(notes, i, opts) ? 1 : 0,
      strummed[i] === true ? 1 : 0,
      clip(n.bend[0] ?? 0, -2, 2) / 2,
    ];
  });
}

/**
 * Whether each note (sorted by time) was struck. With audio, from the attack at its start; without
 * (empty audio), from the model's onset activation. A note the clip glides into (`glidesIn`: its
 * pitch was heard on the way from the note before) is struck only with a full pick's attack
 * (`strikeRatio`): a slide's arrival on its fret can show half of one. `strummed` is
 * findStrums(notes).
 */
export function findStrikes(
  notes: readonly TabNote[],
  attacks: AttackAnalysis | null,
  strummed: readonly boolean[],
  opts: ChainOptions = CHAIN_OPTIONS,
): boolean[] {
  const reference = attacks ? typicalAttack(notes, attacks, opts) : 1;
  return notes.map((n, i) => {
    if (strummed[i] === true) return true;
    if (attacks === null) return n.onset >= opts.onsetStrike;
    const ratio = attackAt(attacks, n.time) / reference;
    if (ratio >= opts.strikeRatio) return true;
    // The clip glided into it: only a pick's full attack says the string was struck again.
    if (n.glidesIn === true) return false;
    if (ratio >= opts.strikeRatioUp && !couldPullOff(notes, i, opts)) return true;
    return ratio >= opts.strikeRatioLow && energyRiseAt(attacks, n.time) >= opts.strikeRiseDb;
  });
}

/**
 * The string a chain moves to so that it can take on `note` when its own string cannot play it
 * (the tab put a slide's departing note on an open string, say, and its arrival below it): the
 * note's own string if it plays every note of the chain, else the nearest string that does;
 * null when none does.
 */
function holdingString(chain: Chain, note: TabNote, setup: GuitarSetup): number | null {
  const holds = (s: number) =>
    playableOn(setup, s, note.pitch) && chain.notes.every((n) => playableOn(setup, s, n.pitch));
  if (holds(note.string)) return note.string;
  let best: number | null = null;
  for (let s = 1; s <= 6; s++) {
    if (!holds(s)) continue;
    if (best === null || Math.abs(s - note.string) < Math.abs(best - note.string)) best = s;
  }
  return best;
}

/**
 * Groups notes (sorted by time) into chains. Every note is in exactly one chain; a chain starts at
 * a struck note (or an unstruck note nothing continues into) and takes on unstruck notes that
 * start where its last note stops, within `maxInterval` semitones and playable on its string, or
 * on another string that plays the whole chain (the chain then moves there: one string carries a
 * slide or a slur, whatever strings the tab stage gave its notes one by one; a chain begun in a
 * strum stays on its string).
 * A short unstruck note lying inside a continuing note, within two semitones of it, is a flicker
 * of that note (a vibrato or bend excursion the model reported as a note) and is dropped.
 * `strummed` is findStrums(notes).
 */
export function buildChains(
  notes: readonly TabNote[],
  struck: readonly boolean[],
  strummed: readonly boolean[],
  setup: GuitarSetup,
  opts: ChainOptions = CHAIN_OPTIONS,
): Chain[] {
  const chains: Chain[] = [];
  const open = new Set<Chain>();
  notes.forEach((note, i) => {
    for (const chain of open) {
      const last = chain.notes[chain.notes.length - 1];
      if (last === undefined || last.endTime < note.time - opts.maxGap) open.delete(chain);
    }
    if (struck[i] !== true) {
      const inside = [...open].some((c) =>
        c.notes.some(
          (m) =>
            m.time < note.time &&
            m.endTime >= note.endTime - 0.02 &&
            note.endTime - note.time < 0.2 &&
            Math.abs(m.pitch - note.pitch) <= 2 &&
            playableOn(setup, c.string, note.pitch),
        ),
      );
      if (inside) return;
      let best: Chain | undefined;
      let bestScore = Number.POSITIVE_INFINITY;
      let bestString: number = note.string;
      for (const chain of open) {
        const last = chain.notes[chain.notes.length - 1];
        if (last === undefined) continue;
        if (last.time >= note.time - 0.02) continue;
        if (last.endTime < note.time - opts.maxGap || last.endTime > note.time + opts.maxOverlap)
          continue;
        if (Math.abs(last.pitch - note.pitch) > opts.maxInterval) continue;
        // A strummed chain stays on its string: the chord's shape put it there.
        const string = playableOn(setup, chain.string, note.pitch)
          ? chain.string
          : chain.strummed
            ? null
            : holdingString(chain, note, setup);
        if (string === null) continue;
        const moves = string === chain.string ? 0 : 2;
        const score = moves + (string === note.string ? 0 : 1) + Math.abs(last.endTime - note.time);
        if (score < bestScore) {
          bestScore = score;
          best = chain;
          bestString = string;
        }
      }
      if (best !== undefined) {
        best.string = bestString;
        best.notes.push(note);
        return;
      }
    }
    // A new strike on a string ends the chain that was sounding on it.
    for (const chain of open) if (chain.string === note.string) open.delete(chain);
    const chain: Chain = { string: note.string, notes: [note], strummed: strummed[i] === true };
    chains.push(chain);
    open.add(chain);
  });
  return chains;
}
