import {
  type ChordEvent,
  type NoteEvent,
  type ProcessVideoResponse,
  type SignedUploadResponse,
  plainNote,
} from '@riffscribe/core';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { JobLeasesRepository } from '../../src/repositories/job-leases.repository.js';
import { jobObjectKey } from '../../src/storage/keys.js';
import { tinyVideo } from './media.js';
import type { TestServer, TestUser } from './test-server.js';

/** A few notes and chords in the engine's output format. */
export const SAMPLE_NOTES: NoteEvent[] = [
  plainNote({
    time: 0.5,
    end_time: 1,
    string: 3,
    fret: 2,
  }),
];
export const SAMPLE_CHORDS: ChordEvent[] = [
  { time: 0.5, end_time: 2, chord: 'Am', event_type: 'chord' },
];

/**
 * The PUT of an upload, sent again when the connection was reset before an answer came (twice
 * at most): on a machine loaded far beyond its cores, a pooled keep-alive connection can be
 * closed by the server just as the client reuses it (ECONNRESET; test-server.ts `request` does
 * the same). A PUT to the same link stores the same object, so sending it again is safe.
 */
async function putWithRetry(
  url: string,
  headers: Record<string, string>,
  bytes: Buffer,
): Promise<Response> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await fetch(url, { method: 'PUT', headers, body: new Uint8Array(bytes) });
    } catch (error) {
      const code = ((error as Error).cause as { code?: string } | undefined)?.code;
      if (attempt >= 3 || (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET')) throw error;
    }
  }
}

/**
 * Uploads a file (by default a tiny real video, since process-video probes it) through the real
 * signed-URL flow and submits it; returns the answer.
 */
export async function submitUpload(
  server: TestServer,
  user: TestUser,
  options: { bytes?: Buffer; duration?: number | null } = {},
): Promise<ProcessVideoResponse> {
  const bytes = options.bytes ?? tinyVideo();
  const signed = await server.request('POST', '/api/generate-signed-upload-url', {
    token: user.token,
    json: {
      fileName: 'riff.mp4',
      fileType: 'video/mp4',
      email: user.email,
      fileSize: bytes.length,
    },
  });
  if (signed.status !== 200) throw new Error(`signed url: ${signed.status} ${await signed.text()}`);
  const { signedUrl, gcsFilePath, headers } = (await signed.json()) as SignedUploadResponse;
  const put = await putWithRetry(signedUrl, headers, bytes);
  if (!put.ok) throw new Error(`upload: ${put.status} ${await put.text()}`);
  const processed = await server.request('POST', '/api/process-video', {
    token: user.token,
    json: {
      gcsFilePath,
      email: user.email,
      fileName: 'riff.mp4',
      fileSize: bytes.length,
      fileType: 'video/mp4',
      config: { metadata: { duration: options.duration ?? 12 } },
    },
  });
  if (processed.status !== 200) {
    throw new Error(`process-video: ${processed.status} ${await processed.text()}`);
  }
  return (await processed.json()) as ProcessVideoResponse;
}

/**
 * Finishes a job the way the worker does: stores results, notes and chords (original version)
 * and marks it completed. Test set-up for the routes that read a finished lesson.
 */
export async function completeJob(
  server: TestServer,
  jobId: string,
  options: { notes?: NoteEvent[]; chords?: ChordEvent[] } = {},
): Promise<void> {
  const { store, database } = server.ctx;
  const files: [string, unknown][] = [
    ['notes', options.notes ?? SAMPLE_NOTES],
    ['chords', options.chords ?? SAMPLE_CHORDS],
    ['results', { capo: 0, tuning_name: 'Standard', musical_key: 'A minor', duration: 12 }],
  ];
  for (const [name, content] of files) {
    const key = jobObjectKey(jobId, `${name}.json`, 'original');
    const body = Buffer.from(JSON.stringify(content));
    await store.put(key, body, 'application/json');
    await database.db
      .insertInto('job_files')
      .values({
        job_id: jobId,
        name,
        version: 'original',
        key,
        content_type: 'application/json',
        size: body.length,
      })
      .execute();
  }
  await database.db
    .updateTable('jobs')
    .set({ status: 'completed', stage: 'completed', progress: 100, completed_at: sql`now()` })
    .where('id', '=', jobId)
    .execute();
}

/** A completed lesson owned by `owner`, optionally shared to Explore. */
export async function createLesson(
  server: TestServer,
  owner: TestUser,
  options: { shared?: boolean } = {},
): Promise<ProcessVideoResponse> {
  const job = await submitUpload(server, owner);
  await completeJob(server, job.jobId);
  if (options.shared) {
    const res = await server.request('PATCH', `/api/job?id=${job.jobId}`, {
      token: owner.token,
      json: { sharedToExplore: true },
    });
    if (res.status !== 200) throw new Error(`share: ${res.status} ${await res.text()}`);
  }
  return job;
}

/**
 * A submitted job taken by `holder` ("host:pid") for an hour at the transcribing stage, as a
 * worker leases it: for tests of what happens when that worker is gone.
 */
export async function leasedJob(
  server: TestServer,
  user: TestUser,
  holder: string,
): Promise<string> {
  const { jobId } = await submitUpload(server, user);
  const claimed = await new JobLeasesRepository(server.ctx.database.db).claim(jobId, {
    token: randomUUID(),
    holder,
    seconds: 3600,
    update: { stage: 'transcribing', progress: 9, message: 'Transcribing' },
  });
  if (typeof claimed !== 'object') throw new Error(`could not lease ${jobId}: ${claimed}`);
  return jobId;
}
