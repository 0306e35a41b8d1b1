import { EventEmitter } from 'node:events';
import { CompiledQuery, type Kysely } from 'kysely';
import PgBoss from 'pg-boss';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import type { DB } from '../db/schema.js';

/** The queue a submitted video waits in until a worker picks it up. */
export const PROCESS_VIDEO_QUEUE = 'process-video';

/** Retries after the first attempt: a job runs at most 1 + MAX_RETRIES times. */
export const MAX_RETRIES = 2;

export interface ProcessVideoMessage {
  jobId: string;
  requestId: string;
  /** Id of the HTTP request that submitted the job (its log lines' `requestId`). */
  httpRequestId?: string;
}

/** One delivery of a queued job to a worker. */
export interface QueueDelivery {
  jobId: string;
  requestId: string;
  /** Id of the HTTP request that submitted the job; null for jobs enqueued before it was kept. */
  httpRequestId: string | null;
  /** Earlier deliveries of this job (0 on the first). */
  retryCount: number;
  retryLimit: number;
}

/** pg-boss's view of one job: where it is in its life. */
export type QueueState = 'created' | 'retry' | 'active' | 'completed' | 'cancelled' | 'failed';

export interface QueueJobInfo {
  state: QueueState;
  retryCount: number;
  retryLimit: number;
  startedOn: Date | null;
}

export interface JobQueueOptions {
  /** Schema of pg-boss's tables (default `pgboss`). */
  schema?: string;
  /** Base delay of the first retry in seconds; later retries back off exponentially. */
  retryDelaySeconds?: number;
  /**
   * pg-boss's own expiry of an active job, in seconds: the last line of defence when every
   * worker and reaper is gone. Workers hold shorter leases of their own (see jobs/).
   */
  expireInSeconds?: number;
}

function isProcessVideoMessage(data: unknown): data is ProcessVideoMessage {
  return (
    typeof data === 'object' &&
    data !== null &&
    'jobId' in data &&
    'requestId' in data &&
    typeof data.jobId === 'string' &&
    typeof data.requestId === 'string'
  );
}

/**
 * pg-boss on the application's own database (PGlite or PostgreSQL), so a job row and its queue
 * entry live side by side and are written in one transaction. In embedded mode every statement
 * goes through the PGlite lock.
 *
 * Workers do not use `boss.work`: they fetch, and complete or fail a delivery themselves only
 * while they hold the job's lease, so a worker that lost its lease can never complete a later
 * attempt by the same id.
 */
export class JobQueue {
  /** Emits 'enqueued' when this process enqueues a job, so a local worker need not wait a poll. */
  readonly events = new EventEmitter();

  private constructor(
    readonly boss: PgBoss,
    private readonly retryDelaySeconds: number,
    private readonly expireInSeconds: number,
  ) {}

