import PgBoss from 'pg-boss';
import type { Database } from '../db/database.js';

/** The queue a submitted video waits in until a worker picks it up. */
export const PROCESS_VIDEO_QUEUE = 'process-video';

export interface ProcessVideoMessage {
  jobId: string;
  requestId: string;
}

/**
 * pg-boss on the application's own database (PGlite or PostgreSQL), so a job row and its queue
 * entry live side by side. In embedded mode every statement goes through the PGlite lock.
 */
export class JobQueue {
  private constructor(readonly boss: PgBoss) {}

  static async start(database: Database, options: { schema?: string } = {}): Promise<JobQueue> {
    const boss = new PgBoss({
      db: { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) },
      schema: options.schema ?? 'pgboss',
      schedule: false,
    });
    // pg-boss reports background faults as events; they must never crash the server.
    boss.on('error', () => undefined);
    await boss.start();
    await boss.createQueue(PROCESS_VIDEO_QUEUE);
    return new JobQueue(boss);
  }

  /** Enqueues a job once: the job id is the queue entry's id, so a repeat is ignored. */
  async enqueue(message: ProcessVideoMessage): Promise<void> {
    await this.boss.send(PROCESS_VIDEO_QUEUE, message, {
      id: message.jobId,
      retryLimit: 2,
      retryDelay: 5,
      retryBackoff: true,
    });
  }

  /** Throws when the queue's tables cannot be read. */
  async health(): Promise<void> {
    const queue = await this.boss.getQueue(PROCESS_VIDEO_QUEUE);
    if (!queue) throw new Error('The job queue is not installed.');
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: false, wait: true });
  }
}
