import type { Score } from './score.js';

/**
 * Between the video's clock and the score's ticks (pure). Each bar of the Score knows when it
 * starts and ends in the video; inside a bar the ticks run evenly (the bar's own tempo), so a
 * free-time take keeps a cursor on the music, not on a metronome. `starts` is
 * `barStartTicks(score)` (export-meta.ts): the tick of each bar's start, and the total last.
 */

/** The tick at video time `time` (clamped to the score). */
export function tickAt(score: Score, starts: readonly number[], time: number): number {
  const { bars } = score;
  if (bars.length === 0) return 0;
  let lo = 0;
  let hi = bars.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((bars[mid]?.start ?? 0) <= time) lo = mid;
    else hi = mid - 1;
  }
  const bar = bars[lo];
  const from = starts[lo] ?? 0;
  const to = starts[lo + 1] ?? from;
  if (!bar || bar.end <= bar.start) return from;
  const f = Math.min(1, Math.max(0, (time - bar.start) / (bar.end - bar.start)));
  return Math.round(from + f * (to - from));
}

/** The video time at score tick `tick` (clamped to the score). */
export function timeAt(score: Score, starts: readonly number[], tick: number): number {
  const { bars } = score;
  if (bars.length === 0) return 0;
  let b = 0;
  while (b < bars.length - 1 && (starts[b + 1] ?? 0) <= tick) b++;
  const bar = bars[b];
  if (!bar) return 0;
  const from = starts[b] ?? 0;
  const to = starts[b + 1] ?? from;
  const f = to > from ? Math.min(1, Math.max(0, (tick - from) / (to - from))) : 0;
  return bar.start + f * (bar.end - bar.start);
}
