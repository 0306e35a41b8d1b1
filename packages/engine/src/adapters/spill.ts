import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ClipAudio, RowSource } from '../types.js';

/**
 * Float32 values kept on disk instead of in memory, for what grows with the length of a video
 * (its decoded samples, the model's pitch contours) so that a 10-minute video needs about the
 * memory of a 30-second clip. Values are appended in order and read back exactly (the same
 * bits), through a cache of one block, so reading forward costs a system call per block.
 *
 * The file is unlinked as soon as it is opened: it lives only as long as the open descriptor, so
 * nothing is left behind when the process ends, however it ends. `close()` frees it earlier.
 */
export class SpillFile {
  private fd: number | null;
  private written = 0;
  private cache = new Float32Array(0);
  private cacheStart = 0;
  private cacheLength = 0;

  /** @param blockValues values read at a time (at least what one read asks for). */
  constructor(private readonly blockValues = 1 << 16) {
    const dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-spill-'));
    try {
      this.fd = openSync(path.join(dir, 'values.f32'), 'w+', 0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** Values appended so far. */
  get length(): number {
    return this.written;
  }

  append(values: Float32Array): void {
    const fd = this.open();
    const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    let done = 0;
    while (done < bytes.length)
      done += writeSync(fd, bytes, done, bytes.length - done, this.written * 4 + done);
    this.written += values.length;
  }

  /**
   * Values `begin` to `end` (clamped to what was written, as Float32Array.subarray). The result is
   * a view of the cache: valid until the next read of this file.
   */
  read(begin: number, end: number): Float32Array {
    const from = Math.max(0, Math.min(this.written, Math.floor(begin)));
    const to = Math.max(from, Math.min(this.written, Math.floor(end)));
    if (from < this.cacheStart || to > this.cacheStart + this.cacheLength) this.fill(from, to);
    return this.cache.subarray(from - this.cacheStart, to - this.cacheStart);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    this.cache = new Float32Array(0);
    this.cacheLength = 0;
  }

  private fill(from: number, to: number): void {
    const fd = this.open();
    const count = Math.min(this.written - from, Math.max(this.blockValues, to - from));
    if (this.cache.length < count) this.cache = new Float32Array(count);
    const bytes = new Uint8Array(this.cache.buffer, 0, count * 4);
    let done = 0;
    while (done < bytes.length) {
      const n = readSync(fd, bytes, done, bytes.length - done, from * 4 + done);
      if (n === 0) throw new Error('spill file ended early');
      done += n;
    }
    this.cacheStart = from;
    this.cacheLength = count;
  }

  private open(): number {
    if (this.fd === null) throw new Error('spill file is closed');
    return this.fd;
  }
}

/** A clip's samples on disk (see SpillFile), read as ClipAudio. */
export class SpilledAudio implements ClipAudio {
  private readonly file = new SpillFile();

  get length(): number {
    return this.file.length;
  }

  append(samples: Float32Array): void {
    this.file.append(samples);
  }

  subarray(begin: number, end: number): Float32Array {
    return this.file.read(begin, end);
  }

  close(): void {
    this.file.close();
  }
}

/** Rows of `width` values on disk (see SpillFile), read as a RowSource. */
export class SpilledRows implements RowSource {
  private readonly file: SpillFile;
  private rowLimit = Number.POSITIVE_INFINITY;

  constructor(private readonly width: number) {
    // A block of 256 rows: a note's rows are read in order.
    this.file = new SpillFile(width * 256);
  }

  get length(): number {
    return Math.min(this.rowLimit, this.file.length / this.width);
  }

  /** Reads at most `rows` rows from now on (the model's last batch runs past the clip's end). */
  limit(rows: number): void {
    this.rowLimit = rows;
  }

  /** Appends whole rows (a multiple of `width` values). */
  append(rows: Float32Array): void {
    if (rows.length % this.width !== 0) throw new Error('not a whole number of rows');
    this.file.append(rows);
  }

  at(index: number): Float32Array | undefined {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) return undefined;
    return this.file.read(index * this.width, (index + 1) * this.width);
  }

  close(): void {
    this.file.close();
  }
}
