import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import {
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  unlink,
  writeFile,
  type FileHandle,
} from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { processStartTicks } from '@riffscribe/engine/media-tools';
import { BodyInterruptedError, ByteLimit, type ByteLimits } from './byte-limit.js';
import { assertSafeKey } from './keys.js';
import {
  ObjectNotFoundError,
  type DownloadOptions,
  type ListedObject,
  type ObjectInfo,
  type ObjectStore,
  type SignedUpload,
  type UploadPolicy,
} from './object-store.js';
import { checkDownloadOptions, checkUploadPolicy, signedUrlTtl } from './policy.js';
import { signGrant, verifyGrant, type GrantVerification } from './signing.js';

/** Path (on this server) of the route that serves signed local links; see storage.route.ts. */
export const LOCAL_OBJECT_PATH = '/api/storage/object';

export interface LocalObjectStoreOptions {
  /** Root directory; `objects/`, `meta/` and `tmp/` are created inside it on first use. */
  dir: string;
  /** Base URL browsers use to reach this server, e.g. `http://localhost:3000` (no trailing /). */
  publicUrl: string;
  /** HMAC secret that signs the links (config.secret). */
  secret: string;
  /** The clock signed links are issued and checked against; tests move it. */
  now?: () => Date;
}

/** An open stored object; the caller streams from `handle` or closes it. */
export interface OpenObject {
  /** Bytes, read from the open file, so it matches what `handle` will give. */
  size: number;
  contentType: string | null;
  modifiedAt: Date;
  handle: FileHandle;
}

/** Missing files, and paths through or onto something else (`a/b` when `a` is an object). */
function isMissing(error: unknown): boolean {
  if (!(error instanceof Error) || !('code' in error)) return false;
  return error.code === 'ENOENT' || error.code === 'ENOTDIR' || error.code === 'EISDIR';
}

function readContentType(text: string): string | null {
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && 'contentType' in parsed) {
      return typeof parsed.contentType === 'string' ? parsed.contentType : null;
    }
  } catch {
    // A damaged sidecar only loses the type; the data is still served.
  }
  return null;
}

/**
 * Pipes `source` into `target` without ever destroying `source`: an HTTP request must stay open
 * so that the route can still answer (413). Errors and an early close of `source` fail `target`.
 * Returns a function that detaches the two.
 */
function feed(source: Readable, target: ByteLimit): () => void {
  const onError = (error: Error) => target.destroy(error);
  const onClose = () => {
    if (!source.readableEnded) target.destroy(new BodyInterruptedError());
  };
  source.on('error', onError).on('close', onClose);
  source.pipe(target);
  return () => {
    source.off('error', onError).off('close', onClose);
    source.unpipe(target);
  };
}

/** This process, as its temp files name it: `<pid>.<start time>`. */
const WRITER = `${String(process.pid)}.${processStartTicks(process.pid) ?? ''}`;

/**
 * Objects as files under a directory: data in `objects/<key>`, the content type in a JSON sidecar
 * `meta/<key>.json`. Every write goes to `tmp/` first and is renamed into place, so a reader never
 * sees a half-written object. Browsers reach objects through HMAC-signed links to
 * LOCAL_OBJECT_PATH, served by storage.route.ts.
 */
export class LocalObjectStore implements ObjectStore {
  readonly driver = 'local' as const;
  private readonly root: string;
  private readonly publicUrl: string;
  private readonly secret: string;
  private readonly now: () => Date;

  /** The start-up sweep of temp files whose writer is gone (sweepTemp), for those who wait on it. */
  readonly swept: Promise<string[]>;

  constructor(options: LocalObjectStoreOptions) {
    this.root = path.resolve(options.dir);
    this.publicUrl = options.publicUrl.replace(/\/+$/, '');
    this.secret = options.secret;
    this.now = options.now ?? (() => new Date());
    this.swept = this.sweepTemp().catch(() => []);
  }

