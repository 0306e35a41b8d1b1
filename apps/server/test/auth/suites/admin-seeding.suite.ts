import type { MeResponse } from '@riffscribe/core';
import { decodeJwt } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AuthTestServer } from '../support/auth-test-server.js';
import { me, signIn } from '../support/sign-in.js';

/** ADMIN_EMAILS seeding; `use` gives the shared server (started by ../sign-in-http.test.ts). */
export function adminSeedingSuite(use: () => AuthTestServer): void {
  describe('ADMIN_EMAILS seeding', () => {
    let server: AuthTestServer;
    beforeAll(() => {
      server = use();
    });

    it('makes an ADMIN_EMAILS address an admin when it signs in through the flow', async () => {
      const { token } = await signIn(server, { email: 'Boss@Example.test', name: 'The Boss' });
      expect(token.user.role).toBe('admin');
      expect(decodeJwt(token.accessToken).role).toBe('admin');
      const res = await me(server, token.accessToken);
      expect(res.status).toBe(200);
      expect(((await res.json()) as MeResponse).role).toBe('admin');
    });

    it('leaves other addresses as users', async () => {
      const { token } = await signIn(server, { email: 'worker@example.test', name: 'Worker' });
      expect(decodeJwt(token.accessToken).role).toBe('user');
    });
  });
}
