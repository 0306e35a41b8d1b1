import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type {
  CheckStatusResponse,
  DownloadResultResponse,
  ExploreItem,
  Paged,
  SignedUploadResponse,
} from '@riffscribe/core';
// context.ts augments fastify's types; the module must be part of this program for that.
import type {} from 'fastify';
import { SessionsRepository } from '../src/auth/sessions.repository.js';
import { ACCESS_TOKEN_TTL_SECONDS, accessTokenKey, issueAccessToken } from '../src/auth/tokens.js';
import type { User } from '../src/repositories/users.repository.js';
import { AccountService } from '../src/services/account.service.js';
import { fixtureFile } from '@riffscribe/engine';
import { ffmpeg } from '../test/pipeline/support/clips.js';
import { startWorker, type WorkerProcess } from '../test/pipeline/support/workers.js';
import { freePort, reachable } from '../test/support/net.js';
import {
  openTestDatabase,
  TEST_POSTGRES_URL,
  type TestDatabase,
} from '../test/support/test-database.js';

/**
 * `npm run soak`: the scaled topology under mixed traffic for a bounded time, on loopback only.
 * The built API server (`apps/server/dist/main.js`, EMBEDDED_WORKER=false) and two worker
 * processes (`apps/server/dist/worker.js`) share a fresh schema of the local PostgreSQL test
 * database (dropped at the end) and one local storage directory. Simulated users (created in the
 * database with creator credits, bearer tokens signed as the server signs them, as the pipeline
 * bench does) loop over: upload a 4-8 s clip and process-video, poll check-status every second
 * while it runs, read the finished lesson as the player does (job, notes, chords, the results
 * file through its signed URL), share it to Explore, list Explore and look at and rate someone
 * else's lesson. Every kill interval (a quarter of the run: 5 minutes of the default 20) one
 * worker is killed with SIGKILL (preferably one holding a job) and a replacement is started.
 * After the traffic, a drain period lets the queued jobs finish; then it checks and prints:
 * jobs submitted/completed/failed/lost, each job charged exactly once (one `job_create` ledger
 * row, no refund for a completed one), server RSS growth after warm-up, check-status latency
 * and PASS/FAIL per target. Writes the figures to apps/server/bench-results/soak-latest.json.
 *
 *   npm run soak -- [--minutes 20] [--users 3] [--kill-every-seconds N] [--drain-seconds 240]
 *                   [--warmup-seconds N] [--video-every 4]
 *
 * PostgreSQL: TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test (loopback only).
 */

const SERVER_ROOT = path.resolve(import.meta.dirname, '../../..');
const REPO_ROOT = path.resolve(SERVER_ROOT, '../..');
const MAIN = path.join(SERVER_ROOT, 'dist/main.js');
const GUITAR_WAV = fixtureFile(REPO_ROOT, 'guitarset/00_BN1-129-Eb_comp_mic.wav');
const RESULTS = path.join(SERVER_ROOT, 'bench-results/soak-latest.json');

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '20' },
    users: { type: 'string', default: '3' },
    'kill-every-seconds': { type: 'string' },
    'drain-seconds': { type: 'string', default: '240' },
    'warmup-seconds': { type: 'string' },
    'video-every': { type: 'string', default: '4' },
    'lease-seconds': { type: 'string', default: '15' },
  },
});
const MINUTES = Number(args.minutes);
const USERS = Number(args.users);
const DURATION_MS = MINUTES * 60_000;
/** A kill every quarter of the run: every 5 minutes of the default 20. */
const KILL_EVERY_MS = args['kill-every-seconds']
  ? Number(args['kill-every-seconds']) * 1000
  : DURATION_MS / 4;
const DRAIN_MS = Number(args['drain-seconds']) * 1000;
/** The warm-up (a tenth of the run, 20 s to a minute): RSS growth is measured from the most the server held in it. */
const WARMUP_MS = args['warmup-seconds']
  ? Number(args['warmup-seconds']) * 1000
  : Math.min(60_000, Math.max(20_000, DURATION_MS / 10));
