import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RowSource } from '../notes/posteriorgram.js';
import type { ClipAudio } from '../types.js';

/**
 * A new file in the OS temp folder, opened for reading and writing and unlinked at once: it lives
 * only as long as the descriptor, so nothing is left behind however the process ends.
 */
function openUnlinked(name: string): number {
  const dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-spill-'));
  try {
    return openSync(path.join(dir, name), 'w+', 0o600);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes all of `bytes` at byte `position`. */
function writeAll(fd: number, bytes: Uint8Array, position: number): void {
  let done = 0;
  while (done < bytes.length)
    done += writeSync(fd, bytes, done, bytes.length - done, position + done);
}

/** Fills `bytes` from byte `position`; throws when the file ends first. */
function readAll(fd: number, bytes: Uint8Array, position: number): void {
  let done = 0;
  while (done < bytes.length) {
    const n = readSync(fd, bytes, done, bytes.length - done, position + done);
    if (n === 0) throw new Error('spill file ended early');
    done += n;
  }
}

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
  /** A reader over another SpillFile's descriptor (see `reader`): it neither writes nor closes. */
  private readonly borrowed: boolean;

  /**
   * @param blockValues values read at a time (at least what one read asks for).
   * @param borrow another SpillFile's open descriptor and length to read (see `reader`).
   */
  constructor(
    private readonly blockValues = 1 << 16,
    borrow?: { fd: number; length: number },
  ) {
    this.fd = borrow?.fd ?? openUnlinked('values.f32');
    this.written = borrow?.length ?? 0;
    this.borrowed = borrow !== undefined;
  }

  /**
   * Reads `length` values of the open file `fd` (another SpillFile's, see `shared`) from another
   * thread of the same process, through a cache of its own: positioned reads do not disturb the
   * owner's. The owner must keep the file open while this reads; `close` only drops the cache.
   */
  static reader(fd: number, length: number): SpillFile {
    return new SpillFile(1 << 16, { fd, length });
  }

  /** The descriptor and length, for a `reader` on another thread. */
  shared(): { fd: number; length: number } {
    return { fd: this.open(), length: this.written };
  }

  /** Values appended so far. */
  get length(): number {
    return this.written;
  }

  append(values: Float32Array): void {
    if (this.borrowed) throw new Error('a spill file reader cannot write');
    const fd = this.open();
    const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    writeAll(fd, bytes, this.written * 4);
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
    if (this.fd !== null && !this.borrowed) closeSync(this.fd);
    this.fd = null;
    this.cache = new Float32Array(0);
    this.cacheLength = 0;
  }

  private fill(from: number, to: number): void {
    const fd = this.open();
    const count = Math.min(this.written - from, Math.max(this.blockValues, to - from));
    if (this.cache.length < count) this.cache = new Float32Array(count);
    const bytes = new Uint8Array(this.cache.buffer, 0, count * 4);
    readAll(fd, bytes, from * 4);
    this.cacheStart = from;
    this.cacheLength = count;
  }

  private open(): number {
    if (this.fd === null) throw new Error('spill file is closed');
    return this.fd;
  }
}

/**
 * 16-bit values on disk (a long video's note and onset posteriorgrams, see notes/posteriorgram.ts),
 * appended in order and read one at a time through a cache of the most recently used pages. The
 * note tracker reads them by pitch around each onset, latest onset first, and later by strongest
 * leftover frame: a few neighbouring pages at a time, in no single direction, which one block (as
 * SpillFile keeps) does not serve. Pages are small so a miss costs one short read. The file goes
 * as SpillFile's does.
 */
export class SpilledWords {
  private fd: number | null;
  private written = 0;
  /** Cached pages, least recently used first (Map keeps insertion order). */
  private readonly pages = new Map<number, Uint16Array>();
  private lastIndex = -1;
  private last: Uint16Array = new Uint16Array(0);

  /**
   * @param pageWords values per read (default 64 posteriorgram frames of 88 values).
   * @param cachedPages pages kept in memory (default 64: about 700 KB).
   */
  constructor(
    private readonly pageWords = 88 * 64,
    private readonly cachedPages = 64,
  ) {
    if (
      !Number.isInteger(pageWords) ||
      pageWords < 1 ||
      !Number.isInteger(cachedPages) ||
      cachedPages < 1
    )
      throw new RangeError('pageWords and cachedPages must be positive integers');
    this.fd = openUnlinked('values.u16');
  }

  /** Values appended so far. */
  get length(): number {
    return this.written;
  }

  append(values: Uint16Array): void {
    const fd = this.open();
    const bytes = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    writeAll(fd, bytes, this.written * 2);
    // A page read before this append may have been the short last one: read it again.
    const partial = Math.floor(this.written / this.pageWords);
    this.pages.delete(partial);
    if (this.lastIndex === partial) this.lastIndex = -1;
    this.written += values.length;
  }

  /** Value at `index` (0 <= index < length; 0 elsewhere). */
  get(index: number): number {
    if (!(index >= 0 && index < this.written)) return 0;
    const page = Math.floor(index / this.pageWords);
    if (page !== this.lastIndex) {
      this.last = this.page(page);
      this.lastIndex = page;
    }
    return this.last[index - page * this.pageWords] ?? 0;
  }

  /** Values from `begin` on into `out` (0 past what was written), in one read from the file. */
  read(begin: number, out: Uint16Array): void {
    const from = Math.max(0, begin);
    const count = Math.max(0, Math.min(out.length - (from - begin), this.written - from));
    out.fill(0);
    if (count === 0) return;
    const at = from - begin;
    readAll(this.open(), new Uint8Array(out.buffer, out.byteOffset + at * 2, count * 2), from * 2);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
    this.pages.clear();
    this.lastIndex = -1;
    this.last = new Uint16Array(0);
  }

  private page(index: number): Uint16Array {
    const cached = this.pages.get(index);
    if (cached) {
      // Most recently used goes last.
      this.pages.delete(index);
      this.pages.set(index, cached);
      return cached;
    }
    const fd = this.open();
    const from = index * this.pageWords;
    const count = Math.min(this.pageWords, this.written - from);
    let words: Uint16Array | undefined;
    if (this.pages.size >= this.cachedPages) {
      // Reuse the least recently used page's memory.
      const oldest = this.pages.entries().next();
      if (!oldest.done) {
        this.pages.delete(oldest.value[0]);
        words = oldest.value[1];
      }
    }
    words ??= new Uint16Array(this.pageWords);
    const bytes = new Uint8Array(words.buffer, 0, count * 2);
    readAll(fd, bytes, from * 2);
    this.pages.set(index, words);
    return words;
  }

  private open(): number {
    if (this.fd === null) throw new Error('spill file is closed');
    return this.fd;
  }
}

/** What another thread needs to read a SpilledAudio (SpilledAudio.shared, .reader). */
export interface SharedAudio {
  fd: number;
  length: number;
  sumOfSquares: number;
}

/** A clip's samples on disk (see SpillFile), read as ClipAudio. */
export class SpilledAudio implements ClipAudio {
  private readonly file: SpillFile;
  private squares = 0;

  /** A reader of `shared` on another thread (the owner keeps the clip open meanwhile). */
  static reader(shared: SharedAudio): SpilledAudio {
    const audio = new SpilledAudio(SpillFile.reader(shared.fd, shared.length));
    audio.squares = shared.sumOfSquares;
    return audio;
  }

  constructor(file?: SpillFile) {
    this.file = file ?? new SpillFile();
  }

  /** The descriptor, length and sum of squares, for a reader on another thread. */
  shared(): SharedAudio {
    return { ...this.file.shared(), sumOfSquares: this.squares };
  }

  get length(): number {
    return this.file.length;
  }

  /** Sum of the squares of the samples, added in order as they came (see clipRms). */
  get sumOfSquares(): number {
    return this.squares;
  }

  append(samples: Float32Array): void {
    this.file.append(samples);
    let sum = this.squares;
    for (const v of samples) sum += v * v;
    this.squares = sum;
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
