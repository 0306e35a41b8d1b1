import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseDriver } from '../support/test-database.js';
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
