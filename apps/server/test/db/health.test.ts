import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testDatabaseDriver } from '../support/test-database.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/**
 * Issue 13: what anyone may learn from /api/health (no paths, hosts or drivers' messages), and
 * the security headers over plain http and behind https.
 */
describe(`health and transport headers (${testDatabaseDriver()})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('names a failing part without its details; the details go to the log', async () => {
    const storage = server.config.storage;
    if (storage.driver !== 'local') throw new Error('the test server stores locally');
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    // The storage's scratch folder replaced by a file: every write there fails (ENOTDIR).
    const scratch = path.join(storage.dir, 'tmp');
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(storage.dir, { recursive: true });
    writeFileSync(scratch, 'not a folder');
    try {
      const res = await fetch(`${server.url}/api/health`);
      expect(res.status).toBe(503);
      const text = await res.text();
      expect(JSON.parse(text)).toMatchObject({
        status: 'degraded',
        database: { ok: true },
        storage: { ok: false, error: 'The storage is not answering.' },
        queue: { ok: true },
      });
      expect(text).not.toContain(storage.dir);
      expect(text).not.toMatch(/ENOTDIR|127\.0\.0\.1|5432/);
    } finally {
      rmSync(scratch, { force: true });
    }
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  });

  it('is degraded while the database answers reads but cannot store anything; writes say 503', async () => {
    // One connection (PGlite has one anyway), made read-only the way a read-only or full disk
    // or a read-only server refuses writes: reads work, every commit of a write fails.
    const testDb = await openTestDatabase(testDatabaseDriver(), { poolSize: 1 });
    const readOnly = await startTestServer({ testDb, queue: false });
    try {
      const user = await readOnly.createUser();
      // No job queue here: only the database's part of the answer is looked at.
      const databasePart = async () =>
        ((await (await fetch(`${readOnly.url}/api/health`)).json()) as { database: unknown })
          .database;
      expect(await databasePart()).toMatchObject({ ok: true });
      await testDb.database.executeSql('set session characteristics as transaction read only');
      const res = await fetch(`${readOnly.url}/api/health`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({
        status: 'degraded',
        database: { ok: false, error: 'The database answers but cannot store anything.' },
      });
      // Reads still answer; a write is a 503 the client may retry, not a 500.
      expect((await readOnly.request('GET', '/api/me', { token: user.token })).status).toBe(200);
      const write = await readOnly.request('POST', '/api/upgrade-requests', {
        token: user.token,
        json: { message: '' },
      });
      expect(write.status).toBe(503);
      expect(write.headers.get('retry-after')).toBe('15');
      expect(await write.json()).toEqual({
        error: 'The service is briefly unavailable. Please try again in a moment.',
      });
      await testDb.database.executeSql('set session characteristics as transaction read write');
      expect(await databasePart()).toMatchObject({ ok: true });
    } finally {
      await readOnly.close();
      await testDb.dispose();
    }
  });

  it('sends no HSTS and no upgrade-insecure-requests over plain http', async () => {
    const res = await fetch(`${server.url}/api/health`);
    expect(res.headers.get('strict-transport-security')).toBeNull();
    expect(res.headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('sends both when the public URL is https (TLS at a proxy)', async () => {
    const secure = await startTestServer({
      queue: false,
      env: { PUBLIC_URL: 'https://riffscribe.example' },
    });
    try {
      const res = await fetch(`${secure.url}/api/health`);
      expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
      expect(res.headers.get('content-security-policy')).toContain('upgrade-insecure-requests');
    } finally {
      await secure.close();
    }
  });
});
