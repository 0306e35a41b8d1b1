import type { NoteEvent } from '../events.js';
import { beatsInBar, type BeatGrid } from './beats.js';

/**
 * A lesson's notes as bars of written note values: the one rhythmic model that the notation
 * view and every exporter read (pure). The notes keep their times; `scoreOf` places each onset on
 * the beat grid (sixteenths, or eighth-note triplets in a beat whose onsets fit triplets better)
 * and writes the time to the next onset as note values, tied across beats and bar lines where one
 * value cannot say it. One voice, as a tab is read: a note still ringing when the next starts is
 * written up to that onset; a silence before the next onset is a rest.
 */

/** MIDI's usual resolution: a quarter note is 960 ticks. */
export const TICKS_PER_QUARTER = 960;

/** A written note value: 1 = whole, 4 = quarter, 16 = sixteenth. */
export type NoteValue = 1 | 2 | 4 | 8 | 16 | 32 | 64;

/** One rhythmic position of a bar: a chord, a single note or a rest. */
export interface ScoreSlot {
  /** Ticks from the bar's start. */
  tick: number;
  /** Written length in ticks (value, dots and tuplet give exactly this). */
  ticks: number;
  value: NoteValue;
  dots: 0 | 1 | 2;
  /** 3 for a triplet (three in the time of two), else 1. */
  tuplet: 1 | 3;
  /** Indices into the notes given to `scoreOf`, lowest string number first; empty for a rest. */
  notes: number[];
  /** The same notes as the slot before, held on (written with a tie), not played again. */
  tied: boolean;
}

export interface ScoreBar {
  /** Start and end in seconds (the first bar may start before 0 when the music has a pickup). */
  start: number;
  end: number;
  /** Time signature. */
  numerator: number;
  denominator: BeatGrid['beat_unit'];
  /** Quarter notes a minute over this bar (from its length). */
  tempo: number;
  slots: ScoreSlot[];
}

export interface Score {
  ticksPerQuarter: number;
  bars: ScoreBar[];
}

const FINEST: NoteValue = 64;
/** Written values a binary length is made of, longest first: plain, dotted, double-dotted. */
const BINARY_VALUES: { ticks: number; value: NoteValue; dots: 0 | 1 | 2 }[] = (
  [1, 2, 4, 8, 16, 32, 64] as NoteValue[]
)
  .flatMap((value) => {
    const base = (4 * TICKS_PER_QUARTER) / value;
    const out: { ticks: number; value: NoteValue; dots: 0 | 1 | 2 }[] = [
      { ticks: base, value, dots: 0 },
    ];
    if (value < FINEST) out.push({ ticks: base * 1.5, value, dots: 1 });
    if (value < FINEST / 2) out.push({ ticks: base * 1.75, value, dots: 2 });
    return out;
  })
  .sort((a, b) => b.ticks - a.ticks);

interface Grid {
  /** Beat times, extended to cover every note, whole bars. */
  beats: number[];
  /** Bar starts as indices into `beats`; the last entry closes the last bar. */
  bars: number[];
  beatTicks: number;
  beatUnit: BeatGrid['beat_unit'];
}

/** The grid extended before its first and after its last beat to whole bars around the notes. */
function extend(grid: BeatGrid, from: number, to: number): Grid {
  const beats = [...grid.beats];
  const firstGap = (beats[1] ?? 1) - (beats[0] ?? 0);
  const lastGap = (beats.at(-1) ?? 1) - (beats.at(-2) ?? 0);
  const firstBar = Math.max(1, beatsInBar(grid, 0));
  const lastBar = Math.max(1, beatsInBar(grid, grid.downbeats.length - 1));
  // Before: move the first bar line back by whole bars of the first bar's length until it is at
  // or before the first beat (a pickup becomes a bar with rests) and before every note.
  const first = grid.downbeats[0] ?? 0;
  const timeOf = (i: number) => (i >= 0 ? (beats[i] ?? 0) : (beats[0] ?? 0) + i * firstGap);
  let line = first;
  while (line > 0 || timeOf(line) > from) line -= firstBar;
  const prepend = Math.max(0, -line);
  const virtual = Array.from({ length: prepend }, (_, k) => timeOf(-prepend + k));
  beats.unshift(...virtual);
  const bars: number[] = [];
  for (let b = line; b < first; b += firstBar) bars.push(b + prepend);
  bars.push(...grid.downbeats.map((d) => d + prepend));
  // After: whole bars of the last bar's length until the notes end; the last entry closes.
  let lastStart = bars.at(-1) ?? 0;
  for (;;) {
    const close = lastStart + lastBar;
    while (beats.length <= close) beats.push((beats.at(-1) ?? 0) + lastGap);
    bars.push(close);
    if ((beats[close] ?? 0) >= to) break;
    lastStart = close;
  }
  const beatTicks = (4 * TICKS_PER_QUARTER) / grid.beat_unit;
  return { beats, bars, beatTicks, beatUnit: grid.beat_unit };
}

