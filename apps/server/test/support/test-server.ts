import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Role } from '@riffscribe/core';
import type { DestinationStream } from 'pino';
import { buildApp, type App } from '../../src/app.js';
import { SessionsRepository } from '../../src/auth/sessions.repository.js';
import { accessTokenKey, issueAccessToken } from '../../src/auth/tokens.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { AppContext } from '../../src/context.js';
import { JobQueue, type JobQueueOptions } from '../../src/queue/job-queue.js';
import { createObjectStore } from '../../src/storage/create-store.js';
import type { Services } from '../../src/services/index.js';
import { freePort } from './net.js';
import { openTestDatabase, type TestDatabase } from './test-database.js';

export { freePort };

export interface TestUser {
  uid: string;
  email: string;
  handle: string;
  role: Role;
  token: string;
  sid: string;
}

export interface TestServer {
  url: string;
  app: App;
  ctx: AppContext;
  config: Config;
  services: Services;
  testDb: TestDatabase;
  /** Creates a user (with the sign-up grant) and a valid access token for them. */
  createUser(options?: { email?: string; role?: Role }): Promise<TestUser>;
  /** A new access token for the same user, as a new sign-in session would get. */
  newSession(user: TestUser): Promise<TestUser>;
  /** fetch against the server with an optional bearer token and JSON body. */
  request(
    method: string,
    pathAndQuery: string,
    options?: {
      token?: string | null;
      json?: unknown;
      body?: BodyInit;
      headers?: Record<string, string>;
      redirect?: RequestRedirect;
    },
  ): Promise<Response>;
  close(): Promise<void>;
}

/**
 * Starts the real server on a free loopback port, with its own database (the driver the test
 * project selects), its own storage directory and a generated secret.
 */
export async function startTestServer(
  options: {
    env?: Record<string, string>;
    testDb?: TestDatabase;
    queue?: boolean;
    /** Retry delay and expiry of the job queue (the schema follows the test database). */
    queueOptions?: Omit<JobQueueOptions, 'schema'>;
    /** Capture the server's real log here (set LOG_LEVEL in `env`); default: no log. */
    logStream?: DestinationStream;
  } = {},
): Promise<TestServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'riffscribe-test-'));
  const url = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    SERVE_WEB: 'false',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_MINUTE: '1000000',
    RATE_LIMIT_WRITES_PER_MINUTE: '1000000',
    RATE_LIMIT_AUTH_PER_MINUTE: '1000000',
    RATE_LIMIT_STATIC_PER_MINUTE: '1000000',
    UPLOAD_RATE_LIMIT_PER_MINUTE: '1000000',
    RIFFSCRIBE_SECRET: randomBytes(32).toString('base64url'),
    ...options.env,
  });
  const testDb = options.testDb ?? (await openTestDatabase());
  const queue =
    options.queue === false
      ? null
      : await JobQueue.start(testDb.database, {
          ...options.queueOptions,
          ...(testDb.searchPath ? { schema: testDb.searchPath } : {}),
        });
  const ctx: AppContext = {
    config,
    database: testDb.database,
    store: createObjectStore(config),
    queue,
  };
  // The app's own services, so a test sees what the routes did (the export cache's counts).
  const built: { services?: Services } = {};
  const app = await buildApp(ctx, {
    ...(options.logStream ? { logStream: options.logStream } : { logger: false }),
    plugins: [
      (_app, appServices) => {
        built.services = appServices;
      },
    ],
  });
  const services = built.services;
  if (!services) throw new Error('buildApp did not hand its services to the plugins');
  await app.listen({ host: '127.0.0.1', port });
  const key = accessTokenKey(config.secret);
  const sessionsTable = new SessionsRepository(testDb.database.db);

  const tokenFor = async (user: Omit<TestUser, 'token' | 'sid'>) => {
    const sid = randomUUID();
    // A live session behind the token, as signing in makes (the API refuses tokens without one).
    await sessionsTable.insert({
      id: sid,
      userId: user.uid,
      expiresAt: new Date(Date.now() + 24 * 3600 * 1000),
    });
    const token = await issueAccessToken(key, config.publicUrl, { ...user, sid });
    return { ...user, sid, token };
  };

  return {
    url,
    app,
    ctx,
    config,
    services,
    testDb,
    async createUser({ email, role } = {}) {
      const address = email ?? `player-${randomBytes(4).toString('hex')}@example.test`;
      let user = await services.accounts.signIn({
        issuer: 'test',
        subject: randomUUID(),
        email: address,
        name: null,
      });
      if (role && role !== user.role) {
        await services.accounts.users.setRole(user.uid, role);
        user = { ...user, role };
      }
      return tokenFor({ uid: user.uid, email: user.email, handle: user.handle, role: user.role });
    },
    newSession: (user) => tokenFor(user),
    async request(method, pathAndQuery, { token, json, body, headers, redirect } = {}) {
      const h: Record<string, string> = { ...headers };
      if (token) h.authorization = `Bearer ${token}`;
      if (json !== undefined) h['content-type'] = 'application/json';
      const send = () =>
        fetch(`${url}${pathAndQuery}`, {
          method,
          headers: h,
          redirect: redirect ?? 'manual',
          ...(json !== undefined
            ? { body: JSON.stringify(json) }
            : body !== undefined
              ? { body }
              : {}),
        });
      try {
        return await send();
      } catch (error) {
        // A pooled keep-alive connection the server closed just as this request reused it (the
        // server's keep-alive timeout and the client's race when timers run late on a machine
        // loaded far beyond its cores): the request never reached a handler, so it is sent again
        // once on a new connection. A stream body cannot be sent twice.
        const code = ((error as Error).cause as { code?: string } | undefined)?.code;
        const resend = code === 'ECONNRESET' || code === 'UND_ERR_SOCKET';
        if (!resend || (body !== undefined && typeof body !== 'string')) throw error;
        return send();
      }
    },
    async close() {
      await app.close();
      await queue?.stop();
      if (!options.testDb) await testDb.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
