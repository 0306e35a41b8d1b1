import { z } from 'zod';

/**
 * Beats and bars of a lesson: the grid every bar line, note value and exporter is measured
 * against. The engine estimates it from the audio (its tempo may change from beat to beat: a
 * free-time take has no constant tempo); the editor corrects it. Times in seconds.
 */
export interface BeatGrid {
  /** Beat times in seconds, strictly increasing; at least two. */
  beats: number[];
  /**
   * Indices into `beats` where a bar starts, strictly increasing, at least one. Beats before the
   * first are a pickup (anacrusis); a bar ends where the next one starts, the last bar after as
   * many beats as the bar before it (or at the last beat).
   */
  downbeats: number[];
  /** The note value of one beat, the time signature's denominator: 4 = a quarter note. */
  beat_unit: 2 | 4 | 8 | 16;
}

/** Most beats in one bar (a 12/8 bar has 12). */
export const MAX_BEATS_PER_BAR = 16;
/** Closest two beats may be (300 quarter notes a minute). */
export const MIN_BEAT_SECONDS = 0.2;
/** Farthest two beats may be (20 a minute). */
export const MAX_BEAT_SECONDS = 3;

export const beatGridSchema = z
  .object({
    beats: z.array(z.number().min(0)).min(2).max(20_000),
    downbeats: z.array(z.number().int().min(0)).min(1).max(20_000),
    beat_unit: z.union([z.literal(2), z.literal(4), z.literal(8), z.literal(16)]),
  })
  .superRefine((grid, ctx) => {
    for (let i = 1; i < grid.beats.length; i++) {
      const gap = (grid.beats[i] ?? 0) - (grid.beats[i - 1] ?? 0);
      if (gap < MIN_BEAT_SECONDS - 1e-9 || gap > MAX_BEAT_SECONDS + 1e-9) {
        ctx.addIssue({
          code: 'custom',
          path: ['beats', i],
          message: `Beats must be ${MIN_BEAT_SECONDS} to ${MAX_BEAT_SECONDS} seconds apart, in order.`,
        });
        return;
      }
    }
    for (let i = 0; i < grid.downbeats.length; i++) {
      const d = grid.downbeats[i] ?? 0;
      const prev = i > 0 ? (grid.downbeats[i - 1] ?? 0) : -1;
      if (d >= grid.beats.length || d <= prev || (i > 0 && d - prev > MAX_BEATS_PER_BAR)) {
        ctx.addIssue({
          code: 'custom',
          path: ['downbeats', i],
          message: `Bar lines must fall on beats, in order, at most ${MAX_BEATS_PER_BAR} beats apart.`,
        });
        return;
      }
    }
  });

/** Beats in bar `bar` (the time signature's numerator). */
export function beatsInBar(grid: BeatGrid, bar: number): number {
  const { downbeats } = grid;
  const start = downbeats[bar];
  if (start === undefined) return 0;
  const next = downbeats[bar + 1];
  if (next !== undefined) return next - start;
  const previous = downbeats[bar - 1];
  return previous !== undefined
    ? start - previous
    : Math.min(MAX_BEATS_PER_BAR, Math.max(1, grid.beats.length - start));
}

/**
 * A steady grid: `bpm` beats a minute (in `beatUnit` notes), `perBar` beats a bar, the first
 * downbeat at `offset` seconds, covering `duration` seconds. What a lesson uses when the engine
 * heard no beat, and what the tests build.
 */
export function steadyGrid(
  bpm: number,
  perBar: number,
  duration: number,
  options: { offset?: number; beatUnit?: BeatGrid['beat_unit'] } = {},
): BeatGrid {
  const period = 60 / bpm;
  const offset = options.offset ?? 0;
  const count = Math.max(2, Math.ceil((duration - offset) / period) + 1);
  const beats = Array.from({ length: count }, (_, i) => offset + i * period);
  const downbeats: number[] = [];
  for (let i = 0; i < count; i += perBar) downbeats.push(i);
  return { beats, downbeats, beat_unit: options.beatUnit ?? 4 };
}

/** Tempo and metre of a lesson whose beats are unknown (no pulse heard, or none stored). */
export const DEFAULT_GRID_BPM = 120;
export const DEFAULT_GRID_BEATS_PER_BAR = 4;

/**
 * The grid a lesson without beats of its own is written on, everywhere (engine, exports,
 * notation view): a steady 4/4 at 120 over `duration` seconds (at least one second).
 */
export function defaultGrid(duration: number): BeatGrid {
  return steadyGrid(DEFAULT_GRID_BPM, DEFAULT_GRID_BEATS_PER_BAR, Math.max(duration, 1));
}

/** Quarter notes a minute at time `t` (from the spacing of the beats around it). */
export function tempoAt(grid: BeatGrid, t: number): number {
  const { beats } = grid;
  let i = 0;
  while (i < beats.length - 2 && (beats[i + 1] ?? 0) <= t) i++;
  const gap = (beats[i + 1] ?? 1) - (beats[i] ?? 0);
  return (60 / gap) * (4 / grid.beat_unit);
}