/** Every n-th job of a user also makes the browser video (video.mp4); the others skip it. */
const VIDEO_EVERY = Number(args['video-every']);
const LEASE_SECONDS = Number(args['lease-seconds']);
const WORKERS = 2;
const CREDITS = 10_000;
const CLIP_SECONDS = [4, 5, 6, 8];

for (const [name, value] of Object.entries({ MINUTES, USERS, DRAIN_MS, KILL_EVERY_MS })) {
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`soak: ${name.toLowerCase()} must be a positive number`);
    process.exit(2);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

/** Resident memory of a process in bytes, from /proc (Linux). */
function rssBytes(pid: number): number | null {
  try {
    const kb = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : null;
  } catch {
    return null;
  }
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;
const clock = (t0: number) => {
  const secs = Math.round((Date.now() - t0) / 1000);
  return `${String(Math.floor(secs / 60)).padStart(2, '0')}:${String(secs % 60).padStart(2, '0')}`;
};

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return ['127.0.0.1', 'localhost', '::1'].includes(host);
}

interface JobRecord {
  jobId: string;
  user: number;
  submittedAt: number;
  /** The last status the user saw; final once completed or failed. */
  status: string;
  error: string | null;
}

interface Counters {
  requests: Record<string, number>;
  errors: Record<string, number>;
  errorSamples: string[];
}

// Everything started here, for the teardown (also on Ctrl-C).
const teardown: { server: ChildProcess | null; workers: WorkerProcess[]; dir: string | null } = {
  server: null,
  workers: [],
  dir: null,
};
let testDb: TestDatabase | null = null;
const state = { stopping: false };
/** Whether the teardown has begun (a function, so that no loop narrows the flag). */
const stopped = (): boolean => state.stopping;
let interrupted = false;

async function cleanup(): Promise<void> {
  state.stopping = true;
  const server = teardown.server;
  const exits: Promise<unknown>[] = teardown.workers.map((w) => w.stop());
  if (server?.exitCode === null && server.signalCode === null) {
    exits.push(new Promise((resolve) => server.once('exit', resolve)));
    server.kill('SIGTERM');
    const timer = setTimeout(() => server.kill('SIGKILL'), 10_000);
    await Promise.all(exits);
    clearTimeout(timer);
  } else {
    await Promise.all(exits);
  }
  teardown.server = null;
  teardown.workers = [];
  if (testDb) {
    const db = testDb;
    testDb = null;
    await db.dispose().catch((error: unknown) => {
      console.error(`soak: could not drop the schema ${db.searchPath ?? ''}: ${String(error)}`);
    });
  }
  if (teardown.dir) rmSync(teardown.dir, { recursive: true, force: true });
  teardown.dir = null;
}

process.on('SIGINT', () => {
  if (interrupted) return;
  interrupted = true;
  console.error('\nsoak: interrupted, tearing down (server, workers, schema, files)...');
  void cleanup().finally(() => process.exit(130));
});

