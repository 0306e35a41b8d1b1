import { randomUUID } from 'node:crypto';
import { hostname, tmpdir } from 'node:os';
import type { Database } from '../db/database.js';
import { StageClock, type JobMetrics } from '../observability/metrics.js';
import {
  JobLeasesRepository,
  type LeasedJob,
  type StageUpdate,
} from '../repositories/job-leases.repository.js';
import type { JobQueue, QueueDelivery } from '../queue/job-queue.js';
import type { ObjectStore } from '../storage/object-store.js';
import { findFfmpeg, findFfprobe } from '@riffscribe/engine/media-tools';
import { EngineHost } from './engine-host.js';
import { classifyFailure } from './failures.js';
import { generatedThumbnailKey, processJob, removeOutputs } from './job-handler.js';
import { Reaper } from './reaper.js';
import { STAGE_MESSAGES } from './stages.js';
import { killOrphanTools, removeStaleWorkFolders } from './startup-cleanup.js';

/** Logging the runner needs (pino's shape). */
export interface WorkerLog {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
  error(object: object, message: string): void;
}

/**
 * The runner's log for one delivery: every line carries the job's id, the id of the HTTP
 * request that submitted it (`requestId`, the label of the server's request lines) and the
 * job's own request id shown to users (`jobRequestId`).
 */
function jobLog(log: WorkerLog, delivery: QueueDelivery): WorkerLog {
  const fields = {
    jobId: delivery.jobId,
    ...(delivery.httpRequestId ? { requestId: delivery.httpRequestId } : {}),
    jobRequestId: delivery.requestId,
  };
  return {
    info: (object, message) => {
      log.info({ ...fields, ...object }, message);
    },
    warn: (object, message) => {
      log.warn({ ...fields, ...object }, message);
    },
    error: (object, message) => {
      log.error({ ...fields, ...object }, message);
    },
  };
}

/** Worker settings (config.ts, `worker`). */
export interface WorkerSettings {
  /** Jobs processed at once, each with its own engine child. */
  concurrency: number;
  /** A lease lasts this long unless renewed; renewed every third of it. */
  leaseSeconds: number;
  /** An attempt taking longer than this fails the job for good. */
  jobTimeoutSeconds: number;
  /** Pause between polls of an empty queue. */
  pollSeconds: number;
}

export interface JobRunnerDeps {
  database: Database;
  queue: JobQueue;
  store: ObjectStore;
  settings: WorkerSettings;
  log: WorkerLog;
  /** Engine child entry (tests); default the compiled engine-child.js. */
  engineEntry?: string;
  /** Stage durations and attempt outcomes go here (the server's /metrics). */
  metrics?: JobMetrics;
}

/** Why an attempt was aborted. */
type AbortCause = 'lease_lost' | 'timeout' | 'shutdown';

class AttemptAbort extends Error {
  constructor(readonly why: AbortCause) {
    super(`attempt aborted: ${why}`);
  }
}

/**
 * Keeps one write in flight and only the newest waiting, so progress reports arrive in order
 * and a burst of them costs two writes, not dozens.
 */
class ProgressWriter {
  private latest: StageUpdate | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly write: (update: StageUpdate) => Promise<void>) {}

  push(update: StageUpdate): Promise<void> {
    this.latest = update;
    this.running ??= this.drain().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async drain(): Promise<void> {
    while (this.latest) {
      const next = this.latest;
      this.latest = null;
      await this.write(next);
    }
  }

  async flush(): Promise<void> {
    while (this.running) await this.running;
  }
}

/**
 * The pipeline's worker: takes jobs from the queue, leases them, runs them (the engine in a
 * child process), and records the outcome exactly once. Runs inside the API server (embedded
 * mode, concurrency 1) or as `npm run worker` (scaled mode); the code is the same.
 *
 * Delivery guarantees:
 * - a lease (job row token + expiry, renewed while the attempt runs) marks the one attempt
 *   allowed to write; writes are fenced by its token;
 * - transient failures give the job back to the queue, which retries it with backoff
 *   (at most MAX_RETRIES times); input problems fail it at once;
 * - a failed job refunds its creator credit in the same transaction that fails it;
 * - the reaper (reaper.ts) requeues or fails jobs whose lease expired (a killed worker).
 */
export class JobRunner {
  private readonly leases: JobLeasesRepository;
  private readonly hosts: EngineHost[] = [];
  private readonly reaper: Reaper;
  private readonly holder = `${hostname()}:${process.pid}`;
  private readonly running = new Set<AbortController>();
  private readonly loops: Promise<void>[] = [];
  private stopping = false;
  private readonly sleepers = new Set<() => void>();
  private readonly onEnqueued = () => {
    this.wakeAll();
  };

