import type { GuitarSetup } from '../types.js';

/**
 * Fingerings of one group of simultaneous notes, and the costs that depend on the group alone.
 *
 * Costs are in "frets of hand shift" so that every term compares with moving the hand one fret
 * (see TAB_WEIGHTS). The weights were chosen on general playing grounds and checked on chord
 * shapes, scales and riffs built for the unit tests, never fitted to a recording.
 */
export const TAB_WEIGHTS = {
  /** Per fret of hand-position shift between consecutive groups. */
  shift: 1.0,
  /** Extra cost when the hand moves at all: a shift is one decision, however small. */
  shiftStart: 1.0,
  /**
   * Per fret of hand position above the first, paid when the hand arrives there (at the start or
   * by a shift), not per note: low positions are a little easier, but once the hand has settled
   * in a position, playing on there costs nothing more.
   */
  height: 0.05,
  /**
   * Per fret above COMFORTABLE_FRETS of each fretted note, every time: up to the body joint the
   * neck plays alike; above it the frets are cramped and the body is in the way.
   */
  highFret: 0.1,
  /** Per fretted note: an open string needs no finger. */
  fretted: 0.12,
  /** Per fret a fretted note lies outside the four-fret box of the hand (a stretch). */
  stretch: 1.2,
  /**
   * Per string the bass note of a chord (three or more notes) sits above the A string:
   * guitarists voice a chord with its lowest note on a bass string when the shape allows it.
   */
  bassString: 0.2,
  /**
   * Per unplayed string between the lowest and highest string of a chord (three or more notes):
   * a strum has to mute it. Small, because a fingerpicked pattern skips strings freely.
   */
  innerGap: 0.3,
  /** Per pair of notes whose strings run against their pitches (a lower note on a higher string). */
  crossing: 1.0,
  /** Per string of movement between consecutive single notes. */
  stringChange: 0.2,
  /** An open string while the hand is up the neck, per fret of hand position above the first. */
  openAwayFromNut: 0.08,
  /**
   * A note still sounding that the next group cuts off: its string is struck with another
   * note, or the hand leaves the fret that holds it.
   */
  cutRinging: 1.5,
  /** A note repeated while it still sounds, but moved to another string. */
  repeatMoved: 1.0,
  /**
   * A note without a pluck of its own (a hammer-on, pull-off or slide arrival) placed where no
   * note on its string has just stopped: legato exists only on one string.
   */
  legatoElsewhere: 4.0,
} as const;

/** The four-fret box of the hand: index finger at fret p covers p..p+3. */
export const HAND_BOX = 4;
/** A fretted note may lie this many frets outside the box (one fret each way) at a cost. */
export const MAX_STRETCH = 1;
/** Frets up to here play alike (the neck joins the body at the 12th to 14th fret). */
export const COMFORTABLE_FRETS = 12;
/** Fretting fingers of the left hand. */
const FINGERS = 4;

/** A way to play one group: string and fret of each of its notes, in the group's order. */
export interface Fingering {
  strings: number[];
  frets: number[];
  /** Lowest and highest fretted fret, or null when every note is an open string. */
  low: number | null;
  high: number | null;
  /** Cost of the shape itself, whatever the hand position. */
  own: number;
}

/**
 * Open pitch of string s (1 = high e) with the capo: tuning[6 - s] + capo. Takes any object with
 * the setup's tuning and capo (a GuitarSetup, an UploadConfig, the corpus's Performance).
 */
export function openPitch(
  setup: { readonly tuning: readonly number[]; readonly capo: number },
  s: number,
): number {
  return (setup.tuning[6 - s] ?? 0) + setup.capo;
}

/**
 * Where a MIDI pitch can be played: [string, fret] pairs with frets 0..setup.frets written
 * relative to the capo, high string first.
 */
export function positionsOf(pitch: number, setup: GuitarSetup): [number, number][] {
  const out: [number, number][] = [];
  for (let s = 1; s <= 6; s += 1) {
    const f = pitch - openPitch(setup, s);
    if (Number.isInteger(f) && f >= 0 && f <= setup.frets) out.push([s, f]);
  }
  return out;
}

/**
 * Fingers a shape needs: the index finger bars every note on the lowest fret; above it, notes
 * on one fret on neighbouring strings share a finger (a partial barre), others take one each.
 */
export function fingersNeeded(strings: readonly number[], frets: readonly number[]): number {
  const fretted = strings
    .map((s, i) => ({ s, f: frets[i] ?? 0 }))
    .filter((n) => n.f > 0)
    .sort((a, b) => a.f - b.f || a.s - b.s);
  if (fretted.length === 0) return 0;
  const low = fretted[0]?.f ?? 0;
  let fingers = 1;
  let previous: { s: number; f: number } | null = null;
  for (const n of fretted) {
    if (n.f === low) continue;
    if (!(previous?.f === n.f && n.s - previous.s === 1)) fingers += 1;
    previous = n;
  }
  return fingers;
}

