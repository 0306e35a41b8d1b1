/**
 * Rows read one at a time; an array of rows is one. A row returned may be a view that is valid
 * only until the next `at` call on the same source: read it, do not keep it.
 */
export interface RowSource {
  readonly length: number;
  at(index: number): Float32Array | undefined;
}

/** Where an Activation may keep its values instead of memory (adapters/spill.ts SpilledWords). */
export interface WordStore {
  append(values: Uint16Array): void;
  /** Value at a flat index (frame * NOTE_BINS + bin). */
  get(index: number): number;
  /** Values from flat index `begin` on into `out` (as many as it holds; 0 past the end). */
  read(begin: number, out: Uint16Array): void;
}

/**
 * Reading Basic Pitch's posteriorgrams (pure). Note and onset rows have 88 bins, bin 0 = MIDI 21
 * (A0); contour rows have 3 bins per semitone, bin 3 * (pitch - 21) centred on the pitch.
 */

export const MIDI_OFFSET = 21;
export const NOTE_BINS = 88;
export const CONTOUR_BINS_PER_SEMITONE = 3;
/** Contour bins per frame: 3 per semitone over the 88 note bins. */
export const CONTOUR_BINS = NOTE_BINS * CONTOUR_BINS_PER_SEMITONE;

/** Steps of an Activation's stored values: value = level / LEVELS. */
const LEVELS = 65535;
const STEP = 1 / LEVELS;

/**
 * A note or onset posteriorgram: `length` frames of NOTE_BINS values in 0..1, read one value at a
 * time (`value`). Stored as 16-bit fractions in blocks of `blockFrames` frames (one per model
 * batch), with no object per row: a 10-minute video's two posteriorgrams take 18 MB instead of 36
 * MB and 100,000 row views. The rounding (at most 7.7e-6) is far below the 1e-4 the model's
 * outputs move between runtimes. `at` gives a row as a new Float32Array (tests, measurement).
 *
 * Given a `store`, the blocks go there instead (a long video's go to disk, so that the process's
 * memory does not grow with its length); the values read back are the same.
 */
export class Activation implements RowSource {
  private readonly blocks: Uint16Array[] = [];
  private frames = 0;
  private stored = 0;
  /** Levels read from the store by readFrames, reused. */
  private scratch = new Uint16Array(0);

  constructor(
    private readonly blockFrames: number,
    private readonly store?: WordStore,
  ) {
    if (!Number.isInteger(blockFrames) || blockFrames < 1)
      throw new RangeError(`blockFrames must be a positive integer, got ${blockFrames}`);
  }

  /** One block holding these rows (each NOTE_BINS values; a shorter row is padded with 0). */
  static fromRows(rows: readonly ArrayLike<number>[]): Activation {
    const grid = new Activation(Math.max(1, rows.length));
    const values = new Float32Array(rows.length * NOTE_BINS);
    rows.forEach((row, t) => {
      for (let b = 0; b < Math.min(NOTE_BINS, row.length); b++)
        values[t * NOTE_BINS + b] = row[b] ?? 0;
    });
    grid.append(values);
    return grid;
  }

  get length(): number {
    return this.frames;
  }

  /**
   * Adds frames (NOTE_BINS values each, frame after frame). Every block but the last holds
   * exactly `blockFrames` frames, so a frame's block is found by division.
   */
  append(values: ArrayLike<number>): void {
    const count = values.length / NOTE_BINS;
    if (!Number.isInteger(count) || count > this.blockFrames)
      throw new RangeError(`a block holds whole frames, at most ${this.blockFrames}`);
    if (this.stored % this.blockFrames !== 0)
      throw new Error('only the last block may be shorter than blockFrames');
    const block = new Uint16Array(values.length);
    for (let i = 0; i < values.length; i++) {
      const v = values[i] ?? 0;
      block[i] = Math.round((v <= 0 ? 0 : v >= 1 ? 1 : v) * LEVELS);
    }
    if (this.store) this.store.append(block);
    else this.blocks.push(block);
    this.stored += count;
    this.frames = this.stored;
  }

