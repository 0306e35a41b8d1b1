import type { MeResponse } from '@riffscribe/core';
import { request } from 'node:http';
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthTestServer } from '../support/auth-test-server.js';
import { CookieJar } from '../support/cookie-jar.js';
import {
  completeProvider,
  location,
  me,
  openSignInPage,
  signIn,
  startLogin,
  submitSignInForm,
} from '../support/sign-in.js';

/** sign-in through the development provider (full flow); `use` gives the shared server (started by ../sign-in-http.test.ts). */
export function signInFlowSuite(use: () => AuthTestServer): void {
  describe('sign-in through the development provider (full flow)', () => {
    let server: AuthTestServer;
    beforeAll(() => {
      server = use();
    });

    describe('sign-in through the development provider', () => {
      it('goes login -> provider -> sign-in page -> callback -> session -> access token -> /api/me', async () => {
        const jar = new CookieJar();
        const authorizationUrl = await startLogin(server, jar, '/my-videos');

        const auth = new URL(authorizationUrl);
        expect(auth.origin + auth.pathname).toBe(`${server.url}/oidc/auth`);
        expect(auth.searchParams.get('response_type')).toBe('code');
        expect(auth.searchParams.get('scope')).toBe('openid email profile');
        expect(auth.searchParams.get('code_challenge_method')).toBe('S256');
        expect(auth.searchParams.get('redirect_uri')).toBe(`${server.url}/api/auth/callback`);
        for (const p of ['state', 'nonce', 'code_challenge'])
          expect(auth.searchParams.get(p)).toBeTruthy();

        const tx = jar.get('rs_auth_tx');
        expect(tx?.path).toBe('/api/auth/callback');
        expect(tx?.attributes.has('httponly')).toBe(true);
        expect(tx?.attributes.get('samesite')?.toLowerCase()).toBe('lax');

        const { pageUrl, html, response } = await openSignInPage(jar, authorizationUrl);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toContain('text/html');
        expect(html).toContain('<h1>Development sign-in</h1>');
        expect(html).toContain('No password is checked');
        expect(html).not.toMatch(/<script/i);
        const csp = response.headers.get('content-security-policy') ?? '';
        expect(csp).toContain("script-src 'self'");

        const posted = await submitSignInForm(jar, pageUrl, {
          email: 'Player.One@Example.test',
          name: 'Player One',
          action: 'sign-in',
        });
        expect(posted.status).toBe(303);
        let next = location(posted, pageUrl);
        // Back through the provider's resume endpoint, straight to our callback: no consent page.
        const resumed = await jar.fetch(next);
        expect(resumed.status).toBe(303);
        next = location(resumed, next);
        expect(new URL(next).pathname).toBe('/api/auth/callback');

        const callback = await jar.fetch(next);
        expect(callback.status).toBe(302);
        expect(callback.headers.get('location')).toBe('/my-videos');
        const session = jar.get('rs_session');
        expect(session).toBeDefined();
        expect(session?.path).toBe('/api/auth');
        expect(session?.attributes.has('httponly')).toBe(true);
        expect(session?.attributes.get('samesite')?.toLowerCase()).toBe('lax');
        expect(session?.attributes.has('secure')).toBe(false);
        expect(Number(session?.attributes.get('max-age'))).toBe(30 * 24 * 60 * 60);
        expect(jar.get('rs_auth_tx')).toBeUndefined();
        // The provider's own cookies have their own names and stay under /oidc.
        const providerSession = jar.get('rs_oidc_session');
        expect(providerSession?.path).toBe('/oidc');
        for (const name of jar.names()) expect(name).toMatch(/^rs_(session|signed_in|oidc_)/);
        // The readable hint that a session exists: no secret in it, for the whole site.
        const hint = jar.get('rs_signed_in');
        expect(hint?.value).toBe('1');
        expect(hint?.path).toBe('/');
        expect(hint?.attributes.has('httponly')).toBe(false);

        const renewed = await jar.fetch(`${server.url}/api/auth/token`, {
          method: 'POST',
          headers: { 'x-requested-with': 'riffscribe' },
        });
        expect(renewed.status).toBe(200);
        expect(renewed.headers.get('cache-control')).toContain('no-store');
        const token = (await renewed.json()) as {
          accessToken: string;
          expiresIn: number;
          user: { uid: string; email: string; handle: string; role: string };
        };
        expect(token.expiresIn).toBe(600);
        expect(token.user).toMatchObject({ email: 'player.one@example.test', role: 'user' });
        expect(token.user.handle).toBeTruthy();

        const claims = decodeJwt(token.accessToken);
        expect(claims.sub).toBe(token.user.uid);
        expect(claims.role).toBe('user');
        expect(typeof claims.sid).toBe('string');

        const res = await me(server, token.accessToken);
        expect(res.status).toBe(200);
        const body = (await res.json()) as MeResponse;
        expect(body).toMatchObject({
          uid: token.user.uid,
          email: 'player.one@example.test',
          name: 'Player One',
          role: 'user',
        });

        // The session row stores only the hash of the cookie secret.
        const rows = await server.ctx.database.db.selectFrom('sessions').selectAll().execute();
        const row = rows.find((r) => r.user_id === token.user.uid);
        expect(row?.id).toBe(claims.sid);
        expect(row?.id).not.toBe(session?.value);
        expect(row?.id).toMatch(/^[0-9a-f]{64}$/);
      });

      it('gives the same uid to a second sign-in with the same e-mail (any capitalisation)', async () => {
        const first = await signIn(server, { email: 'again@example.test', name: 'Again' });
        const second = await signIn(server, { email: 'AGAIN@example.test', name: 'Again' });
        expect(second.token.user.uid).toBe(first.token.user.uid);
        expect(second.jar.get('rs_session')?.value).not.toBe(first.jar.get('rs_session')?.value);
      });

      it('shows the sign-in form every time, even in a browser already signed in at the provider', async () => {
        const { jar } = await signIn(server, { email: 'switch@example.test', name: 'Switch' });
        const authorizationUrl = await startLogin(server, jar);
        const { html } = await openSignInPage(jar, authorizationUrl);
        expect(html).toContain('Development sign-in');
        const callbackUrl = await completeProvider(jar, authorizationUrl, {
          email: 'other@example.test',
          name: 'Other',
        });
        const callback = await jar.fetch(callbackUrl);
        expect(callback.status).toBe(302);
      });

      it('refuses an invalid e-mail on the sign-in page with a clear message', async () => {
        const jar = new CookieJar();
        const { pageUrl } = await openSignInPage(jar, await startLogin(server, jar));
        const bad = await submitSignInForm(jar, pageUrl, {
          email: 'not-an-email',
          name: 'Someone',
          action: 'sign-in',
        });
        expect(bad.status).toBe(400);
        const html = await bad.text();
        expect(html).toContain('Please enter a valid e-mail address');
        expect(html).toContain('value="not-an-email"');
        const noName = await submitSignInForm(jar, pageUrl, {
          email: 'someone@example.test',
          name: '  ',
          action: 'sign-in',
        });
        expect(noName.status).toBe(400);
        expect(await noName.text()).toContain('Please enter your name.');
      });

      it('escapes what was typed when it shows the form again', async () => {
        const jar = new CookieJar();
        const { pageUrl } = await openSignInPage(jar, await startLogin(server, jar));
        const bad = await submitSignInForm(jar, pageUrl, {
          email: '"><script>alert(1)</script>',
          name: 'x',
          action: 'sign-in',
        });
        const html = await bad.text();
        expect(html).not.toContain('<script>');
        expect(html).toContain('&lt;script&gt;');
      });

      it('ends a cancelled sign-in with a 400 page and no session', async () => {
        const jar = new CookieJar();
        const { pageUrl } = await openSignInPage(jar, await startLogin(server, jar));
        const cancelled = await submitSignInForm(jar, pageUrl, { action: 'cancel' });
        expect(cancelled.status).toBe(303);
        const callbackUrl = await jar
          .fetch(location(cancelled, pageUrl))
          .then((r) => location(r, pageUrl));
        expect(new URL(callbackUrl).searchParams.get('error')).toBe('access_denied');
        const callback = await jar.fetch(callbackUrl);
        expect(callback.status).toBe(400);
        expect(await callback.text()).toContain('cancelled');
        expect(jar.get('rs_session')).toBeUndefined();
      });

      it('answers provider errors with our page, under the same CSP', async () => {
        const res = await fetch(`${server.url}/oidc/auth?client_id=unknown&response_type=code`);
        expect(res.status).toBe(400);
        expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
        const html = await res.text();
        expect(html).toContain('Development sign-in:');
        expect(html).not.toMatch(/<script/i);
      });

      it('refuses a sign-in page opened without its interaction cookie', async () => {
        const jar = new CookieJar();
        const { pageUrl } = await openSignInPage(jar, await startLogin(server, jar));
        const stranger = await fetch(pageUrl);
        expect(stranger.status).toBe(400);
        expect(await stranger.text()).toContain('expired or is not valid');
      });

      it('moves a sign-in started at another address to the public URL first, once', async () => {
        // The same server reached as localhost while PUBLIC_URL says 127.0.0.1 (as a browser at
        // http://127.0.0.1:3000 would for PUBLIC_URL http://localhost:3000).
        const port = new URL(server.url).port;
        const get = (path: string) =>
          new Promise<{ status: number; location?: string; cookies: string[] }>(
            (resolve, reject) => {
              const req = request(
                { host: '127.0.0.1', port, path, headers: { host: `localhost:${port}` } },
                (res) => {
                  res.resume();
                  resolve({
                    status: res.statusCode ?? 0,
                    ...(res.headers.location ? { location: res.headers.location } : {}),
                    cookies: res.headers['set-cookie'] ?? [],
                  });
                },
              );
              req.on('error', reject);
              req.end();
            },
          );
        const first = await get('/api/auth/login?returnTo=%2Fmy-videos');
        expect(first.status).toBe(302);
        expect(first.location).toBe(`${server.url}/api/auth/login?returnTo=%2Fmy-videos&moved=1`);
        // No transaction cookie on the wrong host: it would never come back with the callback.
        expect(first.cookies).toEqual([]);
        // Once moved, the flow goes on wherever it is (no loop behind a proxy that rewrites Host).
        const again = await get('/api/auth/login?returnTo=%2Fmy-videos&moved=1');
        expect(again.status).toBe(302);
        expect(again.location).toContain('/oidc/auth');
        // At the public URL itself the flow starts at once, and signing in works.
        const jar = new CookieJar();
        expect(new URL(await startLogin(server, jar, '/my-videos')).pathname).toBe('/oidc/auth');
      });

      it('tells the web app which provider it uses', async () => {
        const res = await fetch(`${server.url}/api/auth/config`);
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ devProvider: true, issuer: `${server.url}/oidc` });
      });

      it('publishes discovery under /oidc with the issuer, PKCE S256 and a stable key', async () => {
        const res = await fetch(`${server.url}/oidc/.well-known/openid-configuration`);
        expect(res.status).toBe(200);
        const meta = (await res.json()) as Record<string, unknown>;
        expect(meta.issuer).toBe(`${server.url}/oidc`);
        expect(meta.authorization_endpoint).toBe(`${server.url}/oidc/auth`);
        expect(meta.token_endpoint).toBe(`${server.url}/oidc/token`);
        expect(meta.code_challenge_methods_supported).toEqual(['S256']);
        const jwks = (await (await fetch(String(meta.jwks_uri))).json()) as {
          keys: { d?: string }[];
        };
        expect(jwks.keys).toHaveLength(1);
        expect(jwks.keys[0]?.d).toBeUndefined();
      });
    });
  });
}
