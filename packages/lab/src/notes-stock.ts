import { activationRows, type ModelOutput } from '@riffscribe/engine/stages';

/**
 * Stock Basic Pitch note creation (`output_to_notes_polyphonic` with inferred onsets and the
 * "melodia trick"), written from the published algorithm as the baseline our note extraction is
 * measured against. Development use only (notes-dev.ts).
 */

export interface StockNote {
  startFrame: number;
  endFrame: number;
  pitch: number;
  amplitude: number;
}

export interface StockOptions {
  onsetThreshold: number;
  frameThreshold: number;
  minNoteFrames: number;
  minPitch: number;
  maxPitch: number;
  /** Frames a note may stay under the frame threshold before it ends (Basic Pitch: 11). */
  energyTolerance?: number;
  inferOnsets?: boolean;
  melodiaTrick?: boolean;
}

const BINS = 88;
const MIDI_OFFSET = 21;

export function stockNotes(output: ModelOutput, opts: StockOptions): StockNote[] {
  const n = output.frames.length;
  const tol = opts.energyTolerance ?? 11;
  const lo = Math.max(0, opts.minPitch - MIDI_OFFSET);
  const hi = Math.min(BINS - 1, opts.maxPitch - MIDI_OFFSET);
  const frames = activationRows(output.frames).map((row) => {
    const r = Float32Array.from(row);
    r.fill(0, 0, lo);
    r.fill(0, hi + 1);
    return r;
  });
  const onsets = activationRows(output.onsets).map((row) => {
    const r = Float32Array.from(row);
    r.fill(0, 0, lo);
    r.fill(0, hi + 1);
    return r;
  });
  const at = (m: Float32Array[], t: number, p: number) => m[t]?.[p] ?? 0;

  let onsetMap = onsets;
  if (opts.inferOnsets ?? true) {
    const diff = frames.map(() => new Float32Array(BINS));
    let diffMax = 0;
    let onsetMax = 0;
    for (let t = 0; t < n; t++) {
      for (let p = 0; p < BINS; p++) {
        onsetMax = Math.max(onsetMax, at(onsets, t, p));
        if (t < 2) continue;
        const d = Math.max(
          0,
          Math.min(
            at(frames, t, p) - at(frames, t - 1, p),
            at(frames, t, p) - at(frames, t - 2, p),
          ),
        );
        const diffRow = diff[t];
        if (diffRow) diffRow[p] = d;
        diffMax = Math.max(diffMax, d);
      }
    }
    onsetMap = onsets.map((row, t) =>
      row.map((v, p) => Math.max(v, diffMax > 0 ? (onsetMax * (diff[t]?.[p] ?? 0)) / diffMax : 0)),
    );
  }

  const starts: [number, number][] = [];
  for (let t = 0; t < n; t++) {
    for (let p = 0; p < BINS; p++) {
      const v = at(onsetMap, t, p);
      if (
        v > opts.onsetThreshold &&
        v > at(onsetMap, t - 1, p) &&
        (t === n - 1 || v > at(onsetMap, t + 1, p))
      ) {
        starts.push([t, p]);
      }
    }
  }
  starts.reverse();

  const remaining = frames.map((r) => Float32Array.from(r));
  const notes: StockNote[] = [];
  const clear = (t: number, p: number) => {
    const row = remaining[t];
    if (row === undefined) return;
    row[p] = 0;
    if (p < BINS - 1) row[p + 1] = 0;
    if (p > 0) row[p - 1] = 0;
  };
  const mean = (s: number, e: number, p: number) => {
    let sum = 0;
    for (let t = s; t < e; t++) sum += at(frames, t, p);
    return e > s ? sum / (e - s) : 0;
  };
  for (const [start, p] of starts) {
    if (start >= n - 1) continue;
    let i = start + 1;
    let k = 0;
    while (i < n - 1 && k < tol) {
      k = at(remaining, i, p) < opts.frameThreshold ? k + 1 : 0;
      i++;
    }
    i -= k;
    if (i - start <= opts.minNoteFrames) continue;
    for (let j = start; j < i; j++) clear(j, p);
    notes.push({
      startFrame: start,
      endFrame: i,
      pitch: p + MIDI_OFFSET,
      amplitude: mean(start, i, p),
    });
  }

  if (opts.melodiaTrick ?? true) {
    for (;;) {
      let best = 0;
      let bt = 0;
      let bp = 0;
      for (let t = 0; t < n; t++) {
        const row = remaining[t];
        if (row === undefined) continue;
        for (let p = 0; p < BINS; p++) {
          const v = row[p] ?? 0;
          if (v > best) {
            best = v;
            bt = t;
            bp = p;
          }
        }
      }
      if (best <= opts.frameThreshold) break;
      const peakRow = remaining[bt];
      if (peakRow) peakRow[bp] = 0;
      let i = bt + 1;
      let k = 0;
      while (i < n - 1 && k < tol) {
        k = at(remaining, i, bp) < opts.frameThreshold ? k + 1 : 0;
        clear(i, bp);
        i++;
      }
      const end = i - 1 - k;
      i = bt - 1;
      k = 0;
      while (i > 0 && k < tol) {
        k = at(remaining, i, bp) < opts.frameThreshold ? k + 1 : 0;
        clear(i, bp);
        i--;
      }
      const start = i + 1 + k;
      if (end - start <= opts.minNoteFrames) continue;
      notes.push({
        startFrame: start,
        endFrame: end,
        pitch: bp + MIDI_OFFSET,
        amplitude: mean(start, end, bp),
      });
    }
  }
  return notes.sort((a, b) => a.startFrame - b.startFrame || a.pitch - b.pitch);
}
