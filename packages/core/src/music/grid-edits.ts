import {
  MAX_BEAT_SECONDS,
  MAX_BEATS_PER_BAR,
  MIN_BEAT_SECONDS,
  beatGridSchema,
  beatsInBar,
  type BeatGrid,
} from './beats.js';

/**
 * The editor's corrections of a lesson's beats and bars (pure): drag a bar line, tap one in
 * while the video plays, start a bar on another beat, change the time signature, double or
 * halve the beats. Each returns a new grid that passes `beatGridSchema`, or the grid it was
 * given (the same object) when the edit cannot be made, so that an impossible edit records no
 * undo step.
 */

const EPS = 1e-9;

/** Index of the bar that holds time `t` (the first bar for times before it). */
export function barAt(grid: BeatGrid, t: number): number {
  const { beats, downbeats } = grid;
  let bar = 0;
  for (let k = 1; k < downbeats.length; k++) {
    if ((beats[downbeats[k] ?? 0] ?? Infinity) <= t + EPS) bar = k;
    else break;
  }
  return bar;
}

/** Index of the beat nearest to time `t`. */
export function nearestBeat(grid: BeatGrid, t: number): number {
  let best = 0;
  grid.beats.forEach((b, i) => {
    if (Math.abs(b - t) < Math.abs((grid.beats[best] ?? 0) - t)) best = i;
  });
  return best;
}

/** Bar lines as times: where each bar starts, in seconds. */
export function barLineTimes(grid: BeatGrid): number[] {
  return grid.downbeats.map((d) => grid.beats[d] ?? 0);
}

function valid(grid: BeatGrid): boolean {
  return beatGridSchema.safeParse(grid).success;
}

/** `next` when it is a valid grid, else `grid` unchanged. */
function checked(grid: BeatGrid, next: BeatGrid): BeatGrid {
  return valid(next) ? next : grid;
}

/**
 * Moves beat `k` to time `t` and spreads the beats between it and the neighbouring bar lines
 * evenly in proportion (a time warp anchored on those bar lines), as a guitarist expects when
 * dragging a bar line: the bars on either side stretch or shrink, the rest stays. The time is
 * clamped so that no two beats come closer than MIN_BEAT_SECONDS or further than
 * MAX_BEAT_SECONDS apart.
 */
export function moveBeat(grid: BeatGrid, k: number, t: number): BeatGrid {
  const { beats, downbeats } = grid;
  const old = beats[k];
  if (old === undefined || !Number.isFinite(t)) return grid;
  const last = beats.length - 1;
  const left = [...downbeats].reverse().find((d) => d < k) ?? (k > 0 ? 0 : undefined);
  const right = downbeats.find((d) => d > k) ?? (k < last ? last : undefined);

  // The range of t that keeps every warped gap within the limits.
  let lo = 0;
  let hi = Infinity;
  const limit = (gaps: number[], span: number, sign: 1 | -1, anchor: number) => {
    // A gap g of a span s becomes g * s' / s; s' = (t - anchor) * sign.
    const small = Math.min(...gaps);
    const large = Math.max(...gaps);
    const minSpan = (MIN_BEAT_SECONDS * span) / small;
    const maxSpan = (MAX_BEAT_SECONDS * span) / large;
    if (sign === 1) {
      lo = Math.max(lo, anchor + minSpan);
      hi = Math.min(hi, anchor + maxSpan);
    } else {
      hi = Math.min(hi, anchor - minSpan);
      lo = Math.max(lo, anchor - maxSpan);
    }
  };
  const gapsBetween = (a: number, b: number) =>
    Array.from({ length: b - a }, (_, i) => (beats[a + i + 1] ?? 0) - (beats[a + i] ?? 0));
  if (left !== undefined) {
    const anchor = beats[left] ?? 0;
    limit(gapsBetween(left, k), old - anchor, 1, anchor);
  } else if (right === undefined) {
    return grid;
  }
  if (right !== undefined) {
    const anchor = beats[right] ?? 0;
    limit(gapsBetween(k, right), anchor - old, -1, anchor);
  }
  if (lo > hi + EPS) return grid;
  const to = Math.min(hi, Math.max(lo, t));
  if (Math.abs(to - old) < EPS) return grid;

  const next = [...beats];
  if (left !== undefined) {
    const anchor = beats[left] ?? 0;
    const scale = (to - anchor) / (old - anchor);
    for (let i = left + 1; i <= k; i++) next[i] = anchor + ((beats[i] ?? 0) - anchor) * scale;
  } else {
    next[k] = to;
  }
  if (right !== undefined) {
    const anchor = beats[right] ?? 0;
    const scale = (anchor - to) / (anchor - old);
    for (let i = k; i < right; i++) next[i] = anchor - (anchor - (beats[i] ?? 0)) * scale;
  }
  next[k] = to;
  return checked(grid, { ...grid, beats: next });
}

/** Moves bar `bar`'s bar line to time `t` (see moveBeat). */
export function moveBarLine(grid: BeatGrid, bar: number, t: number): BeatGrid {
  const k = grid.downbeats[bar];
  return k === undefined ? grid : moveBeat(grid, k, t);
}