  static async start(database: Database, options: JobQueueOptions = {}): Promise<JobQueue> {
    const boss = new PgBoss({
      db: { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) },
      schema: options.schema ?? 'pgboss',
      schedule: false,
    });
    // pg-boss reports background faults as events; they must never crash the server.
    boss.on('error', () => undefined);
    // Its schema and queue set up one process at a time (two at once deadlocked).
    await database.withStartupLock(async () => {
      await boss.start();
      await boss.createQueue(PROCESS_VIDEO_QUEUE);
    });
    return new JobQueue(boss, options.retryDelaySeconds ?? 5, options.expireInSeconds ?? 3 * 3600);
  }

  /** The queue with the configuration's schema, retry delay and expiry. */
  static fromConfig(database: Database, config: Config): Promise<JobQueue> {
    const { worker } = config;
    return JobQueue.start(database, {
      schema: config.databaseSchema ?? 'pgboss',
      retryDelaySeconds: worker.retryDelaySeconds,
      // Well past any attempt, so that leases and the reaper are what recover a dead worker.
      expireInSeconds: worker.jobTimeoutSeconds + 4 * worker.leaseSeconds,
    });
  }

  /**
   * Enqueues a job once, inside the caller's transaction when `trx` is given (so the job row,
   * the credit spend and the queue entry commit together). The job id is the queue entry's id,
   * so a repeat is ignored.
   */
  async enqueue(message: ProcessVideoMessage, trx?: Kysely<DB>): Promise<void> {
    await this.boss.send(PROCESS_VIDEO_QUEUE, message, {
      id: message.jobId,
      retryLimit: MAX_RETRIES,
      retryDelay: this.retryDelaySeconds,
      retryBackoff: true,
      expireInSeconds: this.expireInSeconds,
      ...(trx ? { db: transactionDb(trx) } : {}),
    });
  }

  /**
   * Removes a job's finished queue entry (failed for good), so that it can be enqueued again
   * under the same id (an admin's retry). An entry already archived is not in the way.
   */
  async forget(jobId: string): Promise<void> {
    await this.boss.deleteJob(PROCESS_VIDEO_QUEUE, jobId);
  }

  /** Tells local workers that a job is waiting (call after the enqueuing transaction commits). */
  notifyEnqueued(): void {
    this.events.emit('enqueued');
  }

  /** Takes the next waiting job, if any, and marks its queue entry active. */
  async fetch(): Promise<QueueDelivery | null> {
    const [job] = await this.boss.fetch(PROCESS_VIDEO_QUEUE, {
      batchSize: 1,
      includeMetadata: true,
    });
    if (!job) return null;
    if (!isProcessVideoMessage(job.data)) {
      // Not ours to run; fail it for good so it does not come back.
      await this.boss.fail(PROCESS_VIDEO_QUEUE, job.id, { reason: 'malformed message' });
      return null;
    }
    return {
      jobId: job.data.jobId,
      requestId: job.data.requestId,
      httpRequestId: typeof job.data.httpRequestId === 'string' ? job.data.httpRequestId : null,
      retryCount: job.retryCount,
      retryLimit: job.retryLimit,
    };
  }

  /** Marks an active delivery done; nothing happens when it is no longer active. */
  async complete(jobId: string, output: Record<string, unknown> = {}): Promise<void> {
    await this.boss.complete(PROCESS_VIDEO_QUEUE, jobId, output);
  }

  /**
   * Fails a delivery: pg-boss schedules a retry with backoff while retries remain, else the
   * entry is failed for good.
   */
  async fail(jobId: string, reason: string): Promise<void> {
    await this.boss.fail(PROCESS_VIDEO_QUEUE, jobId, { reason });
  }

  /**
   * Gives a delivery back without using up the job's retries (a worker shutting down): fails it,
   * and if that was its last try, allows one more.
   */
  async giveBack(jobId: string, reason: string): Promise<void> {
    await this.boss.fail(PROCESS_VIDEO_QUEUE, jobId, { reason });
    await this.boss.retry(PROCESS_VIDEO_QUEUE, jobId);
  }

  async info(jobId: string): Promise<QueueJobInfo | null> {
    const job = await this.boss.getJobById(PROCESS_VIDEO_QUEUE, jobId, { includeArchive: true });
    if (!job) return null;
    return {
      state: job.state,
      retryCount: job.retryCount,
      retryLimit: job.retryLimit,
      startedOn: job.startedOn,
    };
  }

  /** Throws when the queue's tables cannot be read. */
  async health(): Promise<void> {
    const queue = await this.boss.getQueue(PROCESS_VIDEO_QUEUE);
    if (!queue) throw new Error('The job queue is not installed.');
  }

  async stop(): Promise<void> {
    this.events.removeAllListeners();
    await this.boss.stop({ graceful: false, wait: true });
  }
}

/** pg-boss's database interface over an open Kysely transaction. */
function transactionDb(trx: Kysely<DB>): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[]) {
      const result = await trx.executeQuery(CompiledQuery.raw(text, values));
      return { rows: result.rows };
    },
  };
}