  /** Keeps the first `n` frames visible (the model's last batch runs past the clip's end). */
  limit(n: number): void {
    this.frames = Math.max(0, Math.min(this.stored, n));
  }

  /** Value of `bin` at frame `t`; 0 outside the grid. */
  value(t: number, bin: number): number {
    if (t < 0 || t >= this.frames || bin < 0 || bin >= NOTE_BINS) return 0;
    if (this.store) return this.store.get(t * NOTE_BINS + bin) * STEP;
    const block = this.blocks[Math.floor(t / this.blockFrames)];
    return (block?.[(t % this.blockFrames) * NOTE_BINS + bin] ?? 0) * STEP;
  }

  /**
   * Frames `from` to `to` (exclusive) into `out`, NOTE_BINS values a frame from out[0], each the
   * number `value` gives (0 outside the grid): a run of frames read at once instead of value by
   * value (the refiner reads every frame of the clip).
   */
  readFrames(from: number, to: number, out: Float64Array): void {
    const count = Math.max(0, to - from);
    if (out.length < count * NOTE_BINS) throw new RangeError('out is too short for those frames');
    out.fill(0, 0, count * NOTE_BINS);
    const lo = Math.max(0, from);
    const hi = Math.min(this.frames, to);
    if (hi <= lo) return;
    const offset = (lo - from) * NOTE_BINS;
    const words = (hi - lo) * NOTE_BINS;
    if (this.store) {
      if (this.scratch.length < words) this.scratch = new Uint16Array(words);
      const levels = this.scratch.subarray(0, words);
      this.store.read(lo * NOTE_BINS, levels);
      for (let i = 0; i < words; i++) out[offset + i] = (levels[i] ?? 0) * STEP;
      return;
    }
    for (let t = lo; t < hi;) {
      const b = Math.floor(t / this.blockFrames);
      const block = this.blocks[b];
      const first = b * this.blockFrames;
      const end = Math.min(hi, first + this.blockFrames);
      if (block) {
        const base = (t - first) * NOTE_BINS;
        const n = (end - t) * NOTE_BINS;
        const at = offset + (t - lo) * NOTE_BINS;
        for (let i = 0; i < n; i++) out[at + i] = (block[base + i] ?? 0) * STEP;
      }
      t = end;
    }
  }

  /** Frame `t` as a new row of NOTE_BINS values; undefined outside the grid. */
  at(t: number): Float32Array | undefined {
    if (!Number.isInteger(t) || t < 0 || t >= this.frames) return undefined;
    const row = new Float32Array(NOTE_BINS);
    for (let b = 0; b < NOTE_BINS; b++) row[b] = this.value(t, b);
    return row;
  }
}

/** Every frame as a row of NOTE_BINS values (measurement; a long video's are large). */
export function activationRows(grid: Activation): Float32Array[] {
  return Array.from({ length: grid.length }, (_, t) => grid.at(t) ?? new Float32Array(NOTE_BINS));
}

/** Value at frame t of the grid for MIDI `pitch`; 0 outside the grid. */
export function valueAt(grid: Activation, t: number, pitch: number): number {
  return grid.value(t, pitch - MIDI_OFFSET);
}

/** Largest value of `pitch` over frames [from, to] (inclusive, clipped to the grid). */
export function peakOver(grid: Activation, pitch: number, from: number, to: number): number {
  let best = 0;
  const lo = Math.max(0, from);
  const hi = Math.min(grid.length - 1, to);
  for (let t = lo; t <= hi; t++) best = Math.max(best, valueAt(grid, t, pitch));
  return best;
}

/** Mean value of `pitch` over frames [from, to) (clipped to the grid); 0 for an empty range. */
export function meanOver(grid: Activation, pitch: number, from: number, to: number): number {
  const lo = Math.max(0, from);
  const hi = Math.min(grid.length, to);
  if (hi <= lo) return 0;
  let sum = 0;
  for (let t = lo; t < hi; t++) sum += valueAt(grid, t, pitch);
  return sum / (hi - lo);
}