/** Cost of a shape apart from the hand: voicing order, bass string, too many fingers. */
export function shapeCost(
  strings: readonly number[],
  frets: readonly number[],
  pitches: readonly number[],
): number | null {
  const fretted = frets.filter((f) => f > 0);
  if (fretted.length > 0) {
    const span = Math.max(...fretted) - Math.min(...fretted);
    if (span > HAND_BOX - 1 + MAX_STRETCH) return null;
    if (fingersNeeded(strings, frets) > FINGERS) return null;
  }
  let cost = 0;
  for (let i = 0; i < pitches.length; i += 1) {
    for (let j = 0; j < pitches.length; j += 1) {
      // String numbers grow toward the bass: a lower pitch belongs on a higher-numbered string.
      if ((pitches[i] ?? 0) < (pitches[j] ?? 0) && (strings[i] ?? 0) < (strings[j] ?? 0)) {
        cost += TAB_WEIGHTS.crossing;
      }
    }
  }
  cost += TAB_WEIGHTS.fretted * fretted.length;
  if (pitches.length >= 3) {
    const lowest = pitches.indexOf(Math.min(...pitches));
    cost += TAB_WEIGHTS.bassString * Math.max(0, 5 - (strings[lowest] ?? 6));
    const span = Math.max(...strings) - Math.min(...strings) + 1;
    cost += TAB_WEIGHTS.innerGap * (span - strings.length);
  }
  return cost;
}

/**
 * Every playable fingering of a group of pitches (one note per string, a shape one hand can
 * hold), cheapest shape first, at most `limit` of them.
 */
export function fingeringsOf(
  pitches: readonly number[],
  setup: GuitarSetup,
  limit: number,
): Fingering[] {
  const options = pitches.map((p) => positionsOf(p, setup));
  const out: Fingering[] = [];
  const strings: number[] = [];
  const frets: number[] = [];
  const used = new Set<number>();
  const maxSpan = HAND_BOX - 1 + MAX_STRETCH;
  const walk = (i: number, low: number, high: number) => {
    if (i === pitches.length) {
      const own = shapeCost(strings, frets, pitches);
      if (own === null) return;
      const fretted = low <= high;
      out.push({
        strings: [...strings],
        frets: [...frets],
        low: fretted ? low : null,
        high: fretted ? high : null,
        own,
      });
      return;
    }
    for (const [s, f] of options[i] ?? []) {
      if (used.has(s)) continue;
      const nextLow = f > 0 ? Math.min(low, f) : low;
      const nextHigh = f > 0 ? Math.max(high, f) : high;
      // Prune as soon as the fretted notes no longer fit one hand.
      if (nextLow <= nextHigh && nextHigh - nextLow > maxSpan) continue;
      used.add(s);
      strings.push(s);
      frets.push(f);
      walk(i + 1, nextLow, nextHigh);
      used.delete(s);
      strings.pop();
      frets.pop();
    }
  };
  walk(0, Infinity, -Infinity);
  return out.sort((a, b) => a.own - b.own).slice(0, limit);
}

/**
 * Hand positions (index-finger fret, 1..) from which a fingering can be played, with the cost
 * of playing it there: stretches outside the four-fret box, height, open strings up the neck.
 * An all-open fingering fits every position (none listed here; the caller decides).
 */
export function handPositions(
  fingering: Fingering,
  setup: GuitarSetup,
): { position: number; cost: number }[] {
  const { low, high } = fingering;
  if (low === null || high === null) return [];
  const out: { position: number; cost: number }[] = [];
  const first = Math.max(1, high - (HAND_BOX - 1) - MAX_STRETCH);
  const last = Math.min(Math.max(1, setup.frets), low + MAX_STRETCH);
  for (let p = first; p <= last; p += 1) {
    if (low < p - MAX_STRETCH || high > p + HAND_BOX - 1 + MAX_STRETCH) continue;
    out.push({ position: p, cost: positionCost(fingering, p) });
  }
  return out;
}

/**
 * Cost of holding a fingering with the index finger at fret `position`: stretches, frets above
 * the body joint and open strings up the neck (the height of the position itself is paid on
 * arrival, see TAB_WEIGHTS.height).
 */
export function positionCost(fingering: Fingering, position: number): number {
  let cost = 0;
  for (const f of fingering.frets) {
    if (f === 0) {
      cost += TAB_WEIGHTS.openAwayFromNut * Math.min(position - 1, 11);
      continue;
    }
    const outside = f < position ? position - f : Math.max(0, f - (position + HAND_BOX - 1));
    cost += TAB_WEIGHTS.stretch * outside;
    cost += TAB_WEIGHTS.highFret * Math.max(0, f - COMFORTABLE_FRETS);
  }
  return cost;
}
