import type { ViewAccessResponse } from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_NOTES, createLesson } from '../support/fixtures.js';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

/**
 * Issue 14: a shared lesson's link opened by a signed-out visitor gives the view-only player.
 * What it reads (names, notes, chords, the video and the settings) answers without a token, for
 * shared lessons only; nothing is charged; rating, edits and the other files need an account.
 */
describe('the signed-out view of a shared lesson', () => {
  let server: TestServer;
  let owner: TestUser;
  let shared: string;
  let hidden: string;

  beforeAll(async () => {
    server = await startTestServer({ queue: false });
    owner = await server.createUser();
    [shared, hidden] = await Promise.all([
      createLesson(server, owner, { shared: true }).then((j) => j.jobId),
      createLesson(server, owner).then((j) => j.jobId),
    ]);
  });
  afterAll(() => server.close());

  const anonymous = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);

  it('reads everything the player shows, free', async () => {
    const access = (await (
      await anonymous(`/api/view-access?jobId=${shared}`)
    ).json()) as ViewAccessResponse;
    expect(access).toMatchObject({ status: 'signed_out', remaining: 0 });
    const notes = await anonymous(`/api/notes?jobId=${shared}&edit_version=true`);
    expect(notes.status).toBe(200);
    expect(((await notes.json()) as { events: unknown[] }).events).toHaveLength(
      SAMPLE_NOTES.length,
    );
    expect((await anonymous(`/api/chords?jobId=${shared}&edit_version=true`)).status).toBe(200);
    expect((await anonymous(`/api/job-meta?jobId=${shared}`)).status).toBe(200);
    expect(await (await anonymous(`/api/edit-access?jobId=${shared}`)).json()).toEqual({
      canEdit: false,
    });
    const settings = await anonymous(`/api/download-result?jobId=${shared}&fileName=results`);
    expect(settings.status).toBe(200);
    const { downloadUrl } = (await settings.json()) as { downloadUrl: string };
    expect(await (await fetch(downloadUrl)).json()).toMatchObject({ tuning_name: 'Standard' });
    // Nobody paid: the owner's lesson gained no viewer and no ledger entry was written.
    const ledger = await server.ctx.database.db
      .selectFrom('credit_ledger')
      .select('reason')
      .where('ref', '=', shared)
      .execute();
    expect(ledger.filter((r) => r.reason === 'job_view')).toEqual([]);
  });

  it('shows a private lesson as not found, and keeps rating, edits and other files for accounts', async () => {
    for (const path of [
      `/api/view-access?jobId=${hidden}`,
      `/api/notes?jobId=${hidden}&edit_version=false`,
      `/api/job-meta?jobId=${hidden}`,
    ]) {
      const res = await anonymous(path);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toEqual({ error: 'Job not found.' });
    }
    expect(
      (await anonymous(`/api/download-result?jobId=${shared}&fileName=guitar.wav`)).status,
    ).toBe(401);
    const rate = await anonymous('/api/job-stars', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jobId: shared, stars: 5 }),
    });
    expect(rate.status).toBe(401);
    expect((await anonymous(`/api/job-stars?jobId=${shared}`)).status).toBe(401);
  });
});