  constructor(private readonly deps: JobRunnerDeps) {
    this.leases = new JobLeasesRepository(deps.database.db);
    this.reaper = new Reaper({
      leases: this.leases,
      queue: deps.queue,
      store: deps.store,
      leaseSeconds: deps.settings.leaseSeconds,
      log: deps.log,
    });
  }

  /** Process ids of the engine children (tests kill them to simulate a crash). */
  get enginePids(): number[] {
    return this.hosts.map((h) => h.pid).filter((pid): pid is number => pid !== undefined);
  }

  start(): void {
    for (let slot = 0; slot < this.deps.settings.concurrency; slot++) {
      const host = new EngineHost({
        ...(this.deps.engineEntry ? { entry: this.deps.engineEntry } : {}),
        onExit: (info) => {
          if (!this.stopping) this.deps.log.warn(info, 'engine child exited; restarting it');
        },
      });
      host.start();
      this.hosts.push(host);
      this.loops.push(this.loop(host));
    }
    this.deps.queue.events.on('enqueued', this.onEnqueued);
    this.reaper.start();
    void this.clearLeftovers();
    this.deps.log.info(
      { concurrency: this.deps.settings.concurrency, holder: this.holder },
      'worker started',
    );
  }

  /**
   * What a predecessor killed with SIGKILL left: its ffmpeg and ffprobe (handed to init, still
   * decoding) and the working folders of its jobs. Logged, never fatal.
   */
  private async clearLeftovers(): Promise<void> {
    try {
      const killed = killOrphanTools([findFfmpeg(), findFfprobe()]);
      const removed = await removeStaleWorkFolders(tmpdir(), this.leases);
      if (killed.length > 0 || removed.length > 0) {
        this.deps.log.warn({ killed, removed }, 'cleared what a stopped worker left');
      }
    } catch (error) {
      this.deps.log.warn({ err: error }, 'could not clear what a stopped worker left');
    }
  }

