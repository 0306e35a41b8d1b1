import { randomBytes } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
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

/**
 * Issue 38 row 7: the database dropped, or the server's role no longer allowed to log in, is an
 * outage too (503 with Retry-After on every call), not a 500. Each case gets a database of its
 * own (and a role of its own) that the test then takes away.
 */
describe.runIf(testDatabaseDriver() === 'postgres')('a database taken away', () => {
  const admin = () => new pg.Client({ connectionString: TEST_POSTGRES_URL });
  async function sql(text: string): Promise<void> {
    const client = admin();
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  }
  async function serverOn(name: string, role?: string) {
    const url = new URL(TEST_POSTGRES_URL);
    url.pathname = `/${name}`;
    if (role) {
      url.username = role;
      url.password = '';
    }
    const database = await openDatabase({ driver: 'postgres', url: url.href, poolSize: 2 });
    const testDb: TestDatabase = {
      database,
      url: url.href,
      searchPath: null,
      dispose: () => database.close().catch(() => undefined),
    };
    const server = await startTestServer({ testDb, queue: false });
    return { server, testDb, user: await server.createUser() };
  }
  const expectOutage = async (server: TestServer, user: TestUser) => {
    // The first call may meet the cut connection; every call after it meets the refusal.
    for (let i = 0; i < 3; i += 1) {
      const res = await fetch(`${server.url}/api/my-credits`, {
        headers: { authorization: `Bearer ${user.token}` },
      });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('15');
    }
  };

  it('answers 503 when the database is dropped under the server', async () => {
    const name = `riff_dropped_${randomBytes(4).toString('hex')}`;
    await sql(`create database ${name}`);
    const { server, testDb, user } = await serverOn(name);
    try {
      expect(
        (
          await fetch(`${server.url}/api/my-credits`, {
            headers: { authorization: `Bearer ${user.token}` },
          })
        ).status,
      ).toBe(200);
      await sql(`drop database ${name} with (force)`);
      await expectOutage(server, user);
    } finally {
      await server.close().catch(() => undefined);
      await testDb.dispose();
      await sql(`drop database if exists ${name} with (force)`);
    }
  });

  it("answers 503 when the server's role may no longer log in", async () => {
    const suffix = randomBytes(4).toString('hex');
    const role = `riff_role_${suffix}`;
    const name = `riff_login_${suffix}`;
    await sql(`create role ${role} login`);
    await sql(`create database ${name} owner ${role}`);
    const { server, testDb, user } = await serverOn(name, role);
    try {
      await sql(`alter role ${role} nologin`);
      await sql(`select pg_terminate_backend(pid) from pg_stat_activity where usename = '${role}'`);
      await expectOutage(server, user);
    } finally {
      await server.close().catch(() => undefined);
      await testDb.dispose();
      await sql(`drop database if exists ${name} with (force)`);
      await sql(`drop role if exists ${role}`);
    }
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
    for (const code of ['3D000', '57P04', '28000', '28P01']) {
      expect(isDatabaseOutage(Object.assign(new Error(code), { code }))).toBe(true);
    }
    expect(isDatabaseOutage(new Error('wrapped', { cause: refused }))).toBe(true);
    expect(
      isDatabaseOutage(Object.assign(new Error('syntax error at or near'), { code: '42601' })),
    ).toBe(false);
    expect(isDatabaseOutage(new Error('duplicate key value'))).toBe(false);
    expect(isDatabaseOutage('ECONNREFUSED')).toBe(false);
  });
});
