import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runRefiner } from '../src/adapters/refiner-model.js';
import { REFINER_BINS, REFINER_CHANNELS } from '../src/notes/refine.js';

/**
 * The note refiner on onnxruntime-node against what the training code computed for the same
 * input (golden/refiner-parity.json, written by training/notes/export.py from a seeded made-up
 * input).
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const golden = JSON.parse(
  readFileSync(path.join(here, 'golden', 'refiner-parity.json'), 'utf8'),
) as { shape: number[]; input: number[]; onsets: number[]; notes: number[] };

describe('note refiner: parity with the training code', () => {
  it('gives the same onset and note probabilities as PyTorch', async () => {
    const [, channels, frames, bins] = golden.shape;
    expect(channels).toBe(REFINER_CHANNELS);
    expect(bins).toBe(REFINER_BINS);
    const out = await runRefiner(Float32Array.from(golden.input), frames ?? 0);
    for (const [got, want] of [
      [out.onsets, golden.onsets],
      [out.notes, golden.notes],
    ] as const) {
      expect(got.length).toBe(want.length);
      let worst = 0;
      want.forEach((v, i) => {
        worst = Math.max(worst, Math.abs((got[i] ?? NaN) - v));
      });
      expect(worst).toBeLessThan(1e-4);
    }
  });
});
