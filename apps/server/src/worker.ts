import pino from 'pino';
import { loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { ConversionRunner } from './jobs/conversion-runner.js';
import { JobRunner } from './jobs/job-runner.js';
import { loggerOptions } from './observability/logging.js';
import { JobQueue } from './queue/job-queue.js';
import { createObjectStore } from './storage/create-store.js';

/**
 * `npm run worker`: a standalone worker for scaled mode. It shares nothing with the API server
 * but the PostgreSQL database (DATABASE_URL) and the bucket (S3_*); run any number of them, on
 * any machines. Each runs WORKER_CONCURRENCY jobs at once (default: one per CPU).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  if (!config.databaseUrl) {
    throw new Error(
      'npm run worker needs DATABASE_URL (PostgreSQL): the embedded database belongs to the ' +
        'server process, and `npm start` already processes jobs itself.',
    );
  }
  const log = pino({
    ...loggerOptions(config.logLevel),
    base: { role: 'worker', pid: process.pid },
  });
  if (config.storage.driver === 'local') {
    log.warn(
      { dir: config.storage.dir },
      'local storage: every worker and the server must see the same directory',
    );
  }
  const database = await openDatabase({
    driver: 'postgres',
    url: config.databaseUrl,
    poolSize: Math.max(4, config.worker.concurrency * 3),
    ...(config.databaseSchema ? { searchPath: config.databaseSchema } : {}),
  });
  const queue = await JobQueue.fromConfig(database, config);
  const store = createObjectStore(config);
  const runner = new JobRunner({ database, queue, store, settings: config.worker, log });
  // MP4 exports too, one at a time, beside the jobs.
  const conversions = new ConversionRunner({
    database,
    store,
    log,
    timeLimitSeconds: config.convertTimeLimitSeconds,
    leaseSeconds: config.worker.leaseSeconds,
  });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'worker shutting down');
    await Promise.all([runner.stop(), conversions.stop()]);
    await queue.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
  runner.start();
  conversions.start();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
