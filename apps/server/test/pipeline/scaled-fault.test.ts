import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3RVER_CREDENTIALS } from '../storage/s3rver.js';
import { TEST_BUCKET, startS3Driver, type S3Harness } from '../storage/drivers.js';
import { reachable } from '../support/net.js';
import { openTestDatabase, type TestDatabase } from '../support/test-database.js';
import type { TestUser } from '../support/test-server.js';
import { makeClip, readClip } from './support/clips.js';
import {
  creatorBalance,
  startPipelineServer,
  strayObjects,
  submitVideo,
  waitForJob,
  type PipelineServer,
} from './support/pipeline-server.js';
import { isAlive, startWorker, type WorkerProcess } from './support/workers.js';

const JOBS = 10;
const LEASE_SECONDS = 5;

// Locally the PostgreSQL server may be missing; in CI it must be there.
const postgres = process.env.CI === 'true' || (await reachable('127.0.0.1', 5432));

/**
 * Acceptance, scaled mode: the API server and two `npm run worker` processes share nothing but
 * a PostgreSQL schema and an S3 bucket (s3rver behind a SigV4-checking gate). Ten jobs are
 * queued; one worker is killed with SIGKILL in the middle of a job. Every job completes, each is
 * charged exactly once, and none is left running.
 */
describe.skipIf(!postgres)('pipeline, scaled mode with a killed worker', () => {
  let testDb: TestDatabase;
  let s3: S3Harness;
  let server: PipelineServer;
  let user: TestUser;
  let dir: string;
  let clips: Buffer[];
  const workers: WorkerProcess[] = [];
  let workerEnv: (i: number) => Record<string, string>;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-scaled-'));
    [testDb, s3] = await Promise.all([openTestDatabase('postgres'), startS3Driver()]);
    const storageEnv = {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: TEST_BUCKET,
      S3_ENDPOINT: s3.options.endpoint ?? '',
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    };
    const [a, b] = await Promise.all([
      makeClip(dir, 'a.mp4', { seconds: 4, offset: 0 }),
      makeClip(dir, 'b.mp4', { seconds: 4, offset: 9 }),
      (async () => {
        server = await startPipelineServer({ testDb, worker: false, env: storageEnv });
        user = await server.createUser();
      })(),
    ]);
    clips = [await readClip(a), await readClip(b)];
    workerEnv = (i: number) => ({
      ...storageEnv,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATA_DIR: path.join(dir, `worker-${String(i)}`),
      RIFFSCRIBE_SECRET: randomBytes(32).toString('base64url'),
      DATABASE_URL: testDb.url ?? '',
      DATABASE_SCHEMA: testDb.searchPath ?? '',
      WORKER_CONCURRENCY: '1',
      WORKER_LEASE_SECONDS: String(LEASE_SECONDS),
      WORKER_POLL_SECONDS: '1',
      JOB_RETRY_DELAY_SECONDS: '1',
    });
    for (let i = 0; i < 2; i++) workers.push(startWorker(workerEnv(i)));
  }, 180_000);
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await server.close();
    await testDb.dispose();
    await s3.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const db = () => server.ctx.database.db;

  it('completes all jobs once each after a worker is killed mid-job', async () => {
    const before = await creatorBalance(server, user.uid);
    const jobIds: string[] = [];
    for (let i = 0; i < JOBS; i++) {
      // Two of the ten also make the browser video, so video.mp4 goes through S3 as well.
      const submitted = await submitVideo(server, user, clips[i % 2] ?? Buffer.alloc(0), {
        config: { skip_video_generation: i >= 2 },
      });
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
      jobIds.push(String(submitted.body.jobId));
    }

    // Wait for the first worker to be transcribing a job, then kill it without warning.
    const victim = workers[0];
    if (!victim) throw new Error('no worker');
    let killedJob: string | undefined;
    let engineChildren: number[] = [];
    const deadline = Date.now() + 120_000;
    while (!killedJob && Date.now() < deadline) {
      const row = await db()
        .selectFrom('jobs')
        .select(['id', 'stage'])
        .where('status', '=', 'processing')
        .where('lease_holder', 'like', `%:${victim.pid}`)
        .executeTakeFirst();
      if (row && (row.stage === 'extracting_audio' || row.stage === 'transcribing')) {
        engineChildren = victim.children();
        victim.child.kill('SIGKILL');
        killedJob = row.id;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(killedJob, victim.output()).toBeDefined();
    expect((await victim.exited).signal).toBe('SIGKILL');

    for (const jobId of jobIds) {
      const { final } = await waitForJob(server, user, jobId, { timeoutMs: 150_000, everyMs: 250 });
      expect(final.status, `${jobId}: ${final.error ?? ''}\n${workers[1]?.output() ?? ''}`).toBe(
        'completed',
      );
    }

    // The killed attempt was taken over after its lease expired.
    const killed = await db()
      .selectFrom('jobs')
      .select(['attempts', 'lease_token'])
      .where('id', '=', killedJob ?? '')
      .executeTakeFirstOrThrow();
    expect(killed.attempts).toBeGreaterThanOrEqual(2);

    // Each job charged exactly once and never refunded; none left running or queued.
    const ledger = await db()
      .selectFrom('credit_ledger')
      .select(['ref', 'delta', 'reason'])
      .where('user_id', '=', user.uid)
      .where('kind', '=', 'creator')
      .where('reason', 'in', ['job_create', 'job_refund'])
      .execute();
    expect(ledger.filter((r) => r.reason === 'job_refund')).toEqual([]);
    expect(ledger.map((r) => r.ref).sort()).toEqual([...jobIds].sort());
    expect(await creatorBalance(server, user.uid)).toBe(before - JOBS);
    const unfinished = await db()
      .selectFrom('jobs')
      .select('id')
      .where('status', '!=', 'completed')
      .execute();
    expect(unfinished).toEqual([]);
    for (const jobId of jobIds) {
      expect((await server.ctx.queue?.info(jobId))?.state).toBe('completed');
    }

    // Every output is in the bucket exactly where the rows say, and nothing else is.
    const files = await db().selectFrom('job_files').select(['job_id', 'name', 'key']).execute();
    expect(files.filter((f) => f.name === 'notes')).toHaveLength(JOBS);
    expect(files.filter((f) => f.name === 'video.mp4')).toHaveLength(2);
    for (const file of files) expect(await server.ctx.store.head(file.key)).not.toBeNull();
    const client = new S3Client({
      endpoint: s3.s3rverEndpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
    });
    const listed = await client.send(new ListObjectsV2Command({ Bucket: TEST_BUCKET }));
    client.destroy();
    const keys = (listed.Contents ?? []).flatMap((o) => (o.Key ? [o.Key] : []));
    expect(await strayObjects(server, keys)).toEqual([]);

    // The killed worker's engine child did not outlive it.
    const waitUntil = Date.now() + 10_000;
    while (engineChildren.some(isAlive) && Date.now() < waitUntil) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(engineChildren.length).toBeGreaterThan(0);
    expect(engineChildren.filter(isAlive)).toEqual([]);
  }, 240_000);

  it('a worker stopped with SIGTERM hands its job back at once; it completes once', async () => {
    // A fresh worker beside the survivor of the test above.
    workers.push(startWorker(workerEnv(2)));
    const before = await creatorBalance(server, user.uid);
    const jobIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const submitted = await submitVideo(server, user, clips[i % 2] ?? Buffer.alloc(0), {
        config: { skip_video_generation: true },
      });
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
      jobIds.push(String(submitted.body.jobId));
    }
    // The first worker seen transcribing is stopped as an orchestrator stops it: SIGTERM.
    let stopped: { worker: WorkerProcess; jobId: string } | undefined;
    const deadline = Date.now() + 120_000;
    while (!stopped && Date.now() < deadline) {
      const row = await db()
        .selectFrom('jobs')
        .select(['id', 'stage', 'lease_holder'])
        .where('status', '=', 'processing')
        .where('id', 'in', jobIds)
        .executeTakeFirst();
      const worker = workers.find((w) => row?.lease_holder?.endsWith(`:${String(w.pid)}`));
      if (row && worker && (row.stage === 'extracting_audio' || row.stage === 'transcribing')) {
        stopped = { worker, jobId: row.id };
        worker.child.kill('SIGTERM');
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    if (!stopped) throw new Error('no worker was seen transcribing');
    const sent = Date.now();
    // It exits by itself, cleanly, well before the 10 s after which stop() would SIGKILL it.
    expect(await stopped.worker.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - sent).toBeLessThan(10_000);
    // Its job went back to the queue at once: no lease had to run out.
    const given = await db()
      .selectFrom('jobs')
      .select(['status', 'lease_token'])
      .where('id', '=', stopped.jobId)
      .executeTakeFirstOrThrow();
    expect(given.lease_token).toBeNull();

    for (const jobId of jobIds) {
      const { final } = await waitForJob(server, user, jobId, { timeoutMs: 150_000, everyMs: 250 });
      expect(final.status, `${jobId}: ${final.error ?? ''}`).toBe('completed');
    }
    const ledger = await db()
      .selectFrom('credit_ledger')
      .select(['ref', 'reason'])
      .where('user_id', '=', user.uid)
      .where('kind', '=', 'creator')
      .where('ref', 'in', jobIds)
      .execute();
    expect(ledger.filter((r) => r.reason === 'job_refund')).toEqual([]);
    expect(ledger.map((r) => r.ref).sort()).toEqual([...jobIds].sort());
    expect(await creatorBalance(server, user.uid)).toBe(before - 3);
  }, 240_000);
});
