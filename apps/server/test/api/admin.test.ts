import {
  PRO_MONTHLY_CREATOR_CREDITS,
  type AdminFailedJobsResponse,
  type AdminHealthResponse,
  type AdminUpgradeRequestsResponse,
  type AdminUsersResponse,
  type UpgradeRequestsResponse,
} from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreditsRepository } from '../../src/repositories/credits.repository.js';
import { ProPlan } from '../../src/services/pro-plan.js';
import { submitUpload } from '../support/fixtures.js';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

/**
 * Issue 14, the admin console's calls (who may call them is the access matrix's part): what
 * each one does, against the real server and database.
 */
describe('admin console calls', () => {
  let server: TestServer;
  let admin: TestUser;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.createUser({ email: 'root@example.test', role: 'admin' });
  });
  afterAll(() => server.close());

  // The answer's type is the caller's to name, as with fetch's json().
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
  const call = async <T>(method: string, path: string, json?: unknown, token = admin.token) => {
    const res = await server.request(method, path, { token, ...(json ? { json } : {}) });
    const body = (await res.json()) as T;
    return { status: res.status, body };
  };

  it('finds users by e-mail with their role and balances, and grants credits with a reason', async () => {
    const ada = await server.createUser({ email: 'Ada.Lovelace@example.test' });
    await server.createUser({ email: 'someone@example.test' });
    const found = await call<AdminUsersResponse>('GET', '/api/admin/users?email=ada.love');
    expect(found.status).toBe(200);
    expect(found.body.total).toBe(1);
    expect(found.body.items[0]).toMatchObject({
      uid: ada.uid,
      email: 'ada.lovelace@example.test',
      role: 'user',
    });
    const before = found.body.items[0]?.credits.view ?? 0;
    // A wildcard in the search is a character, not a pattern.
    expect((await call<AdminUsersResponse>('GET', '/api/admin/users?email=%25')).body.total).toBe(
      0,
    );

    const granted = await call<{ credits: { view: number } }>(
      'POST',
      `/api/admin/users/${ada.uid}/credits`,
      { kind: 'view', amount: 5, reason: 'Apology for the outage' },
    );
    expect(granted.status).toBe(200);
    expect(granted.body.credits.view).toBe(before + 5);
    const ledger = await server.ctx.database.db
      .selectFrom('credit_ledger')
      .select(['reason', 'ref', 'delta'])
      .where('user_id', '=', ada.uid)
      .where('reason', '=', 'admin_grant')
      .execute();
    expect(ledger).toHaveLength(1);
    expect(ledger[0]?.delta).toBe(5);
    expect(ledger[0]?.ref).toContain('by root@example.test: Apology for the outage');
    // Without a reason, or a count out of range: refused with a clear error, nothing granted.
    const bad = await call<{ error: string }>('POST', `/api/admin/users/${ada.uid}/credits`, {
      kind: 'view',
      amount: 0,
      reason: '',
    });
    expect(bad.status).toBe(400);
  });

  it("sets roles at once, but never takes away the caller's own admin role", async () => {
    const bea = await server.createUser({ email: 'bea@example.test' });
    expect(
      (await call('PATCH', `/api/admin/users/${bea.uid}/role`, { role: 'pilot' })).status,
    ).toBe(200);
    // Bea's token still says "user": the server reads the role from the account.
    const me = await call<{ role: string }>('GET', '/api/me', undefined, bea.token);
    expect(me.body.role).toBe('pilot');
    const self = await call<{ error: string }>('PATCH', `/api/admin/users/${admin.uid}/role`, {
      role: 'user',
    });
    expect(self).toEqual({
      status: 403,
      body: { error: 'You cannot take away your own admin role.' },
    });
    expect((await call('PATCH', '/api/admin/users/nobody/role', { role: 'pilot' })).status).toBe(
      404,
    );
  });

  it('approves and declines upgrade requests; the requester sees the outcome', async () => {
    const cy = await server.createUser({ email: 'cy@example.test' });
    const dee = await server.createUser({ email: 'dee@example.test' });
    for (const u of [cy, dee]) {
      expect(
        (await call('POST', '/api/upgrade-requests', { message: 'Please' }, u.token)).status,
      ).toBe(201);
    }
    const queue = await call<AdminUpgradeRequestsResponse>('GET', '/api/admin/upgrade-requests');
    const byEmail = (email: string) => queue.body.items.find((r) => r.email === email);
    expect(byEmail('cy@example.test')).toMatchObject({ message: 'Please', role: 'user' });
    const [cyRequest, deeRequest] = [byEmail('cy@example.test'), byEmail('dee@example.test')];
    if (!cyRequest || !deeRequest) throw new Error('requests missing');

    expect(
      (await call('POST', `/api/admin/upgrade-requests/${cyRequest.id}`, { decision: 'approve' }))
        .status,
    ).toBe(200);
    expect(
      (await call('POST', `/api/admin/upgrade-requests/${deeRequest.id}`, { decision: 'decline' }))
        .status,
    ).toBe(200);
    // Deciding twice is a conflict, not a second change.
    expect(
      (await call('POST', `/api/admin/upgrade-requests/${cyRequest.id}`, { decision: 'decline' }))
        .status,
    ).toBe(409);

    expect((await call<{ role: string }>('GET', '/api/me', undefined, cy.token)).body.role).toBe(
      'pilot',
    );
    const cyStatus = await call<UpgradeRequestsResponse>(
      'GET',
      '/api/upgrade-requests',
      undefined,
      cy.token,
    );
    expect(cyStatus.body).toMatchObject({ hasPending: false, request: { status: 'approved' } });
    const deeStatus = await call<UpgradeRequestsResponse>(
      'GET',
      '/api/upgrade-requests',
      undefined,
      dee.token,
    );
    expect(deeStatus.body).toMatchObject({ hasPending: false, request: { status: 'rejected' } });
    expect((await call<{ role: string }>('GET', '/api/me', undefined, dee.token)).body.role).toBe(
      'user',
    );
    expect(
      (await call<AdminUpgradeRequestsResponse>('GET', '/api/admin/upgrade-requests')).body.items,
    ).toEqual([]);
  });

  it("gives an approved Pro user the plan's 10 creation credits, and again each month (issue 37)", async () => {
    const gus = await server.createUser({ email: 'gus@example.test' });
    const creator = async () => (await server.services.credits.balances(gus.uid)).creator;
    const before = await creator();
    expect(
      (await call('POST', '/api/upgrade-requests', { message: 'Pro' }, gus.token)).status,
    ).toBe(201);
    const queue = await call<AdminUpgradeRequestsResponse>('GET', '/api/admin/upgrade-requests');
    const request = queue.body.items.find((r) => r.email === 'gus@example.test')!;
    await call('POST', `/api/admin/upgrade-requests/${request.id}`, { decision: 'approve' });
    expect(await creator()).toBe(before + PRO_MONTHLY_CREATOR_CREDITS);

    // The monthly renewal, on a clock the test sets: nothing more this month, 10 the next month,
    // and only once however often it runs; a free user gets nothing.
    const db = server.ctx.database.db;
    const month = (iso: string) => new ProPlan(db, () => new Date(iso));
    const now = new Date();
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 0, 30));
    await month(now.toISOString()).renew();
    expect(await creator()).toBe(before + PRO_MONTHLY_CREATOR_CREDITS);
    expect(await month(next.toISOString()).renew()).toBeGreaterThanOrEqual(1);
    await month(next.toISOString()).renew();
    expect(await creator()).toBe(before + 2 * PRO_MONTHLY_CREATOR_CREDITS);
    const free = await server.createUser({ email: 'free-gus@example.test' });
    const freeBefore = (await server.services.credits.balances(free.uid)).creator;
    await month(
      new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth() + 1, 2)).toISOString(),
    ).renew();
    expect((await server.services.credits.balances(free.uid)).creator).toBe(freeBefore);
    expect(await creator()).toBe(before + 3 * PRO_MONTHLY_CREATOR_CREDITS);
  });

  it('sets a balance to any value from 0, lowering it too, with the reason in the ledger (issue 37)', async () => {
    const hal = await server.createUser({ email: 'hal@example.test' });
    const set = (json: unknown) =>
      call<{ credits: { creator: number; view: number } }>(
        'PUT',
        `/api/admin/users/${hal.uid}/credits`,
        json,
      );
    const lowered = await set({ kind: 'view', balance: 0, reason: 'Refunded elsewhere' });
    expect(lowered.status).toBe(200);
    expect(lowered.body.credits.view).toBe(0);
    expect(
      (await set({ kind: 'creator', balance: 42, reason: 'Event prize' })).body.credits,
    ).toMatchObject({
      creator: 42,
      view: 0,
    });
    // The ledger still sums to the balances, and says who set them and why.
    const db = server.ctx.database.db;
    expect(await new CreditsRepository().ledgerSums(db, hal.uid)).toEqual({ creator: 42, view: 0 });
    const rows = await db
      .selectFrom('credit_ledger')
      .select(['reason', 'ref'])
      .where('user_id', '=', hal.uid)
      .where('reason', '=', 'admin_set')
      .execute();
    expect(rows.map((r) => r.ref).join(' ')).toContain('by root@example.test: Event prize');
    // Below 0, or without a reason: refused with a sentence.
    expect((await set({ kind: 'view', balance: -1, reason: 'x' })).status).toBe(400);
    expect((await set({ kind: 'view', balance: 1, reason: '' })).status).toBe(400);
    // The user sees the new balance.
    expect((await server.services.credits.balances(hal.uid)).creator).toBe(42);
  });

  it('lists failed jobs with their errors and queues one again, free of charge', async () => {
    const eve = await server.createUser({ email: 'eve@example.test' });
    const job = await submitUpload(server, eve);
    await server.ctx.database.db
      .updateTable('jobs')
      .set({ status: 'failed', stage: 'failed', error: 'engine crashed', completed_at: new Date() })
      .where('id', '=', job.jobId)
      .execute();
    const failed = await call<AdminFailedJobsResponse>('GET', '/api/admin/failed-jobs');
    expect(failed.body.items.find((j) => j.id === job.jobId)).toMatchObject({
      ownerEmail: 'eve@example.test',
      error: 'engine crashed',
    });
    const health = await call<AdminHealthResponse>('GET', '/api/admin/health');
    expect(health.body).toMatchObject({ failedLastDay: 1, queued: 0 });
    expect(health.body.users).toBeGreaterThanOrEqual(2);

    expect((await call('POST', `/api/admin/jobs/${job.jobId}/retry`)).status).toBe(200);
    const row = await server.ctx.database.db
      .selectFrom('jobs')
      .select(['status', 'error', 'progress'])
      .where('id', '=', job.jobId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'queued', error: null, progress: 0 });
    expect((await server.ctx.queue?.info(job.jobId))?.state).toBe('created');
    expect((await call<AdminHealthResponse>('GET', '/api/admin/health')).body.queued).toBe(1);
    // One charge for the job, made at submission; the retry takes nothing.
    const charges = await server.ctx.database.db
      .selectFrom('credit_ledger')
      .select('reason')
      .where('ref', '=', job.jobId)
      .execute();
    expect(charges.map((c) => c.reason)).toEqual(['job_create']);
    // A job that is not failed is not retried.
    expect((await call('POST', `/api/admin/jobs/${job.jobId}/retry`)).status).toBe(409);
  });
});
