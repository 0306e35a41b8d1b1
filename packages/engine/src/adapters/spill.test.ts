import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { clipRms } from '../techniques/spectrum.js';
import { SpilledAudio, SpilledRows, SpilledWords, SpillFile } from './spill.js';

const spillDirs = () =>
  readdirSync(tmpdir()).filter((name) => name.startsWith('riffscribe-spill-'));

describe('SpillFile', () => {
  it('reads back exactly what was appended, across blocks and pieces, clamped like subarray', () => {
    const values = Float32Array.from({ length: 10_000 }, (_, i) => Math.sin(i * 0.37) * 1e-3 + i);
    const file = new SpillFile(1000);
    for (let at = 0, k = 0; at < values.length; k++) {
      const size = [1, 333, 2048, 7][k % 4] ?? 1;
      file.append(values.subarray(at, at + size));
      at += size;
    }
    expect(file.length).toBe(values.length);
    for (const [a, b] of [
      [0, 10],
      [995, 1005],
      [999, 3500],
      [9990, 10_000],
      [5000, 5000],
    ] as const) {
      expect(Array.from(file.read(a, b))).toEqual(Array.from(values.subarray(a, b)));
    }
    // Backwards after forwards, and ranges past either end, as Float32Array.subarray clamps them.
    expect(Array.from(file.read(10, 20))).toEqual(Array.from(values.subarray(10, 20)));
    expect(Array.from(file.read(-5, 3))).toEqual(Array.from(values.subarray(0, 3)));
    expect(Array.from(file.read(9998, 20_000))).toEqual(Array.from(values.subarray(9998)));
    expect(file.read(20_000, 30_000)).toHaveLength(0);
    file.close();
    expect(() => file.read(0, 1)).toThrow(/closed/);
  });

  it('leaves no file behind, even before it is closed', () => {
    const before = spillDirs().length;
    const audio = new SpilledAudio();
    audio.append(new Float32Array(100).fill(0.25));
    expect(spillDirs()).toHaveLength(before);
    expect(audio.subarray(50, 52)).toEqual(new Float32Array([0.25, 0.25]));
    audio.close();
  });

  it('keeps the sum of squares clipRms reads: the same number as reading the samples back', () => {
    const samples = Float32Array.from({ length: 300_000 }, (_, i) => Math.sin(i * 0.013) * 0.4);
    const audio = new SpilledAudio();
    // Pieces of uneven sizes, as a decoder gives them.
    for (let from = 0; from < samples.length; from += 7_919)
      audio.append(samples.subarray(from, from + 7_919));
    expect(clipRms(audio)).toBe(clipRms(samples));
    audio.close();
  });
});

describe('SpilledRows', () => {
  it('gives rows by index up to its limit, undefined outside', () => {
    const rows = new SpilledRows(3);
    rows.append(new Float32Array([1, 2, 3, 4, 5, 6]));
    rows.append(new Float32Array([7, 8, 9]));
    expect(rows).toHaveLength(3);
    expect(Array.from(rows.at(1) ?? [])).toEqual([4, 5, 6]);
    expect(Array.from(rows.at(2) ?? [])).toEqual([7, 8, 9]);
    expect(rows.at(3)).toBeUndefined();
    expect(rows.at(-1)).toBeUndefined();
    rows.limit(2);
    expect(rows).toHaveLength(2);
    expect(rows.at(2)).toBeUndefined();
    expect(() => {
      rows.append(new Float32Array(2));
    }).toThrow(/whole number of rows/);
    rows.close();
  });
});

describe('SpilledWords', () => {
  it('reads back every value in any order through a small cache, also a page read before it was full', () => {
    const words = new SpilledWords(10, 3);
    const values = Uint16Array.from({ length: 95 }, (_, i) => (i * 7919) % 65536);
    words.append(values.subarray(0, 45));
    // The short page 4 is read now and must be read again once the rest arrives.
    expect(words.get(44)).toBe(values[44]);
    expect(words.get(45)).toBe(0);
    words.append(values.subarray(45));
    expect(words).toHaveLength(95);
    const order = [...values.keys()].sort((a, b) => ((a * 37) % 95) - ((b * 37) % 95));
    for (const i of order) expect(words.get(i)).toBe(values[i]);
    for (let i = 94; i >= 0; i--) expect(words.get(i)).toBe(values[i]);
    expect(words.get(-1)).toBe(0);
    expect(words.get(95)).toBe(0);
    words.close();
    expect(() => {
      words.append(new Uint16Array(1));
    }).toThrow(/closed/);
  });
});
