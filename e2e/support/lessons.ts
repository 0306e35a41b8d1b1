import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { ChordEvent, NoteEvent } from '@riffscribe/core';
import { completeJob, submitUpload } from '../../apps/server/test/support/fixtures.js';
import {
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../apps/server/test/support/test-server.js';
import { ConversionRunner } from '../../apps/server/src/jobs/conversion-runner.js';
import { jobObjectKey } from '../../apps/server/src/storage/keys.js';

export type { TestServer, TestUser };

/**
 * The real server (same app, routes and database code as `npm start`) started in this process
 * and serving the built web app, so a test can set up finished, failed or half-done lessons the
 * way the worker would leave them. The screens that need lessons in a given state use this
 * instead of the worker (which runs in e2e/full-path.test.ts, the whole path), so that they are
 * deterministic. setProgress and completeLikeWorker write the job rows directly.
 */
export async function startServerWithWeb(env: Record<string, string> = {}): Promise<TestServer> {
  const server = await startTestServer({ env: { SERVE_WEB: 'true', ...env } });
  // The MP4 export's converter, as every API process runs it (main.ts).
  const conversions = new ConversionRunner({
    database: server.ctx.database,
    store: server.ctx.store,
    log: { info: () => undefined, warn: () => undefined, error: console.error },
    timeLimitSeconds: server.config.convertTimeLimitSeconds,
    leaseSeconds: 60,
  });
  conversions.start();
  return {
    ...server,
    async close() {
      await conversions.stop();
      await server.close();
    },
  };
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

/** Stores one output file of a job as the worker does (object, then its job_files row). */
async function storeOutput(
  server: TestServer,
  jobId: string,
  name: string,
  body: Buffer,
  contentType: string,
): Promise<void> {
  const key = jobObjectKey(jobId, name === 'results' ? 'results.json' : name, 'original');
  await server.ctx.store.put(key, body, contentType);
  await server.services.jobs.files.upsert({
    jobId,
    name,
    version: 'original',
    key,
    contentType,
    size: body.length,
  });
}

/**
 * Finishes a job as the worker does: notes, chords and results (one sample note), `video` as the
 * lesson's video.mp4, then the completed status.
 */
export async function completeLikeWorker(server: TestServer, jobId: string, video: string) {
  await storeOutput(server, jobId, 'video.mp4', readFileSync(video), 'video/mp4');
  await completeJob(server, jobId);
}

/**
 * A finished lesson owned by `owner` with exact, known notes (what is drawn where needs them):
 * the video goes through the real signed-upload and process-video calls, then the results, notes,
 * chords, browser video (and a guitar stem) are stored as the worker stores them and the job is
 * marked completed. e2e/player-pipeline.test.ts covers the player on a lesson the real pipeline
 * wrote. Returns the job id.
 */
export async function seedLesson(
  server: TestServer,
  owner: TestUser,
  lesson: {
    notes: NoteEvent[];
    chords: ChordEvent[];
    results: object;
    /** Path of the lesson's video (makeVideo). */
    video: string;
    duration: number;
    stem?: Buffer;
  },
): Promise<string> {
  const video = readFileSync(lesson.video);
  const job = await submitUpload(server, owner, { bytes: video, duration: lesson.duration });
  await completeJob(server, job.jobId, { notes: lesson.notes, chords: lesson.chords });
  // As the worker writes it: the results say which audio files exist.
  const results = Buffer.from(
    JSON.stringify({ ...lesson.results, audio_files: lesson.stem ? ['guitar.wav'] : [] }),
  );
  await storeOutput(server, job.jobId, 'results', results, 'application/json');
  await storeOutput(server, job.jobId, 'video.mp4', video, 'video/mp4');
  if (lesson.stem) await storeOutput(server, job.jobId, 'guitar.wav', lesson.stem, 'audio/wav');
  return job.jobId;
}

/** Shares a lesson to Explore as its owner's Share menu does (PATCH /api/job). */
export async function shareToExplore(server: TestServer, owner: TestUser, jobId: string) {
  const res = await server.request('PATCH', `/api/job?id=${jobId}`, {
    token: owner.token,
    json: { sharedToExplore: true },
  });
  if (res.status !== 200) throw new Error(`share: ${String(res.status)} ${await res.text()}`);
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
