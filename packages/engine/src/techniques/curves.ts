/**
 * Small filters over per-frame pitch curves (pure). Values may be NaN where a curve is unknown;
 * the filters skip NaN and return NaN only where a whole window is unknown.
 */

/** Running median over `radius` frames each side. */
export function medianFilter(values: ArrayLike<number>, radius: number): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  const window: number[] = [];
  for (let i = 0; i < n; i++) {
    window.length = 0;
    for (let j = Math.max(0, i - radius); j <= Math.min(n - 1, i + radius); j++) {
      const v = values[j] ?? Number.NaN;
      if (!Number.isNaN(v)) window.push(v);
    }
    if (window.length === 0) {
      out[i] = Number.NaN;
      continue;
    }
    window.sort((a, b) => a - b);
    const mid = window.length >> 1;
    out[i] =
      window.length % 2 === 1
        ? (window[mid] ?? 0)
        : ((window[mid - 1] ?? 0) + (window[mid] ?? 0)) / 2;
  }
  return out;
}

/**
 * The middle value of `values` (for an even count, the upper of the two middle values), or
 * `fallback` when there are none. Does not change `values`.
 */
export function median(values: readonly number[], fallback: number): number {
  return quantile(values, 0.5, fallback);
}

/**
 * The value of `values` below which a share `q` (0..1) of them lies (the element at index
 * floor(q * count) of the sorted values, the last for q = 1), or `fallback` when there are none.
 * Does not change `values`.
 */
export function quantile(values: readonly number[], q: number, fallback: number): number {
  if (values.length === 0) return fallback;
  const sorted = [...values].sort((a, b) => a - b);
  const i = Math.min(sorted.length - 1, Math.max(0, Math.floor(q * sorted.length)));
  return sorted[i] ?? fallback;
}

/** Running mean over `radius` frames each side. */
export function meanFilter(values: ArrayLike<number>, radius: number): Float64Array {
  const n = values.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    let count = 0;
    for (let j = Math.max(0, i - radius); j <= Math.min(n - 1, i + radius); j++) {
      const v = values[j] ?? Number.NaN;
      if (Number.isNaN(v)) continue;
      sum += v;
      count++;
    }
    out[i] = count === 0 ? Number.NaN : sum / count;
  }
  return out;
}

/** Values the offset histogram covers (semitones each side of 0) and its bin width. */
const OFFSET_RANGE = 0.5;
const OFFSET_BIN = 0.02;

/**
 * The clip's constant offset in the notes' contours (semitones): the most common value near 0.
 * The contour decoding can sit a fraction of a semitone off for a whole recording (the guitar's
 * tuning, the model's bins); notes rest at their pitch most of the time, so the mode of all
 * contour values within half a semitone is that offset. 0 when there are too few values.
 */
export function contourOffset(notes: readonly { bend: readonly number[] }[]): number {
  const bins = Math.round((2 * OFFSET_RANGE) / OFFSET_BIN) + 1;
  const counts = new Float64Array(bins);
  let total = 0;
  for (const n of notes) {
    for (const v of n.bend) {
      if (Math.abs(v) > OFFSET_RANGE) continue;
      const b = Math.round((v + OFFSET_RANGE) / OFFSET_BIN);
      counts[b] = (counts[b] ?? 0) + 1;
      total++;
    }
  }
  if (total < 20) return 0;
  const smooth = meanFilter(counts, 2);
  let best = 0;
  for (let b = 1; b < bins; b++) if ((smooth[b] ?? 0) > (smooth[best] ?? 0)) best = b;
  return best * OFFSET_BIN - OFFSET_RANGE;
}