/** Position of time `t` in beats (fractional) on the extended grid. */
function beatPosition(g: Grid, t: number): number {
  const { beats } = g;
  let lo = 0;
  let hi = beats.length - 1;
  if (t <= (beats[0] ?? 0)) return 0;
  if (t >= (beats[hi] ?? 0)) return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if ((beats[mid] ?? 0) <= t) lo = mid;
    else hi = mid;
  }
  const a = beats[lo] ?? 0;
  const b = beats[lo + 1] ?? a + 1;
  return lo + (t - a) / (b - a);
}

/** Ticks of a written value: the triplet lengths first, then the binary ones. */
function written(ticks: number, triplet: boolean): Omit<ScoreSlot, 'tick' | 'notes' | 'tied'> {
  if (triplet) {
    for (const value of [2, 4, 8, 16, 32] as NoteValue[]) {
      if (Math.abs(((4 * TICKS_PER_QUARTER) / value) * (2 / 3) - ticks) < 1e-6)
        return { ticks, value, dots: 0, tuplet: 3 };
    }
  }
  const match = BINARY_VALUES.find((v) => v.ticks === ticks);
  if (match) return { ticks, value: match.value, dots: match.dots, tuplet: 1 };
  throw new Error(`no written value of ${ticks} ticks`);
}

/** Splits a binary length into written values, longest first (greedy: exact on the grid). */
function binaryPieces(ticks: number): number[] {
  const out: number[] = [];
  let left = ticks;
  while (left > 0) {
    const v = BINARY_VALUES.find((b) => b.ticks <= left);
    if (!v) break;
    out.push(v.ticks);
    left -= v.ticks;
  }
  return out;
}

/**
 * The notes in bars of written values against `grid` (see the module comment). Notes before the
 * first beat or after the last are placed on the grid extended at its edge tempo.
 */
