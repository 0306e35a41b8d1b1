import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAuthTestServer, type AuthTestServer } from './support/auth-test-server.js';
import { CSRF_HEADERS, renewToken, signIn } from './support/sign-in.js';

/**
 * Issue 38 row 10: token renewals are counted per session where the caller has one, not only
 * per address: junk calls from an address (no session, or a made-up session cookie) use up that
 * address's budget, and a signed-in person behind the same address still renews.
 */
describe('the token-renewal budget', () => {
  let server: AuthTestServer;
  beforeAll(async () => {
    server = await startAuthTestServer({ env: { RATE_LIMIT_AUTH_PER_MINUTE: '30' } });
  });
  afterAll(() => server.close());

  it('is the session’s own for a signed-in caller at a noisy address', async () => {
    const { jar } = await signIn(server, { email: 'bystander@example.test', name: 'By Stander' });
    const junk: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await fetch(`${server.url}/api/auth/token`, {
        method: 'POST',
        headers: CSRF_HEADERS,
      });
      junk.push(res.status);
    }
    expect(junk).toContain(429);
    const renewed = await renewToken(server, jar);
    expect(renewed.status).toBe(200);
  });

  it('gives a made-up session cookie no budget of its own; signing in is counted apart', async () => {
    // The address's renewals are spent (the test before): signing in still works.
    const { jar } = await signIn(server, { email: 'other@example.test', name: 'Other Person' });
    const junk: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await fetch(`${server.url}/api/auth/token`, {
        method: 'POST',
        headers: { ...CSRF_HEADERS, cookie: `rs_session=made-up-${String(i)}` },
      });
      junk.push(res.status);
    }
    expect(junk.filter((s) => s === 429).length).toBeGreaterThan(5);
    expect(junk.every((s) => s === 401 || s === 429)).toBe(true);
    const renewed = await renewToken(server, jar);
    expect(renewed.status).toBe(200);
  });
});
