import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app.js';
import { buildAuthApp, freePort, type AuthTestServer } from '../support/auth-test-server.js';

/**
 * A second app on the shared database, configured for an external issuer that cannot be reached
 * (nothing listens on port 1): no development provider is mounted, the web app is told so, and
 * sign-in answers 503 with a sentence instead of hanging or leaking the failure.
 */
export function externalIssuerSuite(use: () => AuthTestServer): void {
  describe('with OIDC_ISSUER set', () => {
    const issuer = 'http://127.0.0.1:1/realms/riffscribe';
    let app: App;
    let url: string;

    beforeAll(async () => {
      const server = use();
      const port = await freePort();
      url = `http://127.0.0.1:${String(port)}`;
      const config = {
        ...server.config,
        publicUrl: url,
        oidc: { issuer, clientId: 'riffscribe', clientSecret: 'client-secret' },
      };
      app = await buildAuthApp({ ...server.ctx, config });
      await app.listen({ host: '127.0.0.1', port });
    });
    afterAll(async () => {
      await app.close();
    });

    it('tells the web app that sign-in is not the development provider', async () => {
      const res = await fetch(`${url}/api/auth/config`);
      expect(await res.json()).toEqual({ devProvider: false, issuer });
    });

    it('does not mount the development provider', async () => {
      const res = await fetch(`${url}/oidc/.well-known/openid-configuration`);
      expect(res.status).toBe(404);
    });

    it('answers 503 { error } when the issuer cannot be reached, and tries again next time', async () => {
      for (let attempt = 0; attempt < 2; attempt++) {
        const res = await fetch(`${url}/api/auth/login`, { redirect: 'manual' });
        expect(res.status).toBe(503);
        const body = (await res.json()) as { error: string };
        expect(body.error).toMatch(/sign-in service cannot be reached/);
        expect(res.headers.getSetCookie()).toEqual([]);
      }
    });
  });
}