/**
 * Starts a bar on beat `k`: the bar lines before it stay, and from it on a bar line falls every
 * as many beats as the bar that held `k` had (the downbeats were a beat or two off, or the take
 * dropped a beat). The bar before it may become shorter or longer; a bar that would hold more
 * than MAX_BEATS_PER_BAR beats is split.
 */
export function startBarAt(grid: BeatGrid, k: number): BeatGrid {
  if (!Number.isInteger(k) || k < 0 || k >= grid.beats.length) return grid;
  if (grid.downbeats.includes(k)) return grid;
  const perBar = Math.max(1, beatsInBar(grid, barAt(grid, grid.beats[k] ?? 0)));
  const before = grid.downbeats.filter((d) => d < k);
  const downbeats: number[] = [];
  for (const d of before) downbeats.push(d);
  // Split a bar that the new line leaves too long.
  const prev = downbeats.at(-1);
  if (prev !== undefined)
    for (let d = prev + MAX_BEATS_PER_BAR; d < k; d += MAX_BEATS_PER_BAR) downbeats.push(d);
  for (let d = k; d < grid.beats.length; d += perBar) downbeats.push(d);
  return checked(grid, { ...grid, downbeats });
}

/**
 * A bar line tapped at time `t` (a key pressed on the "one" while the video plays): the beat
 * nearest to it starts a bar (startBarAt) and moves to `t` (moveBeat).
 */
export function tapBarLine(grid: BeatGrid, t: number): BeatGrid {
  const k = nearestBeat(grid, t);
  return moveBeat(startBarAt(grid, k), k, t);
}

/**
 * The time signature from bar `bar` on: `perBar` beats a bar (1..MAX_BEATS_PER_BAR) of
 * `beatUnit` notes. The bar lines before it stay; the beat unit is the lesson's (one for all).
 */
export function setTimeSignature(
  grid: BeatGrid,
  bar: number,
  perBar: number,
  beatUnit: BeatGrid['beat_unit'] = grid.beat_unit,
): BeatGrid {
  const start = grid.downbeats[bar];
  if (start === undefined || !Number.isInteger(perBar) || perBar < 1 || perBar > MAX_BEATS_PER_BAR)
    return grid;
  const downbeats = grid.downbeats.slice(0, bar);
  for (let d = start; d < grid.beats.length; d += perBar) downbeats.push(d);
  const next = { ...grid, downbeats, beat_unit: beatUnit };
  const same =
    next.beat_unit === grid.beat_unit &&
    next.downbeats.length === grid.downbeats.length &&
    next.downbeats.every((d, i) => d === grid.downbeats[i]);
  return same ? grid : checked(grid, next);
}

/**
 * A beat between every two (the tracker heard half the tempo); the bar lines stay where they
 * are, so each bar holds twice the beats. Unchanged when beats would come closer than
 * MIN_BEAT_SECONDS or a bar would hold more than MAX_BEATS_PER_BAR.
 */
export function doubleBeats(grid: BeatGrid): BeatGrid {
  const beats: number[] = [];
  grid.beats.forEach((b, i) => {
    beats.push(b);
    const n = grid.beats[i + 1];
    if (n !== undefined) beats.push((b + n) / 2);
  });
  return checked(grid, { ...grid, beats, downbeats: grid.downbeats.map((d) => d * 2) });
}

/**
 * Every other beat (the tracker heard double the tempo), counted from each bar line so the bar
 * lines stay; a bar with an odd number of beats keeps its last one. Unchanged when beats would
 * come further apart than MAX_BEAT_SECONDS.
 */
export function halveBeats(grid: BeatGrid): BeatGrid {
  const keep = new Set<number>();
  const first = grid.downbeats[0] ?? 0;
  // Pickup beats: every other one counting back from the first bar line.
  for (let i = first; i >= 0; i -= 2) keep.add(i);
  grid.downbeats.forEach((d, bar) => {
    const end = grid.downbeats[bar + 1] ?? grid.beats.length;
    for (let i = d; i < end; i += 2) keep.add(i);
  });
  const kept = [...keep].sort((a, b) => a - b);
  const position = new Map(kept.map((i, j) => [i, j]));
  const beats = kept.map((i) => grid.beats[i] ?? 0);
  const downbeats = grid.downbeats.map((d) => position.get(d) ?? 0);
  if (beats.length < 2) return grid;
  return checked(grid, { ...grid, beats, downbeats });
}

/** Beats a minute of bar `bar` (its beats' mean spacing), for the editor's read-out. */
export function barTempo(grid: BeatGrid, bar: number): number {
  const start = grid.downbeats[bar];
  if (start === undefined) return 0;
  const n = Math.max(1, beatsInBar(grid, bar));
  const end = Math.min(grid.beats.length - 1, start + n);
  if (end <= start) return 0;
  const span = (grid.beats[end] ?? 0) - (grid.beats[start] ?? 0);
  return span > 0 ? (60 * (end - start)) / span : 0;
}

/** Whether two grids are the same beats and bars. */
export function sameGrid(a: BeatGrid | null | undefined, b: BeatGrid | null | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return (
    a.beat_unit === b.beat_unit &&
    a.beats.length === b.beats.length &&
    a.downbeats.length === b.downbeats.length &&
    a.beats.every((t, i) => Math.abs(t - (b.beats[i] ?? NaN)) < 1e-6) &&
    a.downbeats.every((d, i) => d === b.downbeats[i])
  );
}
