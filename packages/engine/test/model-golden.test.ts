import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { runModel } from '../src/adapters/model.js';
import { seededRandom } from '../src/random.js';
import type { RowSource } from '../src/notes/posteriorgram.js';
import type { ModelOutput } from '../src/types.js';
import { HOP, SAMPLE_RATE } from '../src/units.js';

/**
 * Golden file for the note model alone: Basic Pitch's three posteriorgrams (contours, frames,
 * onsets) for a 2.5 s clip rendered here (plucked tones, a chord and seeded noise), long enough
 * for two of the engine's windows so that the stitching is covered. The golden values were
 * recorded once from the TensorFlow.js model (the `@spotify/basic-pitch` package on the wasm
 * backend) before the engine moved to ONNX Runtime; the ONNX model must reproduce them to within
 * 1e-4. Values are stored quantised to 16 bits (step 1/65535, error at most 7.7e-6) and gzipped.
 * Recording it again is deliberate: RIFFSCRIBE_ACCEPT_MODEL_GOLDEN=1.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const goldenFile = path.join(here, 'golden/model-outputs.u16.gz');
const accept = process.env.RIFFSCRIBE_ACCEPT_MODEL_GOLDEN === '1';

const SECONDS = 2.5;
const TOLERANCE = 1e-4;

/** [start seconds, MIDI pitch]: a rising line, then an open A chord across the window edge. */
const PLUCKS: [number, number][] = [
  [0.05, 52],
  [0.35, 57],
  [0.6, 61],
  [0.85, 64],
  [1.1, 69],
  [1.5, 45],
  [1.52, 52],
  [1.54, 57],
  [1.56, 61],
  [1.58, 64],
  [2.1, 76],
];

function renderClip(): Float32Array {
  const samples = new Float32Array(Math.round(SECONDS * SAMPLE_RATE));
  for (const [start, pitch] of PLUCKS) {
    const f = 440 * 2 ** ((pitch - 69) / 12);
    for (let i = Math.ceil(start * SAMPLE_RATE); i < samples.length; i++) {
      const t = i / SAMPLE_RATE - start;
      let v = 0;
      for (let h = 1; h <= 5; h++) v += (0.6 / h) * Math.sin(2 * Math.PI * h * f * t);
      samples[i] = (samples[i] ?? 0) + 0.1 * Math.exp(-2.5 * t) * v;
    }
  }
  const random = seededRandom(17);
  for (let i = 0; i < samples.length; i++)
    samples[i] = (samples[i] ?? 0) + 0.002 * (random() - 0.5);
  return samples;
}

/** The three posteriorgrams in one array: contours, then frames, then onsets, row by row. */
function flatten(output: ModelOutput): Float32Array {
  const parts: RowSource[] = [output.contours, output.frames, output.onsets];
  const rows = parts.flatMap((source) =>
    Array.from({ length: source.length }, (_, i) => Float32Array.from(source.at(i) ?? [])),
  );
  const all = new Float32Array(rows.reduce((n, r) => n + r.length, 0));
  let offset = 0;
  for (const row of rows) {
    all.set(row, offset);
    offset += row.length;
  }
  return all;
}

const quantise = (values: Float32Array): Uint16Array =>
  Uint16Array.from(values, (v) => Math.round(Math.min(1, Math.max(0, v)) * 65535));

describe('note model golden file', () => {
  it('reproduces the recorded contours, frames and onsets to within 1e-4', async () => {
    const audio = renderClip();
    const output = await runModel(audio);
    const nFrames = Math.floor(audio.length / HOP) + 1;
    expect(output.frames).toHaveLength(nFrames);
    const actual = flatten(output);

    if (accept || !existsSync(goldenFile)) {
      const q = quantise(actual);
      writeFileSync(goldenFile, gzipSync(Buffer.from(q.buffer), { level: 9 }));
      if (!accept)
        throw new Error(`No golden file yet: wrote ${goldenFile}; check it and commit it.`);
      return;
    }
    const raw = gunzipSync(readFileSync(goldenFile));
    const golden = new Uint16Array(raw.buffer, raw.byteOffset, raw.byteLength / 2);
    expect(golden.length).toBe(actual.length);
    let worst = 0;
    let at = -1;
    for (let i = 0; i < actual.length; i++) {
      const d = Math.abs((actual[i] ?? 0) - (golden[i] ?? 0) / 65535);
      if (d > worst) {
        worst = d;
        at = i;
      }
    }
    expect(worst, `largest difference ${worst} at value ${at}`).toBeLessThan(TOLERANCE);
  });
});
