import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUploadKey, UnsafeKeyError } from '../../src/storage/keys.js';
import { ObjectNotFoundError, type SignedUpload } from '../../src/storage/object-store.js';
import { putFile } from '../../src/storage/put-file.js';
import { startLocalDriver, startS3Driver, type DriverHarness } from './drivers.js';

/**
 * One suite, run against both drivers over real HTTP: the local driver behind this server's
 * routes, and the S3 driver against s3rver behind a SigV4-verifying gate (see sigv4-gate.ts).
 */

function upload(signed: SignedUpload, body: BodyInit, headers: Record<string, string> = {}) {
  return fetch(signed.url, {
    method: signed.method,
    headers: { ...signed.headers, ...headers },
    body,
  });
}

async function bytesOf(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const VIDEO = { contentType: 'video/mp4', maxBytes: 10_000 } as const;

describe.each([
  ['local', startLocalDriver],
  ['s3', startS3Driver],
] as const)('object store, %s driver', (driver, start) => {
  let d: DriverHarness;
  /** 1000 random bytes stored at `storedKey` by the first test's upload. */
  const body = randomBytes(1000);
  const storedKey = newUploadKey('tester');

  beforeAll(async () => {
    d = await start();
  });
  afterAll(async () => {
    await d.close();
  });

  it('round-trips a signed PUT and a signed GET', async () => {
    const signed = await d.store.createUploadUrl(storedKey, { ...VIDEO, exactBytes: body.length });
    expect(signed.method).toBe('PUT');
    expect(signed.headers).toEqual({ 'Content-Type': 'video/mp4' });
    const put = await upload(signed, body);
    expect(put.ok).toBe(true);
    expect(await d.store.head(storedKey)).toEqual({ size: 1000, contentType: 'video/mp4' });

    const get = await fetch(await d.store.createDownloadUrl(storedKey));
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('video/mp4');
    expect(get.headers.get('content-length')).toBe('1000');
    expect(await bytesOf(get)).toEqual(body);
  });

  it('serves a middle slice as 206 with exactly those bytes', async () => {
    const url = await d.store.createDownloadUrl(storedKey);
    const res = await fetch(url, { headers: { range: 'bytes=100-199' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(await bytesOf(res)).toEqual(body.subarray(100, 200));
  });

  it('serves an open-ended range as 206', async () => {
    const url = await d.store.createDownloadUrl(storedKey);
    const res = await fetch(url, { headers: { range: 'bytes=990-' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('bytes 990-999/1000');
    expect(await bytesOf(res)).toEqual(body.subarray(990));
  });

  // s3rver 3.7.1 reads `bytes=-n` as `bytes=0-n` (it splits on "-" and takes start 0): real S3
  // serves the last n bytes. The S3 case is expected to fail until s3rver does the same.
  (driver === 's3' ? it.fails : it)(
    'serves a suffix range as 206 with the last bytes',
    async () => {
      const url = await d.store.createDownloadUrl(storedKey);
      const res = await fetch(url, { headers: { range: 'bytes=-10' } });
      expect(res.status).toBe(206);
      expect(res.headers.get('content-range')).toBe('bytes 990-999/1000');
      expect(await bytesOf(res)).toEqual(body.subarray(990));
    },
  );

  it('answers 416 for a range that starts past the end', async () => {
    const url = await d.store.createDownloadUrl(storedKey);
    const res = await fetch(url, { headers: { range: 'bytes=5000-' } });
    expect(res.status).toBe(416);
    await res.arrayBuffer();
  });

  it('serves a signed download name and content type', async () => {
    const url = await d.store.createDownloadUrl(storedKey, {
      downloadName: 'My "lesson".mp4',
      contentType: 'application/octet-stream',
    });
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="My lesson.mp4"; filename*=UTF-8''My%20lesson.mp4`,
    );
    expect(await bytesOf(res)).toEqual(body);
  });

  it('refuses expired upload and download links', async () => {
    const key = newUploadKey('tester');
    const signed = await d.pastStore.createUploadUrl(key, { ...VIDEO, expiresInSeconds: 60 });
    expect((await upload(signed, 'data')).status).toBe(d.refusals.expired);
    expect(await d.store.head(key)).toBeNull();
    const url = await d.pastStore.createDownloadUrl(storedKey, { expiresInSeconds: 60 });
    expect((await fetch(url)).status).toBe(d.refusals.expired);
  });

  it('refuses a link whose signature was changed', async () => {
    const key = newUploadKey('tester');
    const signed = await d.store.createUploadUrl(key, VIDEO);
    const put = await upload({ ...signed, url: d.tamperSignature(signed.url) }, 'data');
    expect(put.status).toBe(d.refusals.tampered);
    expect(await d.store.head(key)).toBeNull();
    const url = d.tamperSignature(await d.store.createDownloadUrl(storedKey));
    expect((await fetch(url)).status).toBe(d.refusals.tampered);
  });

  it('refuses a link whose object key was changed', async () => {
    const signed = await d.store.createUploadUrl(newUploadKey('tester'), VIDEO);
    const tampered = d.tamperKey(signed.url);
    expect((await upload({ ...signed, url: tampered.url }, 'data')).status).toBe(
      d.refusals.tampered,
    );
    expect(await d.store.head(tampered.key)).toBeNull();
    const url = d.tamperKey(await d.store.createDownloadUrl(storedKey)).url;
    expect((await fetch(url)).status).toBe(d.refusals.tampered);
  });

  it('refuses links signed with another secret or credentials', async () => {
    const key = newUploadKey('tester');
    const signed = await d.foreignStore.createUploadUrl(key, VIDEO);
    expect((await upload(signed, 'data')).status).toBe(d.refusals.foreign);
    expect(await d.store.head(key)).toBeNull();
    const url = await d.foreignStore.createDownloadUrl(storedKey);
    expect((await fetch(url)).status).toBe(d.refusals.foreign);
  });

  it('refuses a body larger than the declared size', async () => {
    const key = newUploadKey('tester');
    const signed = await d.store.createUploadUrl(key, { ...VIDEO, exactBytes: 10 });
    expect((await upload(signed, randomBytes(11))).status).toBe(d.refusals.tooLarge);
    expect(await d.store.head(key)).toBeNull();
  });

  it('refuses a content type other than the signed one', async () => {
    const key = newUploadKey('tester');
    const signed = await d.store.createUploadUrl(key, VIDEO);
    const put = await upload(signed, '<script>alert(1)</script>', { 'Content-Type': 'text/html' });
    expect(put.status).toBe(d.refusals.wrongType);
    expect(await d.store.head(key)).toBeNull();
  });

  it('puts, heads, gets, reads and deletes objects directly', async () => {
    const key = 'jobs/job-1/original/notes.json';
    const json = Buffer.from(JSON.stringify([{ time: 1.5, pitch: 64 }]));
    await d.store.put(key, json, 'application/json');
    expect(await d.store.head(key)).toEqual({ size: json.length, contentType: 'application/json' });
    expect(await d.store.getBuffer(key)).toEqual(json);
    expect(await collect(await d.store.get(key))).toEqual(json);

    const replaced = Buffer.from('[]');
    await d.store.put(key, replaced, 'application/json');
    expect(await d.store.getBuffer(key)).toEqual(replaced);

    await d.store.delete(key);
    expect(await d.store.head(key)).toBeNull();
    await d.store.delete(key);
  });

  it('stores a stream of unknown length larger than one multipart part', async () => {
    const key = 'jobs/job-1/video.mp4';
    const big = randomBytes(11 * 1024 * 1024 + 123);
    const chunks = Array.from({ length: Math.ceil(big.length / 65_536) }, (_, i) =>
      big.subarray(i * 65_536, (i + 1) * 65_536),
    );
    await d.store.put(key, Readable.from(chunks), 'video/mp4');
    expect(await d.store.head(key)).toEqual({ size: big.length, contentType: 'video/mp4' });
    expect((await d.store.getBuffer(key)).equals(big)).toBe(true);
    await d.store.delete(key);
  });

  it('lists the objects under a folder (the upload sweeper)', async () => {
    const keys = [newUploadKey('lister'), newUploadKey('lister'), 'jobs/listed/notes.json'];
    for (const key of keys) await d.store.put(key, Buffer.from('x'), 'application/json');
    const listed = (await d.store.list('uploads/lister/')).map((o) => o.key).sort();
    expect(listed).toEqual(keys.slice(0, 2).sort());
    const uploads = await d.store.list('uploads/');
    expect(uploads.map((o) => o.key)).toEqual(expect.arrayContaining(keys.slice(0, 2)));
    expect(uploads.every((o) => o.key.startsWith('uploads/'))).toBe(true);
    expect(uploads.every((o) => o.modifiedAt.getTime() > Date.now() - 600_000)).toBe(true);
    expect(await d.store.list('uploads/nobody/')).toEqual([]);
    for (const key of keys) await d.store.delete(key);
  });

  it('stores a file by its path, and refuses a missing one without an uncaught error', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-put-file-'));
    try {
      const file = path.join(dir, 'poster.jpg');
      writeFileSync(file, body);
      const key = newUploadKey('tester');
      expect(await putFile(d.store, key, file, 'image/jpeg')).toBe(body.length);
      expect(await d.store.getBuffer(key)).toEqual(body);
      expect(await d.store.head(key)).toEqual({ size: body.length, contentType: 'image/jpeg' });
      // The file is gone by the time it is stored (a stream made from its path would throw
      // an uncaught ENOENT here, which Vitest reports as an error of this file).
      const gone = path.join(dir, 'gone.jpg');
      await expect(putFile(d.store, newUploadKey('tester'), gone, 'image/jpeg')).rejects.toThrow(
        /ENOENT/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports missing objects', async () => {
    const key = 'jobs/none/results.json';
    expect(await d.store.head(key)).toBeNull();
    await expect(d.store.get(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    await expect(d.store.getBuffer(key)).rejects.toBeInstanceOf(ObjectNotFoundError);
    expect((await fetch(await d.store.createDownloadUrl(key))).status).toBe(404);
  });

  it('refuses unsafe keys before touching storage', async () => {
    for (const key of ['../x', '/abs', 'a\\b']) {
      await expect(d.store.put(key, Buffer.from('x'), 'text/plain')).rejects.toBeInstanceOf(
        UnsafeKeyError,
      );
      await expect(d.store.createUploadUrl(key, VIDEO)).rejects.toBeInstanceOf(UnsafeKeyError);
      await expect(d.store.head(key)).rejects.toBeInstanceOf(UnsafeKeyError);
    }
  });

  it('answers ping', async () => {
    await expect(d.store.ping()).resolves.toBeUndefined();
  });
});