export function scoreOf(notes: readonly NoteEvent[], grid: BeatGrid): Score {
  const from = Math.min(...notes.map((n) => n.time), grid.beats[0] ?? 0);
  const to = Math.max(...notes.map((n) => n.end_time), grid.beats.at(-1) ?? 0);
  const g = extend(grid, from, to);
  const sixteenth = g.beatTicks / 4;
  const tripletStep = g.beatTicks / 3;
  const allowTriplets = g.beatUnit !== 16;

  // Per beat: eighth-note triplets when its onsets fit them clearly better than sixteenths.
  const positions = notes.map((n) => beatPosition(g, n.time));
  const fit = new Map<number, { binary: number; triplet: number; offTriplet: boolean }>();
  for (const x of positions) {
    const beat = Math.floor(x + 1 / 8);
    const f = fit.get(beat) ?? { binary: 0, triplet: 0, offTriplet: false };
    f.binary += Math.abs(x - Math.round(x * 4) / 4);
    f.triplet += Math.abs(x - Math.round(x * 3) / 3);
    const frac = Math.round(x * 3) - 3 * Math.round(x);
    if (frac !== 0 && Math.abs(x - Math.round(x * 3) / 3) < 0.06) f.offTriplet = true;
    fit.set(beat, f);
  }
  const triplet = (beat: number) => {
    const f = fit.get(beat);
    return allowTriplets && f !== undefined && f.offTriplet && f.triplet < 0.5 * f.binary;
  };
  const quantize = (x: number): number => {
    const beat = Math.floor(x + 1 / 8);
    if (triplet(beat)) return Math.round((x * g.beatTicks) / tripletStep) * tripletStep;
    return Math.round((x * g.beatTicks) / sixteenth) * sixteenth;
  };

  // Onsets to slots: notes sharing a quantized tick sound together.
  // A string sounds one note at a time: a second note on a string already in the slot (two
  // quick notes snapped together) moves to the next grid step.
  const lastTick = (g.bars.at(-1) ?? 0) * g.beatTicks;
  const starts = new Map<number, number[]>();
  // Which strings each tick holds (a bit per string), and each string's latest tick: a string's
  // ticks only grow (notes are placed in time order), so a note pushed along a crowded string
  // jumps past the run of ticks that string holds instead of stepping through it (linear in
  // notes, however many are crowded together).
  const held = new Map<number, number>();
  const latest = new Map<number, number>();
  const stepAt = (tick: number) =>
    triplet(Math.floor(tick / g.beatTicks)) ? tripletStep : sixteenth;
  const order = notes.map((_, i) => i).sort((a, b) => (positions[a] ?? 0) - (positions[b] ?? 0));
  for (const i of order) {
    let tick = quantize(positions[i] ?? 0);
    const string = notes[i]?.string ?? 0;
    const bit = 2 ** Math.max(0, Math.min(30, string));
    for (;;) {
      const taken = ((held.get(tick) ?? 0) & bit) !== 0;
      // At the very end there is no later step: the note stays, sharing the string.
      if (!taken || tick + stepAt(tick) >= lastTick) break;
      const last = latest.get(string);
      tick = last !== undefined && last > tick ? last : tick + stepAt(tick);
    }
    held.set(tick, (held.get(tick) ?? 0) | bit);
    latest.set(string, Math.max(latest.get(string) ?? tick, tick));
    const slot = starts.get(tick);
    if (slot) slot.push(i);
    else starts.set(tick, [i]);
  }
  const ticks = [...starts.keys()].sort((a, b) => a - b);
  const barTick = (b: number) => (g.bars[b] ?? 0) * g.beatTicks;
  const endTick = barTick(g.bars.length - 1);

  // Events on the absolute tick line: [from, to) with notes (empty = rest).
  const events: { from: number; to: number; notes: number[] }[] = [];
  let cursor = barTick(0);
  ticks.forEach((tick, k) => {
    if (tick > cursor) events.push({ from: cursor, to: tick, notes: [] });
    const group = (starts.get(tick) ?? []).sort(
      (a, b) => (notes[a]?.string ?? 0) - (notes[b]?.string ?? 0),
    );
    const next = ticks[k + 1] ?? endTick;
    const longest = Math.max(
      ...group.map((i) => quantize(beatPosition(g, notes[i]?.end_time ?? 0))),
    );
    const minimum = triplet(Math.floor(tick / g.beatTicks)) ? tripletStep : sixteenth;
    const stop = Math.min(next, Math.max(tick + minimum, longest));
    events.push({ from: tick, to: Math.min(stop, endTick), notes: group });
    cursor = Math.min(stop, endTick);
  });
  if (cursor < endTick) events.push({ from: cursor, to: endTick, notes: [] });

  // Cut at bar lines, and at beat lines where a triplet beat begins or ends; write the values.
  const cuts = new Set<number>();
  for (let b = 0; b < g.bars.length; b++) cuts.add(barTick(b));
  for (let beat = 0; beat < g.beats.length; beat++) {
    if (triplet(beat) || triplet(beat - 1)) cuts.add(beat * g.beatTicks);
  }
  const cutList = [...cuts].sort((a, b) => a - b);
  const bars: ScoreBar[] = [];
  for (let b = 0; b + 1 < g.bars.length; b++) {
    const startBeat = g.bars[b] ?? 0;
    const endBeat = g.bars[b + 1] ?? startBeat;
    const start = g.beats[startBeat] ?? 0;
    const end = g.beats[endBeat] ?? start;
    const beatsHere = endBeat - startBeat;
    bars.push({
      start,
      end,
      numerator: beatsHere,
      denominator: g.beatUnit,
      tempo: end > start ? ((beatsHere * 60) / (end - start)) * (4 / g.beatUnit) : 120,
      slots: [],
    });
  }
  /**
   * How far one written value from `at` may reach so that the beats stay readable, as engravers
   * write: a note or rest off the beat ends at the next beat (the next dotted-quarter group in
   * 6/8, 9/8, 12/8); from beat 2 or 4 of a 4/4 bar, at the next beat (the middle of the bar stays
   * visible); from beat 1 or 3, anywhere up to the bar line. What is longer is tied (a rest is
   * simply written again).
   */
  const readableEnd = (at: number, barStart: number, barEnd: number): number => {
    const beats = (barEnd - barStart) / g.beatTicks;
    const group = g.beatUnit === 8 && beats > 3 && beats % 3 === 0 ? 3 * g.beatTicks : g.beatTicks;
    const p = at - barStart;
    if (p % group !== 0) return barStart + (Math.floor(p / group) + 1) * group;
    if (group === g.beatTicks && beats === 4 && (p / group) % 2 === 1) return at + group;
    return barEnd;
  };
  for (const event of events) {
    let at = event.from;
    let first = true;
    while (at < event.to) {
      const cut = cutList.find((c) => c > at) ?? event.to;
      const bar = Math.max(0, cutBar(g, at, barTick));
      const pieceEnd = Math.min(cut, event.to, readableEnd(at, barTick(bar), barTick(bar + 1)));
      const inTriplet = triplet(Math.floor(at / g.beatTicks));
      const lengths = inTriplet ? [pieceEnd - at] : binaryPieces(pieceEnd - at);
      for (const length of lengths) {
        const target = bars[bar];
        if (target) {
          target.slots.push({
            tick: at - barTick(bar),
            ...written(length, inTriplet),
            notes: event.notes,
            tied: !first && event.notes.length > 0,
          });
        }
        first = false;
        at += length;
      }
    }
  }
  return { ticksPerQuarter: TICKS_PER_QUARTER, bars };
}

/** The bar holding absolute tick `tick`. */
function cutBar(g: Grid, tick: number, barTick: (b: number) => number): number {
  let bar = 0;
  while (bar + 2 < g.bars.length && barTick(bar + 1) <= tick) bar++;
  return bar;
}
