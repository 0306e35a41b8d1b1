import type { BeatGrid } from '@riffscribe/core';

/**
 * The metronome and the count-in from the lesson's beat grid (issue 40), pure. Times are lesson
 * seconds (the video's clock); the scheduler turns them into the audio clock's time by the speed.
 */

/** One click: when (lesson seconds) and whether it is a bar's first beat (accented). */
export interface Click {
  time: number;
  accent: boolean;
}

/** Whether beat `i` starts a bar (downbeats are sorted indices into the beats). */
function isDownbeat(grid: BeatGrid, i: number): boolean {
  let lo = 0;
  let hi = grid.downbeats.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const d = grid.downbeats[mid] ?? -1;
    if (d === i) return true;
    if (d < i) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** The index of the first beat at or after `time` (beats.length when none). */
function firstBeatFrom(beats: readonly number[], time: number): number {
  let lo = 0;
  let hi = beats.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((beats[mid] ?? Infinity) < time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The grid's clicks in [from, to): one on every beat, the bar's first accented. */
export function clicksBetween(grid: BeatGrid, from: number, to: number): Click[] {
  const out: Click[] = [];
  for (let i = firstBeatFrom(grid.beats, from); i < grid.beats.length; i += 1) {
    const time = grid.beats[i] ?? Infinity;
    if (time >= to) break;
    out.push({ time, accent: isDownbeat(grid, i) });
  }
  return out;
}

/**
 * One bar of count-in before `at` (a loop's start, or where play starts): as many clicks as the
 * bar at `at` has beats, at the beat period there, the last one a beat before `at`, the first
 * accented. Lesson seconds, so they fall before `at` (the video waits at `at` meanwhile).
 */
export function countIn(grid: BeatGrid, at: number): Click[] {
  const { beats, downbeats } = grid;
  const i = Math.min(Math.max(0, firstBeatFrom(beats, at) - 1), beats.length - 2);
  // The bar around `at` (a pickup counts as the first bar): its length in beats, or the bar
  // before's when it is the last.
  const k = Math.max(0, downbeats.filter((d) => d <= i).length - 1);
  const bar = downbeats[k] ?? 0;
  const next = downbeats[k + 1];
  const previous = downbeats[k - 1];
  const count = next !== undefined ? next - bar : previous !== undefined ? bar - previous : 4;
  const period = (beats[i + 1] ?? 0) - (beats[i] ?? 0);
  const length = Math.max(1, Math.min(16, count));
  return Array.from({ length }, (_, beat) => ({
    time: at - (length - beat) * period,
    accent: beat === 0,
  }));
}
