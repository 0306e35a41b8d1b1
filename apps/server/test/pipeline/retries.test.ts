import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MESSAGES } from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobRunner } from '../../src/jobs/job-runner.js';
import type { TestUser } from '../support/test-server.js';
import { makeClip, readClip } from './support/clips.js';
import {
  creatorBalance,
  jobLedger,
  startPipelineServer,
  submitVideo,
  TEST_WORKER_SETTINGS,
  testLog,
  waitForJob,
  type PipelineServer,
} from './support/pipeline-server.js';

/**
 * Transient faults: the engine child process is killed (SIGKILL) while it transcribes. The
 * worker restarts it and retries the job with backoff, at most twice; after that the job fails
 * with a specific reason and its credit is refunded.
 */
describe('pipeline, retries after a crashed engine', () => {
  let server: PipelineServer;
  let user: TestUser;
  let dir: string;
  let clip: Buffer;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-retries-'));
    const [file] = await Promise.all([
      makeClip(dir, 'clip.mp4', { seconds: 6, offset: 4 }),
      (async () => {
        server = await startPipelineServer();
        user = await server.createUser();
      })(),
    ]);
    clip = await readClip(file);
  }, 180_000);
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const jobRow = (jobId: string) =>
    server.ctx.database.db
      .selectFrom('jobs')
      .select(['status', 'stage', 'attempts', 'lease_token', 'error'])
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();

  /** Kills the engine child while it works on attempt n, for each n in `attempts`. */
  async function killDuring(jobId: string, attempts: number[]): Promise<number[]> {
    const killed: number[] = [];
    const deadline = Date.now() + 90_000;
    while (killed.length < attempts.length && Date.now() < deadline) {
      const row = await jobRow(jobId);
      if (row.status === 'completed' || row.status === 'failed') break;
      const busy = row.stage === 'extracting_audio' || row.stage === 'transcribing';
      if (row.status === 'processing' && busy && attempts.includes(row.attempts)) {
        if (!killed.includes(row.attempts)) {
          const pid = server.runner?.enginePids[0];
          if (pid === undefined) throw new Error('no engine child');
          process.kill(pid, 'SIGKILL');
          killed.push(row.attempts);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return killed;
  }

  it('restarts the engine and completes the job on a retry', async () => {
    const before = await creatorBalance(server, user.uid);
    const firstPid = server.runner?.enginePids[0];
    const submitted = await submitVideo(server, user, clip, {
      config: { skip_video_generation: true },
    });
    const jobId = String(submitted.body.jobId);
    const [killed, outcome] = await Promise.all([
      killDuring(jobId, [1]),
      waitForJob(server, user, jobId, { everyMs: 50 }),
    ]);
    expect(killed).toEqual([1]);
    expect(outcome.final.status).toBe('completed');
    // Back in the queue between the attempts, saying why.
    const requeued = outcome.seen.find(
      (s) => s.status === 'queued' && s.message.includes('Retrying'),
    );
    expect(requeued?.message).toMatch(/transcription process stopped unexpectedly/);
    expect(await jobRow(jobId)).toMatchObject({ attempts: 2, lease_token: null, error: null });
    expect(server.runner?.enginePids[0]).not.toBe(firstPid);
    expect(await creatorBalance(server, user.uid)).toBe(before - 1);
    expect(await jobLedger(server, user.uid, jobId)).toEqual([
      { kind: 'creator', delta: -1, reason: 'job_create' },
    ]);
  }, 120_000);

  it('fails the job after two retries, with the reason, and refunds its credit', async () => {
    const before = await creatorBalance(server, user.uid);
    const submitted = await submitVideo(server, user, clip, {
      config: { skip_video_generation: true },
    });
    const jobId = String(submitted.body.jobId);
    const [killed, outcome] = await Promise.all([
      killDuring(jobId, [1, 2, 3]),
      waitForJob(server, user, jobId, { everyMs: 100 }),
    ]);
    expect(killed).toEqual([1, 2, 3]);
    expect(outcome.final).toMatchObject({
      status: 'failed',
      stage: 'failed',
      message: MESSAGES.jobFailed,
    });
    expect(outcome.final.error).toMatch(/transcription process stopped unexpectedly/);
    expect(await jobRow(jobId)).toMatchObject({ attempts: 3, lease_token: null });
    expect(await creatorBalance(server, user.uid)).toBe(before);
    expect(await jobLedger(server, user.uid, jobId)).toEqual([
      { kind: 'creator', delta: -1, reason: 'job_create' },
      { kind: 'creator', delta: 1, reason: 'job_refund' },
    ]);
    // The queue entry is failed too, so nobody picks the job up again. The runner fails the job
    // row (and refunds) first and its queue entry just after, so the entry may still be active
    // for a moment when the status first says failed.
    await expect
      .poll(() => server.ctx.queue?.info(jobId), { timeout: 30_000 })
      .toMatchObject({ state: 'failed', retryCount: 2 });
  }, 120_000);

  it('gives a job back when its worker shuts down, and another worker finishes it', async () => {
    const submitted = await submitVideo(server, user, clip, {
      config: { skip_video_generation: true },
    });
    const jobId = String(submitted.body.jobId);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const row = await jobRow(jobId);
      if (row.stage === 'extracting_audio' || row.stage === 'transcribing') break;
      if (row.status === 'completed' || row.status === 'failed') {
        throw new Error(`job ${jobId} ended (${row.status}) before the worker could be stopped`);
      }
      if (Date.now() > deadline) {
        throw new Error(
          `job ${jobId} never reached the engine in 60 s (${row.status}/${row.stage})`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await server.runner?.stop();
    expect(await jobRow(jobId)).toMatchObject({
      status: 'queued',
      stage: 'queued',
      lease_token: null,
    });
    expect((await server.ctx.queue?.info(jobId))?.state).toBe('retry');

    const queue = server.ctx.queue;
    if (!queue) throw new Error('no queue');
    const next = new JobRunner({
      database: server.ctx.database,
      queue,
      store: server.ctx.store,
      settings: TEST_WORKER_SETTINGS,
      log: testLog,
    });
    next.start();
    try {
      const { final } = await waitForJob(server, user, jobId);
      expect(final.status).toBe('completed');
      expect(await jobRow(jobId)).toMatchObject({ attempts: 2 });
    } finally {
      await next.stop();
    }
  }, 120_000);
});
