import { afterAll, beforeAll } from 'vitest';
import { startAuthTestServer, type AuthTestServer } from './support/auth-test-server.js';
import { adminSeedingSuite } from './suites/admin-seeding.suite.js';
import { callbackChecksSuite } from './suites/callback-checks.suite.js';
import { externalIssuerSuite } from './suites/external-issuer.suite.js';
import { sessionSuite } from './suites/session.suite.js';
import { signInFlowSuite } from './suites/sign-in-flow.suite.js';

/**
 * Sign-in over real HTTP against one started server. The suites share it because each server
 * costs a few seconds of PGlite start-up and vitest runs files one at a time on small machines;
 * every suite signs in with its own e-mail addresses, so they do not see each other's users.
 * ADMIN_EMAILS seeds one address for the admin suite.
 */
let server: AuthTestServer | undefined;

beforeAll(async () => {
  server = await startAuthTestServer({ env: { ADMIN_EMAILS: 'boss@example.test' } });
});
afterAll(async () => {
  await server?.close();
});

function use(): AuthTestServer {
  if (!server) throw new Error('the test server did not start');
  return server;
}

signInFlowSuite(use);
callbackChecksSuite(use);
sessionSuite(use);
adminSeedingSuite(use);
externalIssuerSuite(use);
