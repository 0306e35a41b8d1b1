import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseOutage } from '../../src/errors.js';
import { freePort } from '../support/net.js';
import {
  openTestDatabase,
  testDatabaseDriver,
  TEST_POSTGRES_URL,
  type TestDatabase,
} from '../support/test-database.js';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

/**
 * Issue 13: a database outage answers 503 with Retry-After, not 500. PostgreSQL is reached
 * through a TCP proxy the test cuts and restores (PGlite lives in the process and cannot go
 * away, so the test runs in the postgres project, which CI requires).
 */
describe.runIf(testDatabaseDriver() === 'postgres')('a database outage', () => {
  let server: TestServer;
  let testDb: TestDatabase;
  let user: TestUser;
  let proxy: Server;
  let port: number;
  const sockets = new Set<Socket>();
  const target = new URL(TEST_POSTGRES_URL);

  const listen = () =>
    new Promise<void>((resolve) => {
      proxy = createServer((client) => {
        const upstream = connect(Number(target.port || 5432), target.hostname);
        sockets.add(client).add(upstream);
        client.pipe(upstream).pipe(client);
        const end = () => {
          client.destroy();
          upstream.destroy();
        };
        client.on('error', end).on('close', end);
        upstream.on('error', end).on('close', end);
      });
      proxy.listen(port, '127.0.0.1', resolve);
    });
  const cut = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      sockets.clear();
      proxy.close(() => {
        resolve();
      });
    });

  beforeAll(async () => {
    port = await freePort();
    await listen();
    const via = new URL(TEST_POSTGRES_URL);
    via.hostname = '127.0.0.1';
    via.port = String(port);
    testDb = await openTestDatabase('postgres', { connectUrl: via.href });
    server = await startTestServer({ testDb, queue: false });
    user = await server.createUser();
  });

  afterAll(async () => {
    if (!proxy.listening) await listen();
    await server.close();
    await testDb.dispose();
  });

  it('answers 503 with Retry-After while PostgreSQL is unreachable, and recovers', async () => {
    const me = () =>
      fetch(`${server.url}/api/me`, { headers: { authorization: `Bearer ${user.token}` } });
    expect((await me()).status).toBe(200);

    await cut();
    const down = await me();
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('15');
    expect(await down.json()).toEqual({
      error: 'The service is briefly unavailable. Please try again in a moment.',
    });

    await listen();
    await expect.poll(async () => (await me()).status, { timeout: 20_000 }).toBe(200);
  });
});

describe('isDatabaseOutage', () => {
  it('tells an unreachable database from a fault in a query', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    expect(isDatabaseOutage(refused)).toBe(true);
    expect(isDatabaseOutage(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseOutage(Object.assign(new Error('admin shutdown'), { code: '57P01' }))).toBe(
      true,
    );
    expect(isDatabaseOutage(Object.assign(new Error('x'), { code: '08006' }))).toBe(true);
    expect(isDatabaseOutage(new Error('wrapped', { cause: refused }))).toBe(true);
    expect(
      isDatabaseOutage(Object.assign(new Error('syntax error at or near'), { code: '42601' })),
    ).toBe(false);
    expect(isDatabaseOutage(new Error('duplicate key value'))).toBe(false);
    expect(isDatabaseOutage('ECONNREFUSED')).toBe(false);
  });
});
