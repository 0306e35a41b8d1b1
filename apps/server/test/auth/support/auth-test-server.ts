import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp, type App } from '../../../src/app.js';
import { registerAuthRoutes } from '../../../src/auth/auth.routes.js';
import { loadConfig, type Config } from '../../../src/config.js';
import type { AppContext } from '../../../src/context.js';
import { LocalObjectStore } from '../../../src/storage/local-store.js';
import { freePort } from '../../support/net.js';
import { openTestDatabase, type TestDatabase } from '../../support/test-database.js';

export { freePort };

export interface AuthTestServer {
  url: string;
  app: App;
  ctx: AppContext;
  config: Config;
  testDb: TestDatabase;
  close(): Promise<void>;
}

async function build(ctx: AppContext, withAuthPlugin: boolean): Promise<App> {
  return buildApp(ctx, {
    // AUTH_TEST_LOGS=1 shows the server's log while debugging a test.
    logger: process.env.AUTH_TEST_LOGS === '1' ? { level: 'info' } : false,
    plugins: withAuthPlugin ? [(app, services) => registerAuthRoutes(app, ctx, services)] : [],
  });
}

/**
 * The app with the sign-in routes. Until the lead wires registerAuthRoutes into
 * routes/index.ts, they are added through buildApp's `plugins` option; once wired, the app
 * already has them and the option is left out (registering twice would be a duplicate route).
 */
export async function buildAuthApp(ctx: AppContext): Promise<App> {
  const app = await build(ctx, false);
  await app.ready();
  if (app.routeTable.some((r) => r.method === 'GET' && r.url === '/api/auth/login')) return app;
  await app.close();
  return build(ctx, true);
}

/**
 * The real app on a free loopback port with its own in-memory database and data directory, no
 * job queue (sign-in does not need one), local storage, and the development provider (no
 * OIDC_ISSUER). It does not use test/support/test-server.ts so that these tests load neither the
 * queue nor the S3 SDK.
 */
export async function startAuthTestServer(
  options: { env?: Record<string, string> } = {},
): Promise<AuthTestServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'riffscribe-auth-test-'));
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
    RIFFSCRIBE_SECRET: randomBytes(32).toString('base64url'),
    ...options.env,
  });
  const testDb = await openTestDatabase('pglite');
  const ctx: AppContext = {
    config,
    database: testDb.database,
    // Local storage only: sign-in never touches it, and the S3 driver is not needed here.
    store: new LocalObjectStore({
      dir: path.join(dataDir, 'objects'),
      publicUrl: url,
      secret: config.secret,
    }),
    queue: null,
  };
  const app = await buildAuthApp(ctx);
  await app.listen({ host: '127.0.0.1', port });
  return {
    url,
    app,
    ctx,
    config,
    testDb,
    async close() {
      await app.close();
      await testDb.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