async function main(): Promise<void> {
  if (!isLoopback(TEST_POSTGRES_URL)) {
    throw new Error(`the soak runs on loopback only; ${TEST_POSTGRES_URL} is not a local address`);
  }
  const pgUrl = new URL(TEST_POSTGRES_URL);
  if (!(await reachable(pgUrl.hostname, Number(pgUrl.port || 5432)))) {
    console.error(
      `soak: PostgreSQL is not reachable at ${pgUrl.host}. The soak runs the scaled topology ` +
        '(API server + 2 workers sharing PostgreSQL); start PostgreSQL there (trust auth, database ' +
        '`test`) or point TEST_DATABASE_URL at a local one.',
    );
    process.exit(2);
  }

  const dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-soak-'));
  teardown.dir = dir;
  const storageDir = path.join(dir, 'storage');
  const secret = randomBytes(32).toString('base64url');
  const port = await freePort();
  const url = `http://127.0.0.1:${String(port)}`;

  testDb = await openTestDatabase('postgres');
  const schema = testDb.searchPath ?? '';
  const db = testDb.database.db;
  const accounts = new AccountService(testDb.database, {
    adminEmails: [],
    pilotEmails: [],
    signupCredits: { creator: CREDITS, view: CREDITS },
  });
  const users: User[] = [];
  for (let i = 0; i < USERS; i++) {
    users.push(
      await accounts.signIn({
        issuer: 'soak',
        subject: randomUUID(),
        email: `soak-${String(i)}@example.test`,
        name: `Soak ${String(i)}`,
      }),
    );
  }

  // Real MP4s (H.264 + AAC) of 4-8 s: a generated picture, the GuitarSet recording as sound.
  // (The tests' makeClip finds the recording from its source folder, not from a build.)
  const clips = await Promise.all(
    CLIP_SECONDS.map(async (seconds, i) => {
      const file = path.join(dir, `clip-${String(i)}.mp4`);
      await ffmpeg([
        ...['-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=25'],
        ...['-stream_loop', '-1', '-ss', String((i * 4) % 18), '-i', GUITAR_WAV],
        ...['-map', '0:v', '-map', '1:a', '-t', String(seconds)],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
        ...['-c:a', 'aac', '-b:a', '96k', '-movflags', '+faststart', '-f', 'mp4', '-y', file],
      ]);
      return readFileSync(file);
    }),
  );

  const sharedEnv = {
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    RIFFSCRIBE_SECRET: secret,
    DATABASE_URL: TEST_POSTGRES_URL,
    DATABASE_SCHEMA: schema,
    STORAGE_DRIVER: 'local',
    STORAGE_DIR: storageDir,
    WORKER_LEASE_SECONDS: String(LEASE_SECONDS),
    WORKER_POLL_SECONDS: '1',
    JOB_RETRY_DELAY_SECONDS: '2',
  };
  const server = spawn(process.execPath, [MAIN], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      ...sharedEnv,
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      DATA_DIR: path.join(dir, 'server'),
      EMBEDDED_WORKER: 'false',
      SERVE_WEB: 'false',
      RATE_LIMIT_PER_MINUTE: '1000000',
      RATE_LIMIT_WRITES_PER_MINUTE: '1000000',
      RATE_LIMIT_AUTH_PER_MINUTE: '1000000',
      RATE_LIMIT_STATIC_PER_MINUTE: '1000000',
      UPLOAD_RATE_LIMIT_PER_MINUTE: '1000000',
    },
  });
  teardown.server = server;
  const serverPid = server.pid;
  if (serverPid === undefined) throw new Error('the server did not start');
  const exit: { server: string | null } = { server: null };
  server.once('exit', (code, signal) => {
    exit.server = `code ${String(code)}, signal ${String(signal)}`;
  });

  let workerSeq = 0;
  /** Workers this script killed on purpose; any other exit before the teardown is reported. */
  const killedOnPurpose = new Set<number>();
  const unexpectedExits: string[] = [];
  const startOneWorker = () => {
    const worker = startWorker(
      {
        ...sharedEnv,
        DATA_DIR: path.join(dir, `worker-${String(workerSeq++)}`),
        WORKER_CONCURRENCY: '1',
      },
      path.join(SERVER_ROOT, 'dist'),
    );
    void worker.exited.then(({ code, signal }) => {
      if (stopped() || killedOnPurpose.has(worker.pid)) return;
      const line = `worker ${String(worker.pid)} exited by itself (code ${String(code)}, signal ${String(signal)})`;
      unexpectedExits.push(line);
      console.error(`soak: ${line}:\n${worker.output().slice(-3000)}`);
    });
    return worker;
  };
  for (let i = 0; i < WORKERS; i++) teardown.workers.push(startOneWorker());

  const bootAt = Date.now();
  for (;;) {
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (exit.server !== null) throw new Error(`the server exited at start-up (${exit.server})`);
    if (Date.now() - bootAt > 60_000) throw new Error('the server did not start in 60 s');
    await sleep(200);
  }

  // A live session per user behind its tokens (the API refuses tokens without one), and a new
  // access token at half its lifetime, as the web app renews it.
  const sessions = new SessionsRepository(db);
  const sids = users.map(() => randomUUID());
  for (const [u, user] of users.entries()) {
    await sessions.insert({
      id: sids[u] ?? '',
      userId: user.uid,
      expiresAt: new Date(Date.now() + 24 * 3600_000),
    });
  }
  const issueTokens = () =>
    Promise.all(
      users.map((user, u) =>
        issueAccessToken(accessTokenKey(secret), url, {
          uid: user.uid,
          email: user.email,
          role: user.role,
          sid: sids[u] ?? '',
        }),
      ),
    );
  let tokens = await issueTokens();
  const renewTokens = setInterval(
    () => {
      void issueTokens().then((fresh) => {
        tokens = fresh;
      });
    },
    (ACCESS_TOKEN_TTL_SECONDS * 1000) / 2,
  );

  const counters: Counters = { requests: {}, errors: {}, errorSamples: [] };
  const latencies: number[] = [];
  const jobs: JobRecord[] = [];
  const count = (name: string, ok: boolean, detail?: string) => {
    counters.requests[name] = (counters.requests[name] ?? 0) + 1;
    if (!ok) {
      counters.errors[name] = (counters.errors[name] ?? 0) + 1;
      if (counters.errorSamples.length < 20) counters.errorSamples.push(`${name}: ${detail ?? ''}`);
    }
  };
  /** One API call as user `u`; counts it and returns the parsed body (null when it failed). */
  const api = async <T>(
    u: number,
    name: string,
    pathAndQuery: string,
    init: { method?: string; json?: unknown } = {},
  ): Promise<T | null> => {
    try {
      const res = await fetch(`${url}${pathAndQuery}`, {
        method: init.method ?? 'GET',
        headers: {
          authorization: `Bearer ${tokens[u] ?? ''}`,
          ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
      });
      const text = await res.text();
      count(name, res.ok, res.ok ? undefined : `${String(res.status)} ${text.slice(0, 200)}`);
      return res.ok ? (JSON.parse(text) as T) : null;
    } catch (error) {
      count(name, false, String(error));
      return null;
    }
  };

  const t0 = Date.now();
  const endAt = t0 + DURATION_MS;
  const log = (line: string) => {
    console.log(`[${clock(t0)}] ${line}`);
  };
  const loadSamples: number[] = [];
  const rssSamples: { at: number; bytes: number }[] = [];
  const rss: { start: number | null; warm: boolean } = { start: null, warm: false };
  const sampler = setInterval(() => {
    const bytes = rssBytes(serverPid);
    if (bytes !== null) rssSamples.push({ at: Date.now() - t0, bytes });
    loadSamples.push(loadavg()[0] ?? 0);
    // The baseline is the most the server held during the warm-up, not the one sample at its
    // end: that can land just after a collection (one run read 127.6 MB there, between samples
    // of 148 MB), which made a flat run read as +24 %.
    if (!rss.warm && bytes !== null) {
      rss.start = Math.max(rss.start ?? 0, bytes);
      if (Date.now() - t0 >= WARMUP_MS) {
        rss.warm = true;
        log(`warm-up over: server RSS ${mb(bytes)}, most during the warm-up ${mb(rss.start)}`);
      }
    }
  }, 5_000);

  console.log(
    `Riffscribe soak: ${String(MINUTES)} min of mixed traffic, ${String(USERS)} users, ` +
      `API server + ${String(WORKERS)} workers (PostgreSQL schema ${schema}, local storage), ` +
      `a worker SIGKILLed every ${String(Math.round(KILL_EVERY_MS / 1000))} s, drain up to ` +
      `${String(DRAIN_MS / 1000)} s; ${String(cpus().length)} CPUs, load average ` +
      `${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}, Node ${process.version}`,
  );

  /** Polls a job every second until it ends (or the soak is over); records what it saw. */
  const follow = async (u: number, job: JobRecord, until: number) => {
    while (Date.now() < until && !stopped()) {
      const before = performance.now();
      const status = await api<CheckStatusResponse>(
        u,
        'check-status',
        `/api/check-status?jobId=${job.jobId}`,
      );
      if (status) {
        latencies.push(performance.now() - before);
        job.status = status.status;
        job.error = status.error;
        if (status.status === 'completed' || status.status === 'failed') return;
      }
      await sleep(1_000);
    }
  };

  const submit = async (u: number, n: number): Promise<JobRecord | null> => {
    const video = clips[(u + n) % clips.length] ?? Buffer.alloc(0);
    const signed = await api<SignedUploadResponse>(
      u,
      'generate-signed-upload-url',
      '/api/generate-signed-upload-url',
      {
        method: 'POST',
        json: { fileName: `soak-${String(n)}.mp4`, fileType: 'video/mp4', fileSize: video.length },
      },
    );
    if (!signed) return null;
    try {
      const put = await fetch(signed.signedUrl, {
        method: 'PUT',
        headers: signed.headers,
        body: new Uint8Array(video),
      });
      count('storage PUT', put.ok, String(put.status));
      if (!put.ok) return null;
    } catch (error) {
      count('storage PUT', false, String(error));
      return null;
    }
    const body = await api<{ jobId?: string }>(u, 'process-video', '/api/process-video', {
      method: 'POST',
      json: {
        gcsFilePath: signed.gcsFilePath,
        fileName: `soak-${String(n)}.mp4`,
        fileSize: video.length,
        fileType: 'video/mp4',
        config: { skip_video_generation: n % VIDEO_EVERY !== 0 },
      },
    });
    if (!body?.jobId) return null;
    const job: JobRecord = {
      jobId: body.jobId,
      user: u,
      submittedAt: Date.now(),
      status: 'queued',
      error: null,
    };
    jobs.push(job);
    return job;
  };

  /** What the player asks for when a finished lesson opens. */
  const playerReads = async (u: number, jobId: string) => {
    await api(u, 'job', `/api/job?id=${jobId}`);
    await api(u, 'job-meta', `/api/job-meta?jobId=${jobId}`);
    await api(u, 'edit-access', `/api/edit-access?jobId=${jobId}`);
    await api(u, 'notes', `/api/notes?jobId=${jobId}&edit_version=false`);
    await api(u, 'chords', `/api/chords?jobId=${jobId}&edit_version=false`);
    const result = await api<DownloadResultResponse>(
      u,
      'download-result',
      `/api/download-result?jobId=${jobId}&fileName=results`,
    );
    if (result) {
      try {
        const res = await fetch(result.downloadUrl);
        await res.arrayBuffer();
        count('storage GET results', res.ok, String(res.status));
      } catch (error) {
        count('storage GET results', false, String(error));
      }
    }
  };

  const explore = async (u: number) => {
    const page = await api<Paged<ExploreItem>>(
      u,
      'explore',
      '/api/explore?sort=newest&pageSize=24',
    );
    const mine = new Set(jobs.filter((j) => j.user === u).map((j) => j.jobId));
    const other = page?.items.find((item) => !mine.has(item.jobId));
    if (!other) return;
    await api(u, 'job-meta', `/api/job-meta?jobId=${other.jobId}`);
    await api(u, 'job-stats', `/api/job-stats?jobId=${other.jobId}`);
    await api(u, 'job-stars POST', '/api/job-stars', {
      method: 'POST',
      json: { jobId: other.jobId, stars: 1 + Math.floor(Math.random() * 5) },
    });
  };

  const userLoop = async (u: number) => {
    await sleep(u * 1_500);
    let n = 0;
    while (Date.now() < endAt && !stopped()) {
      const job = await submit(u, n);
      n += 1;
      if (job) {
        await follow(u, job, endAt);
        if (job.status === 'completed') {
          await playerReads(u, job.jobId);
          if (n % 2 === 1) {
            await api(u, 'job PATCH share', `/api/job?id=${job.jobId}`, {
              method: 'PATCH',
              json: { sharedToExplore: true },
            });
          }
        }
      }
      await explore(u);
      // A guitarist looks at the lesson for a moment before the next upload.
      await sleep(1_000 + Math.random() * 2_000);
    }
  };

  /** Workers killed: which, when, and whether it held a job. */
  const kills: { at: string; pid: number; heldJob: string | null; replacement: number }[] = [];
  const killer = async () => {
    let next = t0 + KILL_EVERY_MS;
    while (next < endAt && !stopped()) {
      while (Date.now() < next && !stopped()) await sleep(250);
      if (stopped()) return;
      // Prefer a worker in the middle of a job (that is the case that could lose a job or charge
      // it twice): wait up to 30 s for one to be seen holding a job, else kill an idle one.
      const alive = () =>
        teardown.workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
      const holderOf = (w: WorkerProcess, rows: { id: string; lease_holder: string | null }[]) =>
        rows.find((r) => r.lease_holder?.endsWith(`:${String(w.pid)}`));
      let running: { id: string; lease_holder: string | null }[] = [];
      let busy: WorkerProcess | undefined;
      const waitUntil = Date.now() + 30_000;
      while (!busy && Date.now() < waitUntil && !stopped()) {
        running = await db
          .selectFrom('jobs')
          .select(['id', 'lease_holder'])
          .where('status', '=', 'processing')
          .execute()
          .catch(() => []);
        busy = alive().find((w) => holderOf(w, running));
        if (!busy) await sleep(100);
      }
      // Ctrl-C while waiting: the teardown owns the workers now; start none.
      if (stopped()) return;
      const victim = busy ?? alive()[kills.length % Math.max(1, alive().length)];
      if (victim) {
        const held = holderOf(victim, running);
        killedOnPurpose.add(victim.pid);
        victim.child.kill('SIGKILL');
        await victim.exited;
        teardown.workers = teardown.workers.filter((w) => w !== victim);
        const replacement = startOneWorker();
        teardown.workers.push(replacement);
        kills.push({
          at: clock(t0),
          pid: victim.pid,
          heldJob: held?.id ?? null,
          replacement: replacement.pid,
        });
        log(
          `SIGKILL worker ${String(victim.pid)}${held ? ` (holding job ${held.id})` : ' (idle)'}, ` +
            `replacement ${String(replacement.pid)} started`,
        );
      }
      next += KILL_EVERY_MS;
    }
  };

  const progress = setInterval(() => {
    const done = jobs.filter((j) => j.status === 'completed').length;
    const failed = jobs.filter((j) => j.status === 'failed').length;
    const rss = rssBytes(serverPid);
    log(
      `jobs ${String(jobs.length)} submitted, ${String(done)} completed, ${String(failed)} failed; ` +
        `check-status ${String(latencies.length)} polls; server RSS ${rss === null ? '?' : mb(rss)}; ` +
        `load ${(loadavg()[0] ?? 0).toFixed(2)}`,
    );
  }, 60_000);

  await Promise.all([...users.map((_, u) => userLoop(u)), killer()]);
  // Ctrl-C: the SIGINT handler tears down and exits; no figures from a cut run.
  if (stopped()) return;
  clearInterval(progress);
  const trafficEnded = Date.now();
  log(`traffic over; draining (up to ${String(DRAIN_MS / 1000)} s) until every job has ended`);

  // Drain: follow every unfinished job until it ends or the drain time is up.
  const drainUntil = Date.now() + DRAIN_MS;
  await Promise.all(
    jobs
      .filter((j) => j.status !== 'completed' && j.status !== 'failed')
      .map((j) => follow(j.user, j, drainUntil)),
  );
  const drainSeconds = (Date.now() - trafficEnded) / 1000;
  clearInterval(sampler);
  clearInterval(renewTokens);
  const rssEnd = rssBytes(serverPid);
  const rssAtStart = rss.start ?? rssSamples[0]?.bytes ?? null;
  const rssPeak = Math.max(...rssSamples.map((r) => r.bytes));
  const finalLoad = loadavg();

  // The database's word on every job: its row, and its credit ledger rows.
  const jobIds = jobs.map((j) => j.jobId);
  const rows =
    jobIds.length === 0
      ? []
      : await db
          .selectFrom('jobs')
          .select(['id', 'status', 'attempts'])
          .where('id', 'in', jobIds)
          .execute();
  const ledger =
    jobIds.length === 0
      ? []
      : await db
          .selectFrom('credit_ledger')
          .select(['ref', 'reason', 'delta'])
          .where('kind', '=', 'creator')
          .where('ref', 'in', jobIds)
          .execute();
  const rowOf = new Map(rows.map((r) => [r.id, r]));
  const completed = jobIds.filter((id) => rowOf.get(id)?.status === 'completed');
  const failed = jobIds.filter((id) => rowOf.get(id)?.status === 'failed');
  const lost = jobIds.filter(
    (id) => !['completed', 'failed'].includes(rowOf.get(id)?.status ?? ''),
  );
  const creates = (id: string) =>
    ledger.filter((r) => r.ref === id && r.reason === 'job_create').length;
  const refunds = (id: string) =>
    ledger.filter((r) => r.ref === id && r.reason === 'job_refund').length;
  const chargedWrong = jobIds.filter(
    (id) =>
      creates(id) !== 1 ||
      (rowOf.get(id)?.status === 'completed' ? refunds(id) !== 0 : refunds(id) > 1),
  );
  const retried = rows.filter((r) => r.attempts > 1).length;
  const sorted = [...latencies].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  const p95 = percentile(sorted, 95);
  const p99 = percentile(sorted, 99);
  const growth =
    rssAtStart !== null && rssEnd !== null
      ? ((rssEnd - rssAtStart) / rssAtStart) * 100
      : Number.NaN;
  const meanLoad = loadSamples.reduce((a, b) => a + b, 0) / Math.max(1, loadSamples.length);

  const targets = {
    zeroLost: lost.length === 0 && jobIds.length > 0,
    chargedOnce: chargedWrong.length === 0 && jobIds.length > 0,
    rssGrowthUnder10Percent: growth < 10,
    checkStatusP99Under100ms: p99 < 100,
  };
  const pass = Object.values(targets).every(Boolean);
  const verdict = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  const summary = {
    date: new Date().toISOString(),
    minutes: MINUTES,
    users: USERS,
    workers: WORKERS,
    killEverySeconds: KILL_EVERY_MS / 1000,
    leaseSeconds: LEASE_SECONDS,
    drainSeconds: Math.round(drainSeconds),
    node: process.version,
    cpus: cpus().length,
    loadAverage: {
      mean1m: Number(meanLoad.toFixed(2)),
      atEnd: finalLoad.map((l) => Number(l.toFixed(2))),
    },
    jobs: {
      submitted: jobIds.length,
      completed: completed.length,
      failed: failed.length,
      lost: lost.length,
      retried,
      lostIds: lost,
      failedErrors: jobs
        .filter((j) => failed.includes(j.jobId))
        .map((j) => `${j.jobId}: ${j.error ?? ''}`),
    },
    charging: {
      chargedExactlyOnce: jobIds.length - chargedWrong.length,
      wrong: chargedWrong.map((id) => ({ id, jobCreate: creates(id), jobRefund: refunds(id) })),
    },
    serverRss: {
      startBytes: rssAtStart,
      endBytes: rssEnd,
      peakBytes: rssPeak,
      growthPercent: Number(growth.toFixed(2)),
      warmupSeconds: WARMUP_MS / 1000,
      samples: rssSamples
        .filter((_, i) => i % 6 === 0)
        .map((r) => ({ s: Math.round(r.at / 1000), mb: Number((r.bytes / 1048576).toFixed(1)) })),
    },
    checkStatus: {
      requests: latencies.length,
      p50Ms: Number(p50.toFixed(1)),
      p95Ms: Number(p95.toFixed(1)),
      p99Ms: Number(p99.toFixed(1)),
      maxMs: Number((sorted.at(-1) ?? Number.NaN).toFixed(1)),
    },
    workerKills: kills,
    requests: counters.requests,
    requestErrors: counters.errors,
    requestErrorSamples: counters.errorSamples,
    serverExit: exit.server,
    unexpectedWorkerExits: unexpectedExits,
    targets: Object.fromEntries(Object.entries(targets).map(([k, v]) => [k, verdict(v)])),
    result: verdict(pass),
  };

  const total = Object.values(counters.requests).reduce((a, b) => a + b, 0);
  const errors = Object.values(counters.errors).reduce((a, b) => a + b, 0);
  console.log(
    `\nSoak summary (${summary.date}, ${String(MINUTES)} min, drain ${String(summary.drainSeconds)} s)`,
  );
  console.log(
    `requests: ${String(total)} (${String(errors)} errors)` +
      (errors > 0 ? `: ${JSON.stringify(counters.errors)}` : ''),
  );
  console.log(
    `worker kills (SIGKILL): ${String(kills.length)}, ${String(kills.filter((k) => k.heldJob).length)} mid-job`,
  );
  console.log(
    `jobs: ${String(jobIds.length)} submitted, ${String(completed.length)} completed, ` +
      `${String(failed.length)} failed, ${String(lost.length)} lost, ${String(retried)} retried after a kill`,
  );
  console.log(
    `charging: ${String(jobIds.length - chargedWrong.length)}/${String(jobIds.length)} jobs charged exactly once ` +
      '(one job_create, no refund of a completed job)',
  );
  console.log(
    `server RSS: ${rssAtStart === null ? '?' : mb(rssAtStart)} at most during ${String(WARMUP_MS / 1000)} s warm-up, ` +
      `${rssEnd === null ? '?' : mb(rssEnd)} at the end (${growth >= 0 ? '+' : ''}${growth.toFixed(1)} %), ` +
      `peak ${mb(rssPeak)}`,
  );
  console.log(
    `check-status: ${String(latencies.length)} requests, p50 ${ms(p50)}, p95 ${ms(p95)}, p99 ${ms(p99)}, ` +
      `max ${ms(sorted.at(-1) ?? Number.NaN)}`,
  );
  console.log(
    `load average: mean ${meanLoad.toFixed(2)} (1 min) over the run on ${String(cpus().length)} CPUs; at the end ` +
      finalLoad.map((l) => l.toFixed(2)).join(' '),
  );
  console.log(
    `targets: zero lost ${verdict(targets.zeroLost)}, charged once ${verdict(targets.chargedOnce)}, ` +
      `RSS growth < 10 % ${verdict(targets.rssGrowthUnder10Percent)}, ` +
      `check-status p99 < 100 ms ${verdict(targets.checkStatusP99Under100ms)} => ${verdict(pass)}`,
  );
  mkdirSync(path.dirname(RESULTS), { recursive: true });
  writeFileSync(RESULTS, `${JSON.stringify(summary, null, 2)}\n`);
  console.log(`written to ${path.relative(REPO_ROOT, RESULTS)}`);
  if (!pass) process.exitCode = 1;
}

main()
  .catch((error: unknown) => {
    console.error(`soak: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  })
  .finally(async () => {
    if (!interrupted) await cleanup();
  });
