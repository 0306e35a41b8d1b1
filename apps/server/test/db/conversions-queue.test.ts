import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONVERSION_LOST,
  ConversionsRepository,
} from '../../src/repositories/conversions.repository.js';
import { CONVERT_WORK_PREFIX, removeStaleWorkFolders } from '../../src/jobs/startup-cleanup.js';
import { createLesson } from '../support/fixtures.js';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.js';
import { testDatabaseDriver } from '../support/test-database.js';

/** The conversions queue (MP4 export) on each database: claims, leases, hand-backs. */
describe(`conversions queue (${testDatabaseDriver()})`, () => {
  let server: TestServer;
  let owner: TestUser;
  let repo: ConversionsRepository;
  const holder = `${hostname()}:${String(process.pid)}`;

  beforeAll(async () => {
    server = await startTestServer({ queue: false, env: { SIGNUP_CREATOR_CREDITS: '20' } });
    owner = await server.createUser({ role: 'pilot' });
    repo = new ConversionsRepository(server.ctx.database.db);
  });
  afterAll(() => server.close());

  /** A lesson with a queued conversion; returns the job id. */
  async function queued(): Promise<string> {
    const { jobId } = await createLesson(server, owner);
    const uploadKey = `jobs/${jobId}/recording-${randomUUID()}.webm`;
    await repo.replace({ jobId, userId: owner.uid, uploadKey, uploadMaxBytes: 1000 });
    expect(await repo.enqueue(jobId, uploadKey)).toBe(true);
    return jobId;
  }

  async function expire(jobId: string): Promise<void> {
    await server.ctx.database.db
      .updateTable('conversions')
      .set({ lease_expires_at: sql`now() - interval '1 second'` })
      .where('job_id', '=', jobId)
      .execute();
  }

  /** Claims until the queue is empty (earlier tests' rows included); the claims made. */
  async function drain() {
    const claims = [];
    for (;;) {
      const claim = await repo.claim({ token: randomUUID(), holder, seconds: 60 });
      if (!claim) return claims;
      claims.push(claim);
    }
  }

  it('gives one queued conversion to exactly one of several claims at once', async () => {
    await drain();
    const jobId = await queued();
    const claims = await Promise.all(
      Array.from({ length: 6 }, () => repo.claim({ token: randomUUID(), holder, seconds: 60 })),
    );
    const won = claims.filter((c) => c !== null);
    expect(won).toHaveLength(1);
    expect(won[0]).toMatchObject({ jobId, attempts: 1 });
    expect(typeof won[0]?.lessonSeconds).toBe('number');
    expect(await repo.find(jobId)).toMatchObject({ status: 'processing' });
  });

  it('takes a conversion again once when its lease runs out, then fails it', async () => {
    await drain();
    const jobId = await queued();
    const first = await repo.claim({ token: randomUUID(), holder, seconds: 60 });
    expect(first).toMatchObject({ jobId, attempts: 1 });
    // A live lease is not taken.
    expect(await repo.claim({ token: randomUUID(), holder, seconds: 60 })).toBeNull();
    await expire(jobId);
    expect(await repo.failExpired()).toEqual([]);
    const second = await repo.claim({ token: randomUUID(), holder, seconds: 60 });
    expect(second).toMatchObject({ jobId, attempts: 2 });
    // The first run's writes are refused now.
    expect(await repo.progress(jobId, first!.token, 50)).toBe(false);
    expect(await repo.renew(jobId, first!.token, 60)).toBe(false);
    await expire(jobId);
    expect(await repo.claim({ token: randomUUID(), holder, seconds: 60 })).toBeNull();
    const lost = await repo.failExpired();
    expect(lost.map((l) => l.jobId)).toEqual([jobId]);
    expect(await repo.find(jobId)).toMatchObject({ status: 'failed', error: CONVERSION_LOST });
  });

  it('hands a conversion back on shutdown without using up a run', async () => {
    await drain();
    const jobId = await queued();
    const run = await repo.claim({ token: randomUUID(), holder, seconds: 60 });
    expect(await repo.release(jobId, run!.token)).toBe(true);
    expect(await repo.find(jobId)).toMatchObject({ status: 'queued', attempts: 0 });
    expect(await repo.claim({ token: randomUUID(), holder, seconds: 60 })).toMatchObject({
      jobId,
      attempts: 1,
    });
  });

  it('lets a new upload link replace a running conversion: the old run can no longer write', async () => {
    await drain();
    const jobId = await queued();
    const run = await repo.claim({ token: randomUUID(), holder, seconds: 60 });
    const newKey = `jobs/${jobId}/recording-${randomUUID()}.webm`;
    const earlier = await repo.replace({
      jobId,
      userId: owner.uid,
      uploadKey: newKey,
      uploadMaxBytes: 1000,
    });
    expect(earlier).toMatch(/recording-/);
    expect(
      await repo.complete(jobId, run!.token, {
        jobId,
        name: 'webm_converted.mp4',
        version: 'original',
        key: `jobs/${jobId}/original/webm_converted-x.mp4`,
        contentType: 'video/mp4',
        size: 1,
      }),
    ).toBe(false);
    expect(await repo.fail(jobId, run!.token, 'x')).toBe(false);
    expect(await repo.find(jobId)).toMatchObject({
      status: 'uploading',
      uploadKey: newKey,
      attempts: 0,
    });
  });

  it('start-up cleanup keeps the working folder of a conversion held by a live process', async () => {
    await drain();
    const held = await queued();
    await repo.claim({ token: randomUUID(), holder, seconds: 60 });
    const root = mkdtempSync(path.join(tmpdir(), 'riffscribe-mp4-cleanup-test-'));
    try {
      const keep = path.join(root, `${CONVERT_WORK_PREFIX}${held}-1`);
      const stale = path.join(root, `${CONVERT_WORK_PREFIX}${randomUUID()}-1`);
      const jobFolder = path.join(root, `riffscribe-job-${randomUUID()}-1`);
      // Something else's folder that only starts with the prefix (a test's mkdtemp): not ours.
      const foreign = path.join(root, `${CONVERT_WORK_PREFIX}test-x1y2z3`);
      for (const dir of [keep, stale, jobFolder, foreign]) mkdirSync(dir);
      const removed = await removeStaleWorkFolders(root, repo, CONVERT_WORK_PREFIX);
      expect(removed).toEqual([path.basename(stale)]);
      expect([keep, stale, jobFolder, foreign].map((d) => existsSync(d))).toEqual([
        true,
        false,
        true,
        true,
      ]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
