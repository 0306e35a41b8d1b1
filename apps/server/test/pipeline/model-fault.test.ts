import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MESSAGES } from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../support/test-server.js';
import { makeClip, readClip } from './support/clips.js';
import {
  creatorBalance,
  jobLedger,
  startPipelineServer,
  submitVideo,
  waitForJob,
  type PipelineServer,
} from './support/pipeline-server.js';

/**
 * A worker whose note model file is missing (RIFFSCRIBE_MODEL_FILE points nowhere): the engine
 * child refuses with model_failed naming the file, the job is retried as for any transient fault
 * and then fails with the spec's message, the reason kept, and its credit refunded.
 */
describe('pipeline, missing model file', () => {
  let server: PipelineServer;
  let user: TestUser;
  let dir: string;
  let clip: Buffer;
  let missing: string;
  const saved = process.env.RIFFSCRIBE_MODEL_FILE;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-model-fault-'));
    missing = path.join(dir, 'no-model-here.onnx');
    // The engine child inherits this process's environment.
    process.env.RIFFSCRIBE_MODEL_FILE = missing;
    const [file] = await Promise.all([
      makeClip(dir, 'clip.mp4', { seconds: 3, offset: 4 }),
      (async () => {
        server = await startPipelineServer();
        user = await server.createUser();
      })(),
    ]);
    clip = await readClip(file);
  }, 180_000);
  afterAll(async () => {
    await server.close();
    if (saved === undefined) delete process.env.RIFFSCRIBE_MODEL_FILE;
    else process.env.RIFFSCRIBE_MODEL_FILE = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails the job with the spec message, names the file and refunds the credit', async () => {
    const before = await creatorBalance(server, user.uid);
    const submitted = await submitVideo(server, user, clip, {
      config: { skip_video_generation: true },
    });
    expect(submitted.status).toBe(200);
    const jobId = String(submitted.body.jobId);
    const { final } = await waitForJob(server, user, jobId, { everyMs: 100, timeoutMs: 110_000 });
    expect(final).toMatchObject({ status: 'failed', message: MESSAGES.jobFailed });
    expect(final.error).toContain(missing);
    expect(await creatorBalance(server, user.uid)).toBe(before);
    expect(await jobLedger(server, user.uid, jobId)).toEqual([
      { kind: 'creator', delta: -1, reason: 'job_create' },
      { kind: 'creator', delta: 1, reason: 'job_refund' },
    ]);
  }, 120_000);

  it('fails the same way when the browser video is being made beside the engine', async () => {
    const before = await creatorBalance(server, user.uid);
    const submitted = await submitVideo(server, user, clip, {
      config: { skip_video_generation: false },
    });
    expect(submitted.status).toBe(200);
    const jobId = String(submitted.body.jobId);
    const { final } = await waitForJob(server, user, jobId, { everyMs: 100, timeoutMs: 110_000 });
    // The engine's failure, not the video's (which it stopped) nor a cancellation.
    expect(final).toMatchObject({ status: 'failed', message: MESSAGES.jobFailed });
    expect(final.error).toContain(missing);
    expect(await creatorBalance(server, user.uid)).toBe(before);
  }, 120_000);
});
