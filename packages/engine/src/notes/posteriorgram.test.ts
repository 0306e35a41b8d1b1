import { describe, expect, it } from 'vitest';
import { SpilledWords } from '../adapters/spill.js';
import { Activation, activationRows, NOTE_BINS, peakOver, valueAt } from './posteriorgram.js';

const frame = (fill: (b: number) => number) =>
  Float32Array.from({ length: NOTE_BINS }, (_, b) => fill(b));

describe('Activation (16-bit posteriorgram)', () => {
  it('keeps every value within 1/65535 and clamps to 0..1', () => {
    const grid = new Activation(2);
    grid.append([...frame((b) => b / 87), ...frame((b) => (b % 2 === 0 ? 1.2 : -0.1))]);
    grid.append(frame(() => 0.123456789));
    expect(grid.length).toBe(3);
    for (let b = 0; b < NOTE_BINS; b++) {
      expect(Math.abs(grid.value(0, b) - b / 87)).toBeLessThanOrEqual(0.5 / 65535 + 1e-9);
      expect(grid.value(1, b)).toBe(b % 2 === 0 ? 1 : 0);
      expect(Math.abs(grid.value(2, b) - 0.123456789)).toBeLessThanOrEqual(0.5 / 65535 + 1e-9);
    }
  });

  it('reads 0 outside the grid and after limit', () => {
    const grid = Activation.fromRows([frame(() => 0.5), frame(() => 0.7)]);
    expect(grid.value(-1, 0)).toBe(0);
    expect(grid.value(0, NOTE_BINS)).toBe(0);
    expect(valueAt(grid, 1, 21)).toBeCloseTo(0.7, 4);
    expect(valueAt(grid, 1, 20)).toBe(0);
    grid.limit(1);
    expect(grid.length).toBe(1);
    expect(grid.value(1, 0)).toBe(0);
    expect(grid.at(1)).toBeUndefined();
    expect(peakOver(grid, 30, -5, 5)).toBeCloseTo(0.5, 4);
  });

  it('finds a frame in later blocks and gives rows back', () => {
    const grid = new Activation(3);
    const rows = Array.from({ length: 8 }, (_, t) => frame((b) => ((t * 7 + b) % 10) / 10));
    for (let t = 0; t < 8; t += 3) grid.append(rows.slice(t, t + 3).flatMap((r) => [...r]));
    expect(grid.length).toBe(8);
    const back = activationRows(grid);
    back.forEach((row, t) => {
      row.forEach((v, b) => {
        expect(v).toBeCloseTo(rows[t]?.[b] ?? -1, 4);
      });
    });
  });

  it('reads runs of frames as value reads them, in memory and on disk, across blocks and edges', () => {
    const rows = Array.from({ length: 11 }, (_, t) => frame((b) => ((t * 13 + b * 7) % 17) / 16));
    const inMemory = new Activation(4);
    const store = new SpilledWords(NOTE_BINS * 3, 2);
    const onDisk = new Activation(4, store);
    for (let t = 0; t < 11; t += 4) {
      const block = rows.slice(t, t + 4).flatMap((r) => [...r]);
      inMemory.append(block);
      onDisk.append(block);
    }
    onDisk.limit(10);
    inMemory.limit(10);
    for (const [from, to] of [
      [0, 11],
      [-2, 3],
      [3, 9],
      [8, 14],
      [12, 13],
    ] as const) {
      for (const grid of [inMemory, onDisk]) {
        const out = new Float64Array((to - from) * NOTE_BINS).fill(-1);
        grid.readFrames(from, to, out);
        for (let t = from; t < to; t++)
          for (let b = 0; b < NOTE_BINS; b++)
            expect(out[(t - from) * NOTE_BINS + b]).toBe(grid.value(t, b));
      }
    }
    store.close();
  });

  it('refuses a block after a short one and partial frames', () => {
    const grid = new Activation(2);
    grid.append(frame(() => 0));
    expect(() => {
      grid.append(frame(() => 0));
    }).toThrow(/last block/);
    expect(() => {
      new Activation(2).append(new Float32Array(NOTE_BINS + 1));
    }).toThrow(RangeError);
    expect(() => new Activation(0)).toThrow(RangeError);
  });
});