  /**
   * Removes the temp files of writes whose process is gone (issue 38 row 9): an upload cut by a
   * SIGTERM or SIGKILL leaves its partial file, which a write's own cleanup never reached. Each
   * temp file is named after its writer (`<pid>.<start time>-<uuid>`), so a file of another
   * process sharing the data folder is kept while that process runs; a file named otherwise
   * (before this) goes once it is an hour old. Returns the names removed.
   */
  async sweepTemp(): Promise<string[]> {
    const dir = path.join(this.root, 'tmp');
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return [];
    }
    const removed: string[] = [];
    for (const name of names) {
      const match = /^(\d+)\.(\d*)-/.exec(name);
      let stale: boolean;
      if (match) {
        stale = processStartTicks(Number(match[1])) !== (match[2] ?? '');
      } else {
        const info = await stat(path.join(dir, name)).catch(() => null);
        stale = info !== null && this.now().getTime() - info.mtimeMs > 3600_000;
      }
      if (stale) {
        await rm(path.join(dir, name), { force: true, recursive: true });
        removed.push(name);
      }
    }
    return removed;
  }

  /** The store's clock, in unix seconds. */
  nowSeconds(): number {
    return Math.floor(this.now().getTime() / 1000);
  }

  private dataPath(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, 'objects', ...key.split('/'));
  }

  private metaPath(key: string): string {
    assertSafeKey(key);
    return `${path.join(this.root, 'meta', ...key.split('/'))}.json`;
  }

  private async tempPath(): Promise<string> {
    const dir = path.join(this.root, 'tmp');
    await mkdir(dir, { recursive: true });
    return path.join(dir, `${WRITER}-${randomUUID()}`);
  }

  private link(query: URLSearchParams): string {
    return `${this.publicUrl}${LOCAL_OBJECT_PATH}?${query.toString()}`;
  }

  /** Throws (as a rejection) for an unsafe key or an impossible policy. */
  createUploadUrl(key: string, policy: UploadPolicy): Promise<SignedUpload> {
    return Promise.resolve().then(() => {
      assertSafeKey(key);
      checkUploadPolicy(policy);
      const query = signGrant(this.secret, {
        op: 'put',
        key,
        expiresAt: this.nowSeconds() + signedUrlTtl(policy.expiresInSeconds),
        contentType: policy.contentType,
        maxBytes: policy.maxBytes,
        ...(policy.exactBytes !== undefined ? { exactBytes: policy.exactBytes } : {}),
      });
      return {
        url: this.link(query),
        method: 'PUT' as const,
        headers: { 'Content-Type': policy.contentType },
      };
    });
  }

  /** Throws (as a rejection) for an unsafe key or an invalid content type override. */
  createDownloadUrl(key: string, options: DownloadOptions = {}): Promise<string> {
    return Promise.resolve().then(() => {
      assertSafeKey(key);
      checkDownloadOptions(options);
      const query = signGrant(this.secret, {
        op: 'get',
        key,
        expiresAt: this.nowSeconds() + signedUrlTtl(options.expiresInSeconds),
        ...(options.contentType !== undefined ? { contentType: options.contentType } : {}),
        ...(options.downloadName !== undefined ? { downloadName: options.downloadName } : {}),
      });
      return this.link(query);
    });
  }

  /** Checks a signed link's query parameters against this store's secret and clock. */
  verifyLink(query: URLSearchParams): GrantVerification {
    return verifyGrant(this.secret, query, this.nowSeconds());
  }

  async head(key: string): Promise<ObjectInfo | null> {
    const dataPath = this.dataPath(key);
    try {
      const info = await stat(dataPath);
      if (!info.isFile()) return null;
      return { size: info.size, contentType: await this.contentType(key) };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  private async contentType(key: string): Promise<string | null> {
    try {
      return readContentType(await readFile(this.metaPath(key), 'utf8'));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  /** Opens an object for reading, or returns null when there is none. */
  async open(key: string): Promise<OpenObject | null> {
    let handle: FileHandle;
    try {
      handle = await open(this.dataPath(key), 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw Object.assign(new Error('not a file'), { code: 'EISDIR' });
      const contentType = await this.contentType(key);
      return { size: info.size, contentType, modifiedAt: info.mtime, handle };
    } catch (error) {
      await handle.close();
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async put(key: string, body: Buffer | Readable, contentType: string): Promise<void> {
    if (Buffer.isBuffer(body)) {
      const temp = await this.tempPath();
      try {
        await writeFile(temp, body, { flag: 'wx', mode: 0o600 });
        await this.commit(key, temp, contentType);
      } finally {
        await rm(temp, { force: true });
      }
      return;
    }
    try {
      await this.write(key, body, contentType, {});
    } catch (error) {
      body.destroy();
      throw error;
    }
  }

  /**
   * Streams `source` into the object at `key` within `limits`, and resolves with the byte count.
   * Fails with ObjectTooLargeError, ObjectSizeMismatchError or BodyInterruptedError (from
   * byte-limit.ts) without storing anything. `source` is unpiped but never destroyed, so an HTTP
   * route can still answer the request that carried it.
   */
  async write(
    key: string,
    source: Readable,
    contentType: string,
    limits: ByteLimits,
  ): Promise<number> {
    assertSafeKey(key);
    const temp = await this.tempPath();
    const limit = new ByteLimit(limits);
    const detach = feed(source, limit);
    try {
      await pipeline(limit, createWriteStream(temp, { flags: 'wx', mode: 0o600 }));
      await this.commit(key, temp, contentType);
      return limit.bytes;
    } finally {
      detach();
      await rm(temp, { force: true });
    }
  }

  /** Moves a complete temp file into place; the sidecar first, so data never lacks its type. */
  private async commit(key: string, temp: string, contentType: string): Promise<void> {
    const dataPath = this.dataPath(key);
    const metaPath = this.metaPath(key);
    const metaTemp = await this.tempPath();
    try {
      await writeFile(metaTemp, JSON.stringify({ contentType }), { flag: 'wx', mode: 0o600 });
      await mkdir(path.dirname(metaPath), { recursive: true });
      await mkdir(path.dirname(dataPath), { recursive: true });
      await rename(metaTemp, metaPath);
      await rename(temp, dataPath);
    } finally {
      await rm(metaTemp, { force: true });
    }
  }

  async get(key: string): Promise<Readable> {
    const object = await this.open(key);
    if (!object) throw new ObjectNotFoundError(key);
    return object.handle.createReadStream();
  }

  async getBuffer(key: string): Promise<Buffer> {
    try {
      return await readFile(this.dataPath(key));
    } catch (error) {
      if (isMissing(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  /** Removes the object; a key with no object is not an error. */
  async delete(key: string): Promise<void> {
    for (const file of [this.dataPath(key), this.metaPath(key)]) {
      try {
        await unlink(file);
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    }
  }

  /** Every object under `prefix`, a folder of keys (`uploads/`), from the directory tree. */
  async list(prefix: string): Promise<ListedObject[]> {
    const objects = path.join(this.root, 'objects');
    const folder = prefix.replace(/\/+$/, '');
    if (folder !== '') assertSafeKey(folder);
    const start = folder === '' ? objects : path.join(objects, ...folder.split('/'));
    let entries;
    try {
      entries = await readdir(start, { recursive: true, withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const listed: ListedObject[] = [];
    for (const entry of entries) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      const key = path.relative(objects, file).split(path.sep).join('/');
      try {
        listed.push({ key, modifiedAt: (await stat(file)).mtime });
      } catch (error) {
        // Deleted since the directory was read.
        if (!isMissing(error)) throw error;
      }
    }
    return listed;
  }

  /** Creates the directories and writes then removes a probe file. */
  async ping(): Promise<void> {
    const probe = await this.tempPath();
    await writeFile(probe, 'ok', { flag: 'wx' });
    await rm(probe, { force: true });
  }
}
