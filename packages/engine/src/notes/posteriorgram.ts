/**
 * Reading Basic Pitch's posteriorgrams (pure). Note and onset rows have 88 bins, bin 0 = MIDI 21
 * (A0); contour rows have 3 bins per semitone, bin 3 * (pitch - 21) centred on the pitch.
 */

export const MIDI_OFFSET = 21;
export const NOTE_BINS = 88;
export const CONTOUR_BINS_PER_SEMITONE = 3;
/** Contour bins per frame: 3 per semitone over the 88 note bins. */
export const CONTOUR_BINS = NOTE_BINS * CONTOUR_BINS_PER_SEMITONE;

/** Value at frame t of the row for MIDI `pitch`; 0 outside the grid. */
export function valueAt(rows: readonly Float32Array[], t: number, pitch: number): number {
  return rows[t]?.[pitch - MIDI_OFFSET] ?? 0;
}

/** Largest value of `pitch` over frames [from, to] (inclusive, clipped to the grid). */
export function peakOver(
  rows: readonly Float32Array[],
  pitch: number,
  from: number,
  to: number,
): number {
  let best = 0;
  const lo = Math.max(0, from);
  const hi = Math.min(rows.length - 1, to);
  for (let t = lo; t <= hi; t++) best = Math.max(best, valueAt(rows, t, pitch));
  return best;
}

/** Mean value of `pitch` over frames [from, to) (clipped to the grid); 0 for an empty range. */
export function meanOver(
  rows: readonly Float32Array[],
  pitch: number,
  from: number,
  to: number,
): number {
  const lo = Math.max(0, from);
  const hi = Math.min(rows.length, to);
  if (hi <= lo) return 0;
  let sum = 0;
  for (let t = lo; t < hi; t++) sum += valueAt(rows, t, pitch);
  return sum / (hi - lo);
}
