import { describe, expect, it } from 'vitest';
import type { ModelOutput } from '../types.js';
import { WEAK_ONSET_FACTOR } from './onsets.js';
import { Activation, CONTOUR_BINS, NOTE_BINS } from './posteriorgram.js';
import {
  REFINER_BINS,
  REFINER_CHANNELS,
  REFINER_CHUNK,
  REFINER_KEEP,
  REFINER_NOTE_KEEP,
  REFINER_LOW_PITCH,
  blendNotes,
  blendOnsets,
  refineActivations,
  refinerInput,
  type RefinerProbabilities,
} from './refine.js';

/** A made-up model output: values from a seeded formula, so every frame differs. */
function fakeOutput(n: number): ModelOutput {
  const v = (t: number, b: number, k: number) => ((Math.sin(t * 0.37 + b * 1.91 + k) + 1) / 2) ** 3;
  const rows = (k: number) =>
    Array.from({ length: n }, (_, t) =>
      Float32Array.from({ length: NOTE_BINS }, (_, b) => v(t, b, k)),
    );
  const contours = Array.from({ length: n }, (_, t) =>
    Float32Array.from({ length: CONTOUR_BINS }, (_, b) => v(t, b, 7)),
  );
  return { frames: Activation.fromRows(rows(1)), onsets: Activation.fromRows(rows(2)), contours };
}

/**
 * A stand-in for the network with reach in time (it reads the onset and note channels 3 frames
 * either side, and a contour bin), so that chunk edges would show if the context were wrong.
 */
async function standIn(input: Float32Array, frames: number): Promise<RefinerProbabilities> {
  const plane = frames * REFINER_BINS;
  const onsets = new Float32Array(plane);
  const notes = new Float32Array(plane);
  const at = (c: number, t: number, b: number) =>
    t < 0 || t >= frames ? 0 : (input[c * plane + t * REFINER_BINS + b] ?? 0);
  for (let t = 0; t < frames; t++)
    for (let b = 0; b < REFINER_BINS; b++) {
      onsets[t * REFINER_BINS + b] =
        0.2 * at(1, t - 3, b) + 0.3 * at(0, t + 3, b) + 0.1 * at(3, t, b) + 0.05;
      notes[t * REFINER_BINS + b] = 0.4 * at(0, t - 2, b) + 0.2 * at(2, t + 1, b);
    }
  return Promise.resolve({ onsets, notes });
}

describe('note refiner plumbing', () => {
  it('builds the channels as the training code does', () => {
    const output = fakeOutput(10);
    const x = refinerInput(output, 2, 6);
    const plane = 4 * REFINER_BINS;
    expect(x.length).toBe(REFINER_CHANNELS * plane);
    const bin = REFINER_LOW_PITCH - 21 + 5;
    expect(x[1 * REFINER_BINS + 5]).toBeCloseTo(output.frames.value(3, bin), 6);
    expect(x[plane + 1 * REFINER_BINS + 5]).toBeCloseTo(output.onsets.value(3, bin), 6);
    for (let k = 0; k < 3; k++)
      expect(x[(2 + k) * plane + 1 * REFINER_BINS + 5]).toBeCloseTo(
        output.contours.at(3)?.[bin * 3 + k] ?? NaN,
        6,
      );
  });

  it('gives chunk by chunk exactly what the whole clip gives at once', async () => {
    const n = Math.round(2.5 * REFINER_CHUNK);
    const output = fakeOutput(n);
    const chunked = await refineActivations(output, standIn);
    const whole = await standIn(refinerInput(output, 0, n), n);
    const first = REFINER_LOW_PITCH - 21;
    for (const t of [
      0,
      1,
      REFINER_CHUNK - 1,
      REFINER_CHUNK,
      REFINER_CHUNK + 2,
      2 * REFINER_CHUNK,
      n - 1,
    ])
      for (const b of [0, 17, REFINER_BINS - 1]) {
        const at = t * REFINER_BINS + b;
        expect(chunked.onsets.value(t, first + b)).toBeCloseTo(
          blendOnsets(output.onsets.value(t, first + b), whole.onsets[at] ?? NaN),
          4,
        );
        expect(chunked.frames.value(t, first + b)).toBeCloseTo(
          blendNotes(output.frames.value(t, first + b), whole.notes[at] ?? NaN),
          4,
        );
      }
    expect(chunked.onsets.length).toBe(n);
    expect(chunked.frames.length).toBe(n);
  });

  it("keeps Basic Pitch's activations outside the refiner's pitch range", async () => {
    const output = fakeOutput(50);
    const refined = await refineActivations(output, standIn);
    for (const bin of [
      0,
      REFINER_LOW_PITCH - 22,
      REFINER_LOW_PITCH - 21 + REFINER_BINS,
      NOTE_BINS - 1,
    ]) {
      expect(refined.onsets.value(20, bin)).toBeCloseTo(output.onsets.value(20, bin), 4);
      expect(refined.frames.value(20, bin)).toBeCloseTo(output.frames.value(20, bin), 4);
    }
  });

  it("averages Basic Pitch's onset with the refiner's, doubled and capped", () => {
    expect(blendOnsets(0.6, 0.2)).toBeCloseTo(0.5);
    expect(blendOnsets(0.2, 0.9)).toBeCloseTo(0.6);
    expect(blendOnsets(0, 0)).toBe(0);
  });

  it("averages the note activations, never under REFINER_NOTE_KEEP of Basic Pitch's", () => {
    expect(blendNotes(0.6, 0.2)).toBeCloseTo(0.4);
    expect(blendNotes(0.1, 0.9)).toBeCloseTo(0.5);
    expect(blendNotes(0.8, 0)).toBeCloseTo(REFINER_NOTE_KEEP * 0.8);
    expect(blendNotes(0, 0)).toBe(0);
  });

  it("never takes away more than REFINER_KEEP of Basic Pitch's onset", () => {
    // A peak Basic Pitch takes as a weak onset (0.6 of the 0.7 threshold) stays over the floor.
    expect(blendOnsets(0.6, 0)).toBeCloseTo(REFINER_KEEP * 0.6);
    expect(blendOnsets(0.6, 0)).toBeGreaterThan(0.7 * WEAK_ONSET_FACTOR - 1e-9);
    expect(blendOnsets(1, 0)).toBeCloseTo(REFINER_KEEP);
  });
});