  /** Stops taking jobs, gives running ones back to the queue, and stops the engine children. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.deps.queue.events.off('enqueued', this.onEnqueued);
    this.reaper.stop();
    for (const controller of this.running) controller.abort(new AttemptAbort('shutdown'));
    this.wakeAll();
    await Promise.allSettled(this.loops);
    await Promise.allSettled(this.hosts.map((h) => h.stop()));
  }

  /** Waits `seconds`, or less when a job is enqueued here or the runner stops. */
  private sleep(seconds: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, seconds * 1000);
      this.sleepers.add(done);
    });
  }

  /**
   * `this.stopping` read through a call: after an `await`, TypeScript still narrows the field
   * to the value tested before it, and would call a direct re-check always false.
   */
  private isStopping(): boolean {
    return this.stopping;
  }

  private wakeAll(): void {
    for (const wake of [...this.sleepers]) wake();
  }

  private async loop(host: EngineHost): Promise<void> {
    while (!this.stopping) {
      let delivery: QueueDelivery | null = null;
      try {
        delivery = await this.deps.queue.fetch();
      } catch (error) {
        this.deps.log.warn({ err: error }, 'queue fetch failed');
      }
      if (!delivery) {
        await this.sleep(this.deps.settings.pollSeconds);
        continue;
      }
      // stop() may have been called while fetch() ran.
      if (this.isStopping()) {
        await this.deps.queue.giveBack(delivery.jobId, 'The worker was shut down.').catch(() => {
          // Its queue entry stays active; the reaper hands it back after a lease's time.
        });
        break;
      }
      try {
        await this.run(delivery, host);
      } catch (error) {
        // Bookkeeping failed (database down): the lease expires and the reaper takes over.
        jobLog(this.deps.log, delivery).error({ err: error }, 'job bookkeeping failed');
      }
    }
  }

  private async run(delivery: QueueDelivery, host: EngineHost): Promise<void> {
    const { jobId } = delivery;
    const log = jobLog(this.deps.log, delivery);
    const token = randomUUID();
    const { leaseSeconds } = this.deps.settings;
    const claim = await this.leases.claim(jobId, {
      token,
      holder: this.holder,
      seconds: leaseSeconds,
      update: { stage: 'probing', progress: 1, message: STAGE_MESSAGES.probing },
    });
    if (claim === 'missing' || claim === 'finished') {
      // A duplicate delivery of a finished job, or a job deleted meanwhile.
      await this.deps.queue.complete(jobId, { outcome: claim });
      return;
    }
    if (claim === 'held') {
      // Another live attempt owns it; that attempt completes this delivery when it finishes.
      log.warn({}, 'job is leased by another worker');
      return;
    }
    await this.attempt(delivery, claim, host);
  }

  private async attempt(delivery: QueueDelivery, job: LeasedJob, host: EngineHost) {
    const { leaseSeconds, jobTimeoutSeconds } = this.deps.settings;
    const log = jobLog(this.deps.log, delivery);
    const controller = new AbortController();
    this.running.add(controller);
    const abort = (cause: AbortCause) => {
      if (!controller.signal.aborted) controller.abort(new AttemptAbort(cause));
    };
    if (this.stopping) abort('shutdown');
    const heartbeat = setInterval(
      () => {
        this.leases.renew(job.id, job.token, leaseSeconds).then(
          (held) => {
            if (!held) abort('lease_lost');
          },
          (error: unknown) => {
            // The database is unreachable: keep trying until the lease runs out.
            log.warn({ err: error }, 'lease renewal failed');
          },
        );
      },
      (leaseSeconds * 1000) / 3,
    );
    const deadline = setTimeout(() => {
      abort('timeout');
    }, jobTimeoutSeconds * 1000);
    const progress = new ProgressWriter(async (update) => {
      const held = await this.leases.progress(job.id, job.token, update).catch(() => true);
      if (!held) abort('lease_lost');
    });
    const started = Date.now();
    const stages = new StageClock(this.deps.metrics, 'probing');
    log.info({ attempt: job.attempts }, 'job started');
    try {
      const outputs = await processJob(job, {
        store: this.deps.store,
        engine: host,
        ffmpeg: () => Promise.resolve(findFfmpeg()),
        report: (update) => {
          stages.enter(update.stage);
          return progress.push(update);
        },
        confirmLease: async () => {
          if (!(await this.leases.renew(job.id, job.token, leaseSeconds))) abort('lease_lost');
          if (controller.signal.aborted) throw controller.signal.reason;
        },
        signal: controller.signal,
        toolTimeoutMs: Math.max(60_000, jobTimeoutSeconds * 500),
        log,
      });
      if (controller.signal.aborted) throw controller.signal.reason;
      await progress.flush();
      stages.end();
      const completion = await this.leases.complete(job.id, job.token, outputs);
      if (completion.completed) {
        if (outputs.generatedThumbnailKey !== null && !completion.posterUsed) {
          // The browser's thumbnail arrived while the job ran: the worker's poster is not needed.
          await this.deps.store.delete(generatedThumbnailKey(job.id)).catch((error: unknown) => {
            log.warn({ err: error }, 'unused poster not deleted');
          });
        }
        await this.deps.queue.complete(job.id, { outcome: 'completed' });
        this.deps.metrics?.attemptEnded('completed');
        log.info({ ms: Date.now() - started }, 'job completed');
      } else {
        this.deps.metrics?.attemptEnded('lease_lost');
        log.warn({}, 'lease lost before completion; outputs discarded');
      }
    } catch (thrown) {
      await progress.flush().catch(() => undefined);
      stages.end();
      const cause = controller.signal.aborted
        ? (controller.signal.reason as AttemptAbort).why
        : null;
      await this.settleFailure(delivery, job, thrown, cause);
    } finally {
      clearInterval(heartbeat);
      clearTimeout(deadline);
      this.running.delete(controller);
    }
  }

  private async settleFailure(
    delivery: QueueDelivery,
    job: LeasedJob,
    thrown: unknown,
    cause: AbortCause | null,
  ): Promise<void> {
    const { jobTimeoutSeconds } = this.deps.settings;
    const log = jobLog(this.deps.log, delivery);
    if (cause === 'lease_lost') {
      this.deps.metrics?.attemptEnded('lease_lost');
      log.warn({}, 'lease lost; another attempt owns the job');
      return;
    }
    const disposition =
      cause === 'timeout'
        ? {
            retry: false,
            reason: `Processing took longer than ${Math.round(jobTimeoutSeconds / 60)} minutes and was stopped.`,
          }
        : cause === 'shutdown'
          ? { retry: true, reason: 'The worker was shut down while processing.' }
          : classifyFailure(thrown);
    const lastAttempt = delivery.retryCount >= delivery.retryLimit;
    const retry = disposition.retry && (!lastAttempt || cause === 'shutdown');
    this.deps.metrics?.attemptEnded(retry ? 'retried' : 'failed');
    log.warn({ err: thrown, retry }, `job attempt failed: ${disposition.reason}`);
    if (retry) {
      const message = `${disposition.reason} Retrying shortly.`;
      if (await this.leases.release(job.id, job.token, message)) {
        if (cause === 'shutdown') await this.deps.queue.giveBack(job.id, disposition.reason);
        else await this.deps.queue.fail(job.id, disposition.reason);
      }
      return;
    }
    if (await this.leases.fail(job.id, job.token, disposition.reason)) {
      await removeOutputs(this.deps.store, job.id);
      // A permanent failure needs no retry: the delivery is done with.
      if (lastAttempt) await this.deps.queue.fail(job.id, disposition.reason);
      else
        await this.deps.queue.complete(job.id, { outcome: 'failed', reason: disposition.reason });
    }
  }
}
