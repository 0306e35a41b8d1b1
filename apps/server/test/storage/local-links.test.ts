import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { request, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUploadKey } from '../../src/storage/keys.js';
import { startLocalDriver, type LocalHarness } from './drivers.js';

/** The local driver's HTTP edges: streaming limits, refusal messages, ranges and headers. */

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * PUT with node:http, so that the test controls the bytes on the wire (chunked or not, complete
 * or not) and still reads an answer the server gives before the body is over.
 */
function rawPut(
  url: string,
  headers: OutgoingHttpHeaders,
  chunks: Iterable<Buffer>,
  end = true,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'PUT', headers });
    // An object, not a `let`: the writer loop must see the change made in the callback.
    const state = { answered: false };
    req.on('response', (res) => {
      state.answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
        req.destroy();
      });
    });
    req.on('error', (error) => {
      if (!state.answered) reject(error);
    });
    void (async () => {
      for (const chunk of chunks) {
        if (state.answered || req.destroyed) return;
        req.write(chunk);
        await sleep(1);
      }
      if (end && !state.answered) req.end();
    })();
  });
}

function* repeat(chunk: Buffer, times: number): Generator<Buffer> {
  for (let i = 0; i < times; i++) yield chunk;
}

/** Polls `check` until it holds; the limit is a hang guard, generous for a busy machine. */
async function eventually(check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(20);
  }
}

