import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { completeJob, submitUpload } from '../../apps/server/test/support/fixtures.js';
import {
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../apps/server/test/support/test-server.js';
import { jobObjectKey } from '../../apps/server/src/storage/keys.js';
import { findFfmpeg } from '../../packages/engine/src/adapters/binaries.js';

export type { TestServer, TestUser };

/**
 * The real server (same app, routes and database code as `npm start`) started in this process
 * and serving the built web app, so a test can set up finished, failed or half-done lessons the
 * way the worker would leave them. The screens that need lessons in a given state use this
 * instead of the worker (which runs in e2e/full-path.test.ts, the whole path), so that they are
 * deterministic. setProgress and completeLikeWorker write the job rows directly.
 */
export async function startServerWithWeb(env: Record<string, string> = {}): Promise<TestServer> {
  return startTestServer({ env: { SERVE_WEB: 'true', ...env } });
}

/** The account a browser sign-in created, as a test user with an access token of its own. */
export async function userByEmail(server: TestServer, email: string): Promise<TestUser> {
  const user = await server.services.accounts.users.findByEmail(email);
  if (!user) throw new Error(`${email} has not signed in`);
  return server.newSession({
    uid: user.uid,
    email: user.email,
    handle: user.handle,
    role: user.role,
    token: '',
    sid: '',
  });
}

/** A JPEG frame of `video` at `seconds`, as the browser's thumbnail would be. */
export function jpegFrame(video: string, seconds: number): Buffer {
  return execFileSync(
    findFfmpeg(),
    [
      '-hide_banner',
      '-loglevel',
      'error',
      '-ss',
      String(seconds),
      '-i',
      video,
      '-frames:v',
      '1',
      '-vf',
      'scale=480:-2',
      '-f',
      'mjpeg',
      'pipe:1',
    ],
    { timeout: 60_000 },
  );
}

/** Submits a job for `owner` through the real upload calls; it stays queued (no worker here). */
export async function queuedJob(server: TestServer, owner: TestUser, thumbnail?: Buffer) {
  const job = await submitUpload(server, owner);
  if (thumbnail) {
    const res = await server.request('POST', `/api/upload-thumbnail?requestId=${job.requestId}`, {
      token: owner.token,
      body: new Uint8Array(thumbnail),
      headers: { 'content-type': 'image/jpeg' },
    });
    if (res.status !== 204) throw new Error(`thumbnail: ${res.status} ${await res.text()}`);
  }
  return job;
}

/**
 * Finishes a job as the worker does: notes, chords and results (one sample note), `video` as the
 * lesson's video.mp4, then the completed status.
 */
export async function completeLikeWorker(server: TestServer, jobId: string, video: string) {
  const key = jobObjectKey(jobId, 'video.mp4', 'original');
  const body = readFileSync(video);
  await server.ctx.store.put(key, body, 'video/mp4');
  await server.ctx.database.db
    .insertInto('job_files')
    .values({
      job_id: jobId,
      name: 'video.mp4',
      version: 'original',
      key,
      content_type: 'video/mp4',
      size: body.length,
    })
    .execute();
  await completeJob(server, jobId);
}

/**
 * A finished lesson: notes, chords and results as the worker stores them, plus `video` as its
 * video.mp4; optionally named and shared to Explore.
 */
export async function finishedLesson(
  server: TestServer,
  owner: TestUser,
  options: { video: string; thumbnail?: Buffer; name?: string; shared?: boolean },
) {
  const job = await queuedJob(server, owner, options.thumbnail);
  await completeLikeWorker(server, job.jobId, options.video);
  const patch = async (json: unknown) => {
    const res = await server.request('PATCH', `/api/job?id=${job.jobId}`, {
      token: owner.token,
      json,
    });
    if (res.status !== 200) throw new Error(`patch: ${res.status} ${await res.text()}`);
  };
  if (options.name) await patch({ projectName: options.name });
  if (options.shared) await patch({ sharedToExplore: true });
  return job;
}

/** Moves a job along as the worker does: status, stage, percent and message on the job row. */
export async function setProgress(
  server: TestServer,
  jobId: string,
  update: {
    status: 'queued' | 'processing' | 'completed' | 'failed';
    stage: string;
    progress: number;
    message?: string;
    error?: string | null;
  },
): Promise<void> {
  await server.ctx.database.db
    .updateTable('jobs')
    .set({
      status: update.status,
      stage: update.stage,
      progress: update.progress,
      ...(update.message !== undefined ? { message: update.message } : {}),
      ...(update.error !== undefined ? { error: update.error } : {}),
      ...(update.status === 'completed' ? { completed_at: sql`now()` } : {}),
    })
    .where('id', '=', jobId)
    .execute();
}

/** Rates a lesson as another user would (1..5). */
export async function rate(server: TestServer, rater: TestUser, jobId: string, stars: number) {
  const res = await server.request('POST', '/api/job-stars', {
    token: rater.token,
    json: { jobId, stars },
  });
  if (res.status !== 200) throw new Error(`rate: ${res.status} ${await res.text()}`);
}

/** Records an open of a lesson by a user (the Explore 'opens' count). */
export async function open(server: TestServer, viewer: TestUser, jobId: string) {
  const res = await server.request('POST', '/api/job-load', {
    token: viewer.token,
    json: { jobId },
  });
  if (res.status !== 200) throw new Error(`job-load: ${res.status} ${await res.text()}`);
}
