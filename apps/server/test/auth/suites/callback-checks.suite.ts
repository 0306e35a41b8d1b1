import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthTestServer } from '../support/auth-test-server.js';
import { CookieJar } from '../support/cookie-jar.js';
import { completeProvider, renewToken, signIn, startLogin } from '../support/sign-in.js';

/** callback checks; `use` gives the shared server (started by ../sign-in-http.test.ts). */
export function callbackChecksSuite(use: () => AuthTestServer): void {
  describe('callback checks', () => {
    let server: AuthTestServer;
    beforeAll(() => {
      server = use();
    });

    async function sessionCount(): Promise<number> {
      const rows = await server.ctx.database.db.selectFrom('sessions').select('id').execute();
      return rows.length;
    }

    /** Replaces one query parameter of a URL. */
    function withParam(url: string, name: string, value: string): string {
      const u = new URL(url);
      u.searchParams.set(name, value);
      return u.href;
    }

    /** Calls the callback and checks it was refused: a 4xx page, no session cookie, no new row. */
    async function expectRefused(
      jar: CookieJar,
      callbackUrl: string,
      text?: RegExp,
    ): Promise<void> {
      const before = await sessionCount();
      const res = await jar.fetch(callbackUrl);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('text/html');
      const html = await res.text();
      expect(html).toContain('Sign-in failed');
      if (text) expect(html).toMatch(text);
      expect(jar.get('rs_session')).toBeUndefined();
      expect(await sessionCount()).toBe(before);
      // The transaction is single-use: it is cleared even when the callback fails.
      expect(jar.get('rs_auth_tx')).toBeUndefined();
      const renewed = await renewToken(server, jar);
      expect(renewed.status).toBe(401);
    }

    const person = { email: 'checks@example.test', name: 'Checks' };

    describe('the callback refuses what does not match the sign-in it started', () => {
      it('refuses a tampered state in the callback', async () => {
        const jar = new CookieJar();
        const callbackUrl = await completeProvider(jar, await startLogin(server, jar), person);
        await expectRefused(jar, withParam(callbackUrl, 'state', 'forged-state'), /does not match/);
      });

      it('refuses a state changed in the authorization URL (the provider echoes it back)', async () => {
        const jar = new CookieJar();
        const authorizationUrl = withParam(
          await startLogin(server, jar),
          'state',
          'attacker-state',
        );
        const callbackUrl = await completeProvider(jar, authorizationUrl, person);
        expect(new URL(callbackUrl).searchParams.get('state')).toBe('attacker-state');
        await expectRefused(jar, callbackUrl);
      });

      it('refuses an ID token whose nonce differs from the one it expects', async () => {
        const jar = new CookieJar();
        const original = await startLogin(server, jar);
        expect(new URL(original).searchParams.get('nonce')).toBeTruthy();
        const authorizationUrl = withParam(original, 'nonce', 'a-different-nonce-value');
        const callbackUrl = await completeProvider(jar, authorizationUrl, person);
        // state and code are genuine: only the ID token's nonce is wrong.
        await expectRefused(jar, callbackUrl, /does not match/);
      });

      it('refuses a code exchanged without the right PKCE verifier', async () => {
        const jar = new CookieJar();
        const authorizationUrl = withParam(
          await startLogin(server, jar),
          'code_challenge',
          'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        );
        await expectRefused(jar, await completeProvider(jar, authorizationUrl, person));
      });

      it('refuses an unknown code', async () => {
        const jar = new CookieJar();
        const callbackUrl = await completeProvider(jar, await startLogin(server, jar), person);
        await expectRefused(
          jar,
          withParam(callbackUrl, 'code', 'not-a-real-code'),
          /already been used/,
        );
      });

      it('refuses a replayed code, even with the original transaction cookie', async () => {
        const jar = new CookieJar();
        const callbackUrl = await completeProvider(jar, await startLogin(server, jar), person);
        const tx = jar.get('rs_auth_tx');
        expect(tx).toBeDefined();
        const first = await jar.fetch(callbackUrl);
        expect(first.status).toBe(302);

        const attacker = new CookieJar();
        if (tx) attacker.set(tx);
        await expectRefused(attacker, callbackUrl, /already been used/);
      });

      it('refuses a callback without the transaction cookie', async () => {
        const jar = new CookieJar();
        const callbackUrl = await completeProvider(jar, await startLogin(server, jar), person);
        jar.delete('rs_auth_tx');
        await expectRefused(jar, callbackUrl, /took too long|another browser/);
      });

      it('refuses a forged transaction cookie', async () => {
        const jar = new CookieJar();
        const callbackUrl = await completeProvider(jar, await startLogin(server, jar), person);
        const tx = jar.get('rs_auth_tx');
        if (tx) jar.set({ ...tx, value: `${tx.value.slice(0, -4)}AAAA` });
        await expectRefused(jar, callbackUrl);
      });

      it('refuses a callback carrying a provider error', async () => {
        const jar = new CookieJar();
        await startLogin(server, jar);
        const forged = `${server.url}/api/auth/callback?error=access_denied&state=whatever`;
        await expectRefused(jar, forged);
      });
    });

    describe('returnTo cannot send the browser to another site', () => {
      const cases: [string, string][] = [
        ['/lesson?jobId=42#bar-3', '/lesson?jobId=42#bar-3'],
        ['//evil.example/phish', '/'],
        ['/\\evil.example', '/'],
        ['https://evil.example/', '/'],
        ['javascript:alert(1)', '/'],
        ['/%0d%0aSet-Cookie:x=1', '/%0d%0aSet-Cookie:x=1'],
      ];
      for (const [returnTo, landing] of cases) {
        it(`lands ${JSON.stringify(returnTo)} on ${JSON.stringify(landing)}`, async () => {
          const { callback } = await signIn(server, person, { returnTo });
          expect(callback.headers.get('location')).toBe(landing);
        });
      }

      it('lands on / when returnTo is missing', async () => {
        const { callback } = await signIn(server, person);
        expect(callback.headers.get('location')).toBe('/');
      });
    });
  });
}
