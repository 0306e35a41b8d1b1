import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveRoleCache } from '../../src/auth/live-role-cache.js';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

describe('LiveRoleCache', () => {
  it('keeps an answer for its time, forgets a session, clears on a role change', () => {
    const cache = new LiveRoleCache(1000);
    expect(cache.get('s1', 'u1', 0)).toBeUndefined();
    cache.set('s1', 'u1', 'user', 0);
    cache.set('s2', 'u1', null, 0);
    expect(cache.get('s1', 'u1', 999)).toBe('user');
    expect(cache.get('s2', 'u1', 999)).toBeNull();
    expect(cache.get('s1', 'u1', 1000)).toBeUndefined();
    cache.set('s1', 'u1', 'user', 2000);
    cache.forgetSession('s1');
    expect(cache.get('s1', 'u1', 2001)).toBeUndefined();
    cache.set('s3', 'u2', 'pilot', 3000);
    cache.clear();
    expect(cache.get('s3', 'u2', 3001)).toBeUndefined();
  });
});

/**
 * Issue 38 build item 8: a signed-in request no longer reads its session from the database each
 * time; a session ended by another process (here, written to the database directly) is refused
 * within a second or two; the role an admin sets here applies to the next call.
 */
describe('sessions read at most once a second', () => {
  let server: TestServer;
  let user: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    server = await startTestServer({ queue: false });
    user = await server.createUser();
    admin = await server.createUser({ role: 'admin' });
  });
  afterAll(() => server.close());
  const me = (who: TestUser) => server.request('GET', '/api/me', { token: who.token });

  it('refuses a session another process ended within two seconds', async () => {
    expect((await me(user)).status).toBe(200);
    await server.ctx.database.db
      .updateTable('sessions')
      .set({ revoked_at: new Date() })
      .where('id', '=', user.sid)
      .execute();
    const started = Date.now();
    await expect
      .poll(async () => (await me(user)).status, { timeout: 2_000, interval: 100 })
      .toBe(401);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('applies a role an admin sets at once', async () => {
    const bea = await server.createUser();
    const role = async () => ((await (await me(bea)).json()) as { role: string }).role;
    expect(await role()).toBe('user');
    const res = await server.request('PATCH', `/api/admin/users/${bea.uid}/role`, {
      token: admin.token,
      json: { role: 'pilot' },
    });
    expect(res.status).toBeLessThan(300);
    expect(await role()).toBe('pilot');
  });
});
