import { hostname } from 'node:os';
import type { JobLeasesRepository } from '../repositories/job-leases.repository.js';
import type { JobQueue } from '../queue/job-queue.js';
import type { ObjectStore } from '../storage/object-store.js';
import { removeOutputs } from './job-handler.js';
import { processAlive } from './startup-cleanup.js';

export interface ReaperDeps {
  leases: JobLeasesRepository;
  queue: JobQueue;
  store: ObjectStore;
  leaseSeconds: number;
  log: { warn(object: object, message: string): void };
}

/** The reason stored when a job's worker stopped responding on its last try. */
const WORKER_LOST_REASON =
  'The worker processing this video stopped responding, and the retries were used up.';

/**
 * Makes sure no job stays unfinished forever. Every worker and the API server run one; each
 * correction is a conditional update, so several reapers never act twice on the same job.
 * - A job in processing whose lease expired (its worker was killed or hangs) goes back to the
 *   queue for a retry, or fails (with its refund) when its retries are used up.
 * - A queued job whose queue entry is gone or final (lost) fails with a refund; one whose entry
 *   was taken by a worker that died before leasing it is handed back to the queue.
 */
export class Reaper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly deps: ReaperDeps) {}

  /** Sweeps now (a restart finds its dead predecessor's jobs at once), then every interval. */
  start(intervalSeconds = Math.max(1, this.deps.leaseSeconds / 2)): void {
    const tick = () => {
      this.running ??= this.sweep()
        .catch((error: unknown) => {
          this.deps.log.warn({ err: error }, 'reaper sweep failed');
        })
        .finally(() => {
          this.running = null;
        });
    };
    tick();
    this.timer = setInterval(tick, intervalSeconds * 1000);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One pass over expired leases and stale queued jobs. */
  async sweep(): Promise<void> {
    const { leases, queue, log } = this.deps;
    // A lease held by a process of this machine that is gone (a worker or server killed and
    // restarted) ends now, instead of showing "processing" until its time runs out.
    const here = `${hostname()}:`;
    for (const job of await leases.heldOn(here)) {
      const pid = Number(job.holder.slice(here.length));
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !processAlive(pid)) {
        if (await leases.expireNow(job.id, job.holder)) {
          log.warn({ jobId: job.id, holder: job.holder }, 'lease holder is gone; lease ended');
        }
      }
    }
    for (const job of await leases.expired()) {
      const info = await queue.info(job.id);
      const retriesLeft = info !== null && info.retryCount < info.retryLimit;
      if (info && (info.state === 'created' || info.state === 'retry')) {
        // The queue already scheduled another try (its own expiry fired first).
        await leases.release(job.id, null, 'Retrying after an interruption.');
      } else if (info?.state === 'active' && retriesLeft) {
        if (
          await leases.release(job.id, null, 'The worker stopped responding. Retrying shortly.')
        ) {
          log.warn({ jobId: job.id, attempts: job.attempts }, 'lease expired; job requeued');
          await queue.fail(job.id, 'lease expired');
        }
      } else if (await leases.fail(job.id, null, WORKER_LOST_REASON)) {
        log.warn({ jobId: job.id, attempts: job.attempts }, 'lease expired; job failed');
        await removeOutputs(this.deps.store, job.id);
        if (info?.state === 'active') await queue.fail(job.id, 'lease expired');
      }
    }
    // The database's clock, like pg-boss's started_on: never this machine's.
    const now = (await leases.now()).getTime();
    for (const job of await leases.waiting(this.deps.leaseSeconds * 2)) {
      const info = await queue.info(job.id);
      if (
        !info ||
        info.state === 'failed' ||
        info.state === 'cancelled' ||
        info.state === 'completed'
      ) {
        if (await leases.fail(job.id, null, 'The job was lost from the processing queue.')) {
          log.warn({ jobId: job.id, state: info?.state ?? 'missing' }, 'queued job lost; failed');
          await removeOutputs(this.deps.store, job.id);
        }
      } else if (
        info.state === 'active' &&
        info.startedOn !== null &&
        now - new Date(info.startedOn).getTime() > this.deps.leaseSeconds * 1000
      ) {
        log.warn({ jobId: job.id }, 'queue entry taken but never leased; handing it back');
        await queue.fail(job.id, 'taken but never leased');
      }
    }
  }
}
