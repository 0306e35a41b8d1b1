import type { Page } from 'playwright-core';

/** Median and 95th percentile of a list of numbers (nearest rank). */
export function summary(values: readonly number[]): { median: number; p95: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
  return { median: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? NaN };
}

/**
 * Switches on the player's per-frame log and its log of timeline draws (see
 * playback/playbackBus.ts) before the page loads.
 */
export async function enableFrameLog(page: Page): Promise<void> {
  await page.addInitScript(() => {
    (window as unknown as { __RIFFSCRIBE_PERF__: unknown }).__RIFFSCRIBE_PERF__ = {
      frames: [],
      work: [],
      draws: [],
    };
  });
}

/**
 * Percentage of frame-to-frame times over `ms`. Over 16.7 ms (one 60 Hz frame) counts timer
 * jitter too (intervals of 16.7-16.8 ms are on time); over 25 ms (1.5 frames) is a missed frame.
 */
export function shareOver(frames: readonly number[], ms: number): number {
  return frames.length === 0 ? NaN : (frames.filter((f) => f > ms).length / frames.length) * 100;
}

/**
 * Plays for `seconds` and returns the frame-to-frame times and the player's own work per frame,
 * in milliseconds, as the animation loop logged them.
 */
export async function measurePlayback(page: Page, seconds: number) {
  await page.evaluate(() => {
    const log = (
      window as unknown as {
        __RIFFSCRIBE_PERF__: { frames: number[]; work: number[]; draws?: unknown[] };
      }
    ).__RIFFSCRIBE_PERF__;
    log.frames.length = 0;
    log.work.length = 0;
    if (log.draws) log.draws.length = 0;
    void document.querySelector<HTMLVideoElement>('.lp video')?.play();
  });
  await page.waitForTimeout(seconds * 1000);
  return page.evaluate(() => {
    document.querySelector<HTMLVideoElement>('.lp video')?.pause();
    const log = (window as unknown as { __RIFFSCRIBE_PERF__: { frames: number[]; work: number[] } })
      .__RIFFSCRIBE_PERF__;
    const frames = log.frames.slice(1).map((t, i) => t - (log.frames[i] ?? t));
    return { frames, work: log.work.slice(1) };
  });
}

/**
 * The player benchmarks (player-bench, player-edit-bench) and the review-keystrokes report at full
 * length: `npm run bench:player` sets RIFFSCRIBE_PLAYER_BENCH=1. In the test suite they run short:
 * the same steps and checks (frames drawn, every edit drawn and saved), fewer repetitions; their
 * figures come from the bench.
 */
export const FULL_BENCH = process.env.RIFFSCRIBE_PLAYER_BENCH === '1';
