import type { BeatGrid } from '@riffscribe/core';

/**
 * Beat and tempo scores (mir_eval.beat.f_measure's rule): an estimated beat matches a reference
 * beat within ±window seconds, one to one; F1 from the matched count. The evaluation reports
 * them per corpus; the tests assert with them.
 */

/** Tolerance of a beat match, seconds (mir_eval's default f_measure_threshold). */
export const BEAT_WINDOW = 0.07;

export interface BeatCounts {
  /** Reference beats. */
  reference: number;
  /** Estimated beats. */
  estimate: number;
  matched: number;
}

/**
 * One-to-one matches within ±window between two sorted time lists. Greedy in time order is a
 * maximum matching here: on a line, matching the earliest pair that fits never blocks a better
 * one.
 */
export function beatCounts(
  reference: readonly number[],
  estimate: readonly number[],
  window = BEAT_WINDOW,
): BeatCounts {
  const ref = [...reference].sort((a, b) => a - b);
  const est = [...estimate].sort((a, b) => a - b);
  let i = 0;
  let j = 0;
  let matched = 0;
  while (i < ref.length && j < est.length) {
    const r = ref[i] ?? 0;
    const e = est[j] ?? 0;
    if (Math.abs(r - e) <= window + 1e-9) {
      matched++;
      i++;
      j++;
    } else if (e < r) j++;
    else i++;
  }
  return { reference: ref.length, estimate: est.length, matched };
}

/** Precision, recall and F1 of summed counts (0 when either side is empty, as mir_eval). */
export function beatScores(c: BeatCounts): { precision: number; recall: number; f1: number } {
  const precision = c.estimate > 0 ? c.matched / c.estimate : 0;
  const recall = c.reference > 0 ? c.matched / c.reference : 0;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, f1 };
}

/** Beat F-measure of an estimate against a reference (mir_eval.beat.f_measure). */
export function beatF1(reference: readonly number[], estimate: readonly number[]): number {
  return beatScores(beatCounts(reference, estimate)).f1;
}

/** Downbeat times of a grid, seconds. */
export function downbeatTimes(grid: BeatGrid): number[] {
  return grid.downbeats.map((i) => grid.beats[i] ?? 0);
}

/** Median tempo of beat times in beats a minute (from the median gap); 0 with under two beats. */
export function medianTempo(beats: readonly number[]): number {
  const gaps = beats.slice(1).map((t, i) => t - (beats[i] ?? 0));
  if (gaps.length === 0) return 0;
  gaps.sort((a, b) => a - b);
  const mid = gaps.length / 2;
  const gap =
    gaps.length % 2 === 1
      ? (gaps[Math.floor(mid)] ?? 0)
      : ((gaps[mid - 1] ?? 0) + (gaps[mid] ?? 0)) / 2;
  return gap > 0 ? 60 / gap : 0;
}

/** Tolerance of a tempo match: 4 % (MIREX tempo estimation). */
export const TEMPO_TOLERANCE = 0.04;

/**
 * Whether an estimated tempo is right: within 4 % (acc1), or also at ×2, ×1/2, ×3, ×1/3 of the
 * reference (acc2), as in Gouyon et al. 2006 and the MIREX tempo task.
 */
export function tempoAgrees(reference: number, estimate: number): { acc1: boolean; acc2: boolean } {
  const near = (r: number) => r > 0 && Math.abs(estimate - r) <= TEMPO_TOLERANCE * r;
  return {
    acc1: near(reference),
    acc2: [1, 2, 0.5, 3, 1 / 3].some((k) => near(reference * k)),
  };
}
