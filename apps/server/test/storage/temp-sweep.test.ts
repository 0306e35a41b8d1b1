import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { processStartTicks } from '@riffscribe/engine/media-tools';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalObjectStore } from '../../src/storage/local-store.js';

/**
 * Issue 38 row 9: an upload cut by a SIGTERM (or a SIGKILL) leaves its partial file in the
 * store's tmp/; the next start removes the files of writers that are gone, and keeps those of a
 * process that still writes (a sibling sharing the data folder).
 */
describe('the local store at start', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-temp-sweep-'));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('removes partial writes of processes that are gone, keeps a live writer’s', async () => {
    const tmp = path.join(dir, 'tmp');
    mkdirSync(tmp, { recursive: true });
    const gone = '999999999.12345-0f0e0d0c';
    const live = `${String(process.pid)}.${processStartTicks(process.pid) ?? ''}-0a0b0c0d`;
    const reused = `${String(process.pid)}.1-0a0b0c0e`;
    const oldUnnamed = '7c0e3a52-old';
    const newUnnamed = '7c0e3a52-new';
    for (const name of [gone, live, reused, oldUnnamed, newUnnamed]) {
      writeFileSync(path.join(tmp, name), Buffer.alloc(1024));
    }
    const hoursAgo = new Date(Date.now() - 2 * 3600_000);
    utimesSync(path.join(tmp, oldUnnamed), hoursAgo, hoursAgo);

    const store = new LocalObjectStore({
      dir,
      publicUrl: 'http://127.0.0.1:1',
      secret: 'x'.repeat(32),
    });
    const removed = await store.swept;
    expect(removed.sort()).toEqual([gone, oldUnnamed, reused].sort());
    expect(readdirSync(tmp).sort()).toEqual([live, newUnnamed].sort());
  });

  it('names its own temp files after this process', async () => {
    const store = new LocalObjectStore({
      dir,
      publicUrl: 'http://127.0.0.1:1',
      secret: 'x'.repeat(32),
    });
    await store.swept;
    // A write in flight (a stream that has not ended): its temp file carries the writer's name.
    const body = new PassThrough();
    const writing = store.write('objects-test/file.bin', body, 'application/octet-stream', {});
    body.write(Buffer.alloc(64 * 1024));
    await expect
      .poll(
        () =>
          readdirSync(path.join(dir, 'tmp')).filter((n) => n.startsWith(`${String(process.pid)}.`))
            .length,
      )
      .toBeGreaterThan(0);
    body.end();
    await writing;
    expect(readdirSync(path.join(dir, 'tmp')).filter((n) => !n.includes('0a0b0c0d'))).toEqual([
      '7c0e3a52-new',
    ]);
  });
});
