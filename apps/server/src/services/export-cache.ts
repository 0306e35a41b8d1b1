/** Bytes of exported files a process keeps at most. */
export const EXPORT_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Exported files kept per lesson version (issue 38 build item 1): the key names everything an
 * export is made from (the stored files and the lesson's fields, ExportService.fingerprint), so a
 * saved edit, a renamed lesson or new beats make a new key and the old file ages out. The same
 * export asked for by many at once is made once: the others wait for it. Least recently used
 * files go first past `maxBytes`; a file larger than that is made and not kept.
 */
export class ExportCache {
  private readonly files = new Map<string, Uint8Array>();
  private readonly making = new Map<string, Promise<Uint8Array>>();
  private bytes = 0;
  /** Answers from the cache, answers that waited for a running export, exports made. */
  readonly counts = { hits: 0, shared: 0, made: 0 };

  constructor(private readonly maxBytes = EXPORT_CACHE_BYTES) {}

  async get(key: string, make: () => Promise<Uint8Array>): Promise<Uint8Array> {
    const kept = this.files.get(key);
    if (kept) {
      // Most recently used last.
      this.files.delete(key);
      this.files.set(key, kept);
      this.counts.hits += 1;
      return kept;
    }
    const running = this.making.get(key);
    if (running) {
      this.counts.shared += 1;
      return running;
    }
    const made = make();
    this.making.set(key, made);
    try {
      const bytes = await made;
      this.counts.made += 1;
      this.keep(key, bytes);
      return bytes;
    } finally {
      this.making.delete(key);
    }
  }

  /** Files and bytes held now. */
  size(): { files: number; bytes: number } {
    return { files: this.files.size, bytes: this.bytes };
  }

  private keep(key: string, bytes: Uint8Array): void {
    if (bytes.byteLength > this.maxBytes) return;
    this.files.set(key, bytes);
    this.bytes += bytes.byteLength;
    for (const [oldest, file] of this.files) {
      if (this.bytes <= this.maxBytes) break;
      this.files.delete(oldest);
      this.bytes -= file.byteLength;
    }
  }
}
