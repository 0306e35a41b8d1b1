import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Activation, activationRows, type ModelOutput, runModel } from '@riffscribe/engine/stages';

/**
 * Basic Pitch's outputs cached on disk for the development measurements (notes-dev.ts,
 * corpus/measure.ts): the model run is the slow part, and a clip's output only depends on
 * its samples. The cache lives under the OS temp directory.
 */

const WIDTHS = [88, 88, 264] as const;
const ROW = WIDTHS[0] + WIDTHS[1] + WIDTHS[2];
const CACHE_DIR = path.join(os.tmpdir(), 'riffscribe-model-cache');

/** Basic Pitch's output for a clip (mono, 22050 Hz), cached by a hash of its samples. */
export async function cachedModelOutput(audio: Float32Array): Promise<ModelOutput> {
  const key = createHash('sha256')
    // The model is part of the key: outputs of an earlier runtime are not reused.
    .update('basic-pitch nmp.onnx')
    .update(new Uint8Array(audio.buffer, audio.byteOffset, audio.byteLength))
    .digest('hex')
    .slice(0, 16);
  const cache = path.join(CACHE_DIR, `${key}.f32`);
  let all: Float32Array;
  try {
    const raw = await readFile(cache);
    all = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  } catch {
    const output = await runModel(audio);
    all = new Float32Array(output.frames.length * ROW);
    activationRows(output.frames).forEach((row, i) => {
      all.set(row, i * ROW);
    });
    activationRows(output.onsets).forEach((row, i) => {
      all.set(row, i * ROW + WIDTHS[0]);
    });
    for (let i = 0; i < output.contours.length; i++)
      all.set(output.contours.at(i) ?? [], i * ROW + WIDTHS[0] + WIDTHS[1]);
    await mkdir(CACHE_DIR, { recursive: true });
    await writeFile(cache, new Uint8Array(all.buffer));
  }
  const n = all.length / ROW;
  const rows = (offset: number, width: number) =>
    Array.from({ length: n }, (_, i) => all.subarray(i * ROW + offset, i * ROW + offset + width));
  return {
    frames: Activation.fromRows(rows(0, WIDTHS[0])),
    onsets: Activation.fromRows(rows(WIDTHS[0], WIDTHS[1])),
    contours: rows(WIDTHS[0] + WIDTHS[1], WIDTHS[2]),
  };
}
