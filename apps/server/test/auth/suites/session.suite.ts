import { decodeJwt, SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { accessTokenKey, issueAccessToken } from '../../../src/auth/tokens.js';
import type { AuthTestServer } from '../support/auth-test-server.js';
import { CookieJar } from '../support/cookie-jar.js';
import { CSRF_HEADERS, me, renewToken, signIn, type SignedIn } from '../support/sign-in.js';

/** sessions and access tokens; `use` gives the shared server (started by ../sign-in-http.test.ts). */
export function sessionSuite(use: () => AuthTestServer): void {
  describe('sessions and access tokens', () => {
    let server: AuthTestServer;
    let player: SignedIn;
    beforeAll(async () => {
      server = use();
      player = await signIn(server, { email: 'session@example.test', name: 'Session Player' });
    });

    async function expect401(res: Response): Promise<void> {
      expect(res.status).toBe(401);
      const body = (await res.json()) as { error?: unknown };
      expect(typeof body.error).toBe('string');
    }

    describe('access tokens on /api/me', () => {
      it('accepts a valid token', async () => {
        const res = await me(server, player.token.accessToken);
        expect(res.status).toBe(200);
      });

      it('refuses an expired token with 401 and { error }', async () => {
        const claims = decodeJwt(player.token.accessToken);
        const key = accessTokenKey(server.config.secret);
        const hourAgo = Math.floor(Date.now() / 1000) - 3600;
        const expired = await issueAccessToken(
          key,
          server.config.publicUrl,
          {
            uid: player.token.user.uid,
            email: player.token.user.email,
            role: 'user',
            sid: String(claims.sid),
          },
          600,
          hourAgo,
        );
        await expect401(await me(server, expired));
      });

      it('refuses a token signed by another key with the same claims', async () => {
        const claims = decodeJwt(player.token.accessToken);
        const otherKey = accessTokenKey('another-secret-that-is-at-least-32-characters-long');
        const forged = await new SignJWT({ ...claims })
          .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
          .sign(otherKey);
        await expect401(await me(server, forged));
      });

      it('refuses a malformed token', async () => {
        await expect401(await me(server, 'not.a.token'));
      });
    });

    describe('POST /api/auth/token', () => {
      it('needs the CSRF header', async () => {
        const res = await renewToken(server, player.jar, {} as typeof CSRF_HEADERS);
        expect(res.status).toBe(403);
        expect(((await res.json()) as { error: string }).error).toContain('x-requested-with');
      });

      it('answers 401 { error } without a session cookie', async () => {
        await expect401(await renewToken(server, new CookieJar()));
      });

      it('answers 401 for an unknown session cookie and clears it', async () => {
        const jar = new CookieJar();
        const url = `${server.url}/api/auth/token`;
        const res = await fetch(url, {
          method: 'POST',
          headers: { ...CSRF_HEADERS, cookie: 'rs_session=forged-secret' },
        });
        await expect401(res);
        jar.store(url, res);
        const cleared = res.headers.getSetCookie().find((c) => c.startsWith('rs_session='));
        expect(cleared).toMatch(/Path=\/api\/auth/);
        expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);
      });

      it('issues a fresh token with the role read from the database, and bumps last_used_at', async () => {
        const { uid } = player.token.user;
        const sid = String(decodeJwt(player.token.accessToken).sid);
        const db = server.ctx.database.db;
        const past = new Date(Date.now() - 60_000);
        await db
          .updateTable('sessions')
          .set({ last_used_at: past })
          .where('id', '=', sid)
          .execute();
        await server.ctx.database.db
          .updateTable('users')
          .set({ role: 'pilot' })
          .where('id', '=', uid)
          .execute();

        const res = await renewToken(server, player.jar);
        expect(res.status).toBe(200);
        const body = (await res.json()) as { accessToken: string; user: { role: string } };
        expect(body.user.role).toBe('pilot');
        expect(decodeJwt(body.accessToken).role).toBe('pilot');
        expect(decodeJwt(body.accessToken).sid).toBe(sid);
        const row = await db
          .selectFrom('sessions')
          .select('last_used_at')
          .where('id', '=', sid)
          .executeTakeFirstOrThrow();
        expect(row.last_used_at.getTime()).toBeGreaterThan(past.getTime());
      });

      it('answers 401 once the session has expired', async () => {
        const other = await signIn(server, { email: 'expiring@example.test', name: 'Expiring' });
        const sid = String(decodeJwt(other.token.accessToken).sid);
        await server.ctx.database.db
          .updateTable('sessions')
          .set({ expires_at: new Date(Date.now() - 1000) })
          .where('id', '=', sid)
          .execute();
        await expect401(await renewToken(server, other.jar));
      });
    });

    describe('POST /api/auth/logout', () => {
      it('ends the session: the old cookie no longer renews', async () => {
        const { jar } = await signIn(server, { email: 'leaving@example.test', name: 'Leaving' });
        const session = jar.get('rs_session');
        expect(session).toBeDefined();

        const res = await jar.fetch(`${server.url}/api/auth/logout`, {
          method: 'POST',
          headers: CSRF_HEADERS,
        });
        expect(res.status).toBe(204);
        expect(jar.get('rs_session')).toBeUndefined();
        expect(jar.get('rs_signed_in')).toBeUndefined();

        // Even a client that kept the old cookie is refused.
        const replay = new CookieJar();
        if (session) replay.set(session);
        await expect401(await renewToken(server, replay));
      });

      it('refuses the session’s bearer tokens at once, not when they expire', async () => {
        const leaving = await signIn(server, {
          email: 'token-out@example.test',
          name: 'Token Out',
        });
        expect((await me(server, leaving.token.accessToken)).status).toBe(200);
        const res = await leaving.jar.fetch(`${server.url}/api/auth/logout`, {
          method: 'POST',
          headers: CSRF_HEADERS,
        });
        expect(res.status).toBe(204);
        const after = await me(server, leaving.token.accessToken);
        expect(after.status).toBe(401);
        expect(((await after.json()) as { error: string }).error).toBe(
          'Your session has ended. Please sign in again.',
        );
        // Another session of another user is untouched.
        expect((await me(server, player.token.accessToken)).status).toBe(200);
      });

      it('answers 204 when not signed in', async () => {
        const res = await new CookieJar().fetch(`${server.url}/api/auth/logout`, {
          method: 'POST',
          headers: CSRF_HEADERS,
        });
        expect(res.status).toBe(204);
      });

      it('needs the CSRF header', async () => {
        const res = await player.jar.fetch(`${server.url}/api/auth/logout`, { method: 'POST' });
        expect(res.status).toBe(403);
        expect((await renewToken(server, player.jar)).status).toBe(200);
      });
    });
  });
}
