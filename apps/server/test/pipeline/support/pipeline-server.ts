import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { CheckStatusResponse, SignedUploadResponse } from '@riffscribe/core';
import type { DestinationStream } from 'pino';
import { JobRunner, type WorkerSettings } from '../../../src/jobs/job-runner.js';
import { startTestServer, type TestServer, type TestUser } from '../../support/test-server.js';
import type { TestDatabase } from '../../support/test-database.js';
import { ensureServerBuilt } from './build.js';

/** Worker settings for tests: short leases and polls so that recovery takes seconds. */
export const TEST_WORKER_SETTINGS: WorkerSettings = {
  concurrency: 1,
  leaseSeconds: 6,
  jobTimeoutSeconds: 120,
  pollSeconds: 1,
};

const verbose = process.env.PIPELINE_TEST_LOG === '1';

/** Quiet logs (PIPELINE_TEST_LOG=1 shows them all); errors always show. */
export const testLog = {
  info: (object: object, message: string) => {
    if (verbose) console.info(message, object);
  },
  warn: (object: object, message: string) => {
    if (verbose) console.warn(message, object);
  },
  error: (object: object, message: string) => {
    console.error(message, object);
  },
};

export interface PipelineServer extends TestServer {
  /** The embedded worker (the API server's own), or null when the test runs workers itself. */
  runner: JobRunner | null;
}

/**
 * The real server (startTestServer) with the pipeline's embedded worker: jobs run in this
 * process's JobRunner, the engine in a forked child built from dist/. Retries wait 1-2 s.
 */
export async function startPipelineServer(
  options: {
    env?: Record<string, string>;
    testDb?: TestDatabase;
    worker?: boolean;
    settings?: Partial<WorkerSettings>;
    /** Capture the real log of the server and its worker here (set LOG_LEVEL in `env`). */
    logStream?: DestinationStream;
  } = {},
): Promise<PipelineServer> {
  await ensureServerBuilt();
  const server = await startTestServer({
    env: { SIGNUP_CREATOR_CREDITS: '20', ...options.env },
    ...(options.testDb ? { testDb: options.testDb } : {}),
    queueOptions: { retryDelaySeconds: 1 },
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  const queue = server.ctx.queue;
  if (!queue) throw new Error('the pipeline server needs a queue');
  const runner =
    options.worker === false
      ? null
      : new JobRunner({
          database: server.ctx.database,
          queue,
          store: server.ctx.store,
          settings: { ...TEST_WORKER_SETTINGS, ...options.settings },
          // With a captured log, the worker logs through the server's logger, as in main.ts.
          log: options.logStream ? server.app.log : testLog,
          metrics: server.app.metrics,
        });
  if (runner) server.app.metrics.watchEngines(() => runner.enginePids);
  runner?.start();
  return {
    ...server,
    runner,
    async close() {
      await runner?.stop();
      await server.close();
    },
  };
}

export interface Submitted {
  status: number;
  body: Record<string, unknown>;
  gcsFilePath: string;
}

/**
 * The browser's submit sequence: a signed upload link, the PUT, then process-video. Returns the
 * process-video answer whatever its status.
 */
export async function submitVideo(
  server: TestServer,
  user: TestUser,
  bytes: Buffer,
  options: { fileName?: string; config?: Record<string, unknown> } = {},
): Promise<Submitted> {
  const fileName = options.fileName ?? 'take.mp4';
  const signed = await server.request('POST', '/api/generate-signed-upload-url', {
    token: user.token,
    json: { fileName, fileType: 'video/mp4', email: user.email, fileSize: bytes.length },
  });
  if (signed.status !== 200) throw new Error(`signed url: ${signed.status} ${await signed.text()}`);
  const { signedUrl, gcsFilePath, headers } = (await signed.json()) as SignedUploadResponse;
  const put = await fetch(signedUrl, { method: 'PUT', headers, body: new Uint8Array(bytes) });
  if (!put.ok) throw new Error(`upload: ${put.status} ${await put.text()}`);
  const res = await server.request('POST', '/api/process-video', {
    token: user.token,
    json: {
      gcsFilePath,
      email: user.email,
      fileName,
      fileSize: bytes.length,
      fileType: 'video/mp4',
      config: options.config ?? {},
    },
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, gcsFilePath };
}

export async function checkStatus(
  server: TestServer,
  user: TestUser,
  jobId: string,
): Promise<CheckStatusResponse> {
  const res = await server.request('GET', `/api/check-status?jobId=${jobId}`, {
    token: user.token,
  });
  if (res.status !== 200) throw new Error(`check-status: ${res.status} ${await res.text()}`);
  return (await res.json()) as CheckStatusResponse;
}

/**
 * Polls check-status (every `everyMs`) until the job is completed or failed; returns the final
 * status, every distinct (status, stage) seen on the way, and every poll's answer.
 */
export async function waitForJob(
  server: TestServer,
  user: TestUser,
  jobId: string,
  options: {
    timeoutMs?: number;
    everyMs?: number;
    onStatus?: (s: CheckStatusResponse) => void;
  } = {},
): Promise<{
  final: CheckStatusResponse;
  seen: CheckStatusResponse[];
  polls: CheckStatusResponse[];
}> {
  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  const seen: CheckStatusResponse[] = [];
  const polls: CheckStatusResponse[] = [];
  for (;;) {
    const status = await checkStatus(server, user, jobId);
    polls.push(status);
    const last = seen.at(-1);
    if (last?.stage !== status.stage || last.status !== status.status) seen.push(status);
    options.onStatus?.(status);
    if (status.status === 'completed' || status.status === 'failed') {
      return { final: status, seen, polls };
    }
    if (Date.now() > deadline) {
      throw new Error(`job ${jobId} still ${status.status}/${status.stage} after the timeout`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 100));
  }
}

/** Every key in a local object store directory. */
export async function localObjectKeys(storageDir: string): Promise<string[]> {
  const root = path.join(storageDir, 'objects');
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(root, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

/**
 * Object keys that no row refers to: not an upload link handed out, not a job's output, not a
 * job's thumbnail. A correct pipeline leaves none.
 */
export async function strayObjects(server: TestServer, keys: string[]): Promise<string[]> {
  const db = server.ctx.database.db;
  const uploads = await db.selectFrom('uploads').select('key').execute();
  const files = await db.selectFrom('job_files').select('key').execute();
  const thumbs = await db.selectFrom('jobs').select('thumbnail_key').execute();
  const known = new Set<string>([
    ...uploads.map((r) => r.key),
    ...files.map((r) => r.key),
    ...thumbs.flatMap((r) => (r.thumbnail_key ? [r.thumbnail_key] : [])),
  ]);
  return keys.filter((key) => !known.has(key));
}

/** The user's credit ledger rows about one job. */
export async function jobLedger(server: TestServer, userId: string, jobId: string) {
  return server.ctx.database.db
    .selectFrom('credit_ledger')
    .select(['kind', 'delta', 'reason'])
    .where('user_id', '=', userId)
    .where('ref', '=', jobId)
    .orderBy('id')
    .execute();
}

export async function creatorBalance(server: TestServer, userId: string): Promise<number> {
  const row = await server.ctx.database.db
    .selectFrom('credit_balances')
    .select('balance')
    .where('user_id', '=', userId)
    .where('kind', '=', 'creator')
    .executeTakeFirst();
  return row?.balance ?? 0;
}