describe('local storage links over HTTP', () => {
  let h: LocalHarness;
  const video = { contentType: 'video/mp4', maxBytes: 100_000 } as const;
  const tempFiles = () => {
    const dir = path.join(h.dir, 'tmp');
    return existsSync(dir) ? readdirSync(dir) : [];
  };

  beforeAll(async () => {
    h = await startLocalDriver();
  });
  afterAll(async () => {
    await h.close();
  });

  it('streams an upload far past the server-wide 1 MiB body limit to disk', async () => {
    const key = newUploadKey('tester');
    const body = randomBytes(3 * 1024 * 1024);
    const signed = await h.store.createUploadUrl(key, { contentType: 'video/mp4', maxBytes: null });
    const res = await fetch(signed.url, { method: 'PUT', headers: signed.headers, body });
    expect(res.status).toBe(204);
    expect((await h.store.getBuffer(key)).equals(body)).toBe(true);
  });

  it('refuses a declared Content-Length over the limit before reading the body', async () => {
    const key = newUploadKey('tester');
    const signed = await h.store.createUploadUrl(key, video);
    // 50 MB announced, 10 bytes sent, never finished: only an early answer can end this.
    const res = await rawPut(
      signed.url,
      { 'content-type': 'video/mp4', 'content-length': 50_000_000 },
      [Buffer.alloc(10)],
      false,
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body)).toEqual({
      error: 'The file is larger than this upload link allows.',
    });
    expect(await h.store.head(key)).toBeNull();
  });

  it('cuts off a chunked upload once it passes the limit and keeps no part of it', async () => {
    const key = newUploadKey('tester');
    const signed = await h.store.createUploadUrl(key, video);
    const res = await rawPut(
      signed.url,
      { 'content-type': 'video/mp4', 'transfer-encoding': 'chunked' },
      repeat(randomBytes(16 * 1024), 64),
      false,
    );
    expect(res.status).toBe(413);
    expect(await h.store.head(key)).toBeNull();
    await eventually(() => tempFiles().length === 0);
  });

  it('accepts a chunked upload within the limit', async () => {
    const key = newUploadKey('tester');
    const signed = await h.store.createUploadUrl(key, video);
    const chunk = randomBytes(10_000);
    const res = await rawPut(
      signed.url,
      { 'content-type': 'video/mp4', 'transfer-encoding': 'chunked' },
      repeat(chunk, 10),
    );
    expect(res.status).toBe(204);
    expect(await h.store.head(key)).toEqual({ size: 100_000, contentType: 'video/mp4' });
  });

  it('refuses a body that differs from the declared exact size', async () => {
    const key = newUploadKey('tester');
    const signed = await h.store.createUploadUrl(key, { ...video, exactBytes: 100 });
    const short = await fetch(signed.url, {
      method: 'PUT',
      headers: signed.headers,
      body: randomBytes(50),
    });
    expect(short.status).toBe(400);
    const chunked = await rawPut(
      signed.url,
      { 'content-type': 'video/mp4', 'transfer-encoding': 'chunked' },
      [randomBytes(50)],
    );
    expect(chunked.status).toBe(400);
    expect(JSON.parse(chunked.body)).toEqual({
      error: 'The file size does not match the size declared for this upload.',
    });
    expect(await h.store.head(key)).toBeNull();
  });

  it('keeps nothing when the uploader goes away in the middle of the body', async () => {
    const key = newUploadKey('tester');
    const signed = await h.store.createUploadUrl(key, video);
    const req = request(signed.url, {
      method: 'PUT',
      headers: { 'content-type': 'video/mp4', 'content-length': 1000 },
    });
    req.on('error', () => undefined);
    req.write(randomBytes(100));
    await sleep(50);
    req.destroy();
    await eventually(() => tempFiles().length === 0);
    expect(await h.store.head(key)).toBeNull();
  });

  it('shows readers the old object until a replacement is complete', async () => {
    const key = newUploadKey('tester');
    const old = Buffer.from('old object');
    await h.store.put(key, old, 'video/mp4');
    const signed = await h.store.createUploadUrl(key, video);
    const req = request(signed.url, {
      method: 'PUT',
      headers: { 'content-type': 'video/mp4', 'content-length': 20 },
    });
    const answered = new Promise<number>((resolve) => {
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
    });
    req.write(Buffer.from('new object'));
    await sleep(50);
    expect(await h.store.getBuffer(key)).toEqual(old);
    req.end(Buffer.from(' completed'));
    expect(await answered).toBe(204);
    expect((await h.store.getBuffer(key)).toString()).toBe('new object completed');
  });

  it('accepts the signed type with another case and parameters', async () => {
    const key = newUploadKey('tester');
    const signed = await h.store.createUploadUrl(key, video);
    const res = await fetch(signed.url, {
      method: 'PUT',
      headers: { 'content-type': 'Video/MP4; codecs=avc1' },
      body: 'data',
    });
    expect(res.status).toBe(204);
    expect(await h.store.head(key)).toEqual({ size: 4, contentType: 'video/mp4' });
  });

  it('explains each refusal in a JSON sentence', async () => {
    const key = newUploadKey('tester');
    await h.store.put(key, Buffer.from('0123456789'), 'video/mp4');
    const refusal = async (res: Response) => ({
      status: res.status,
      body: (await res.json()) as unknown,
    });
    const put = (url: string, type = 'video/mp4') =>
      fetch(url, { method: 'PUT', headers: { 'content-type': type }, body: 'data' }).then(refusal);

    const expired = await h.pastStore.createUploadUrl(key, { ...video, expiresInSeconds: 60 });
    expect(await put(expired.url)).toEqual({
      status: 403,
      body: { error: 'This upload link has expired.' },
    });
    const expiredGet = await h.pastStore.createDownloadUrl(key, { expiresInSeconds: 60 });
    expect(await fetch(expiredGet).then(refusal)).toEqual({
      status: 403,
      body: { error: 'This download link has expired.' },
    });
    const signed = await h.store.createUploadUrl(key, video);
    expect(await put(h.tamperSignature(signed.url))).toEqual({
      status: 403,
      body: { error: 'This storage link is not valid.' },
    });
    expect(await put(signed.url, 'text/html')).toEqual({
      status: 415,
      body: { error: 'This upload link only accepts video/mp4 files.' },
    });
    const unsigned = new URL(signed.url);
    unsigned.searchParams.delete('key');
    expect(await put(unsigned.toString())).toEqual({
      status: 400,
      body: { error: 'This storage link is not valid.' },
    });
    const download = await h.store.createDownloadUrl(key);
    expect(await put(download)).toEqual({
      status: 403,
      body: { error: 'This link does not allow uploads.' },
    });
    expect(await fetch(signed.url).then(refusal)).toEqual({
      status: 403,
      body: { error: 'This link does not allow downloads.' },
    });
    const missing = await h.store.createDownloadUrl(newUploadKey('tester'));
    expect(await fetch(missing).then(refusal)).toEqual({
      status: 404,
      body: { error: 'This file is not available.' },
    });
    expect((await h.store.getBuffer(key)).toString()).toBe('0123456789');
  });

  describe('downloads', () => {
    const key = newUploadKey('tester');
    const body = randomBytes(1000);
    beforeAll(async () => {
      await h.store.put(key, body, 'video/mp4');
    });

    it('answers HEAD with the size, type and ranges and no body', async () => {
      const res = await fetch(await h.store.createDownloadUrl(key), { method: 'HEAD' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-length')).toBe('1000');
      expect(res.headers.get('content-type')).toBe('video/mp4');
      expect(res.headers.get('accept-ranges')).toBe('bytes');
      expect((await res.arrayBuffer()).byteLength).toBe(0);
      const ranged = await fetch(await h.store.createDownloadUrl(key), {
        method: 'HEAD',
        headers: { range: 'bytes=0-99' },
      });
      expect(ranged.status).toBe(206);
      expect(ranged.headers.get('content-length')).toBe('100');
    });

    it('marks objects private, not sniffable and sandboxed', async () => {
      const res = await fetch(await h.store.createDownloadUrl(key));
      await res.arrayBuffer();
      expect(res.headers.get('cache-control')).toMatch(/^private, max-age=(9\d\d|900)$/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain('sandbox');
      expect(res.headers.get('content-disposition')).toBeNull();
    });

    it('answers 416 with the size for an unsatisfiable range', async () => {
      const res = await fetch(await h.store.createDownloadUrl(key), {
        headers: { range: 'bytes=1000-' },
      });
      expect(res.status).toBe(416);
      expect(res.headers.get('content-range')).toBe('bytes */1000');
      expect(await res.json()).toEqual({ error: 'The requested range is not satisfiable.' });
    });

    it('serves the whole object for a multi-range request', async () => {
      const res = await fetch(await h.store.createDownloadUrl(key), {
        headers: { range: 'bytes=0-1,5-6' },
      });
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true);
    });

    it('serves an empty object', async () => {
      const empty = newUploadKey('tester');
      const signed = await h.store.createUploadUrl(empty, video);
      const put = await fetch(signed.url, { method: 'PUT', headers: signed.headers, body: '' });
      expect(put.status).toBe(204);
      const url = await h.store.createDownloadUrl(empty);
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-length')).toBe('0');
      expect((await res.arrayBuffer()).byteLength).toBe(0);
      expect((await fetch(url, { headers: { range: 'bytes=0-' } })).status).toBe(416);
    });
  });
});
