import path from 'node:path';
import { buildApp } from './app.js';
import { loadConfig, publicUrlNote } from './config.js';
import type { AppContext } from './context.js';
import { openDatabase } from './db/database.js';
import { ConversionRunner } from './jobs/conversion-runner.js';
import { JobRunner } from './jobs/job-runner.js';
import { Reaper } from './jobs/reaper.js';
import { JobLeasesRepository } from './repositories/job-leases.repository.js';
import { UploadsRepository } from './repositories/uploads.repository.js';
import { JobQueue } from './queue/job-queue.js';
import { createObjectStore } from './storage/create-store.js';
import { UploadSweeper } from './storage/upload-sweeper.js';
import { ProPlan } from './services/pro-plan.js';
import { startAdminSocket } from './cli/admin-socket.js';

const SHUTDOWN_GRACE_MS = 25_000;

/** Starts the server with the configuration from the environment (see the README's table). */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(
    config.databaseUrl
      ? {
          driver: 'postgres',
          url: config.databaseUrl,
          ...(config.databaseSchema ? { searchPath: config.databaseSchema } : {}),
        }
      : { driver: 'pglite', dataDir: path.join(config.dataDir, 'pglite') },
  );
  const queue = await JobQueue.fromConfig(database, config);
  const ctx: AppContext = { config, database, store: createObjectStore(config), queue };
  const app = await buildApp(ctx);

  // Embedded mode processes jobs here, the engine in a child process; in scaled mode the
  // workers do, and this server still watches for jobs whose worker died.
  const settings = { ...config.worker, concurrency: 1 };
  const runner = config.worker.embedded
    ? new JobRunner({
        database,
        queue,
        store: ctx.store,
        settings,
        log: app.log,
        metrics: app.metrics,
      })
    : null;
  if (runner) app.metrics.watchEngines(() => runner.enginePids);
  const reaper = runner
    ? null
    : new Reaper({
        leases: new JobLeasesRepository(database.db),
        queue,
        store: ctx.store,
        leaseSeconds: config.worker.leaseSeconds,
        log: app.log,
      });

  // MP4 exports run in every API process (embedded or scaled) and every worker: each takes one
  // conversion at a time from the conversions table.
  const conversions = new ConversionRunner({
    database,
    store: ctx.store,
    log: app.log,
    timeLimitSeconds: config.convertTimeLimitSeconds,
    leaseSeconds: config.worker.leaseSeconds,
  });

  // Upload files never submitted (or that nothing refers to) do not stay in storage.
  const sweeper = new UploadSweeper({
    uploads: new UploadsRepository(database.db),
    store: ctx.store,
    log: app.log,
  });

  // `npm run admin` while this server holds the embedded database: through a socket in DATA_DIR.
  const adminSocket =
    database.driver === 'pglite' ? await startAdminSocket(config.dataDir, database) : null;

  // The Pro plan's creation credits, each calendar month.
  const proPlan = new ProPlan(database.db);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    // An orchestrator waits about 30 s before SIGKILL: leave before that, whatever still runs.
    setTimeout(() => {
      app.log.warn('requests still running after 25 s; exiting without them');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    reaper?.stop();
    // At once: no new connections, requests under way finish (open status streams end), and
    // the job being processed goes back to the queue for the next worker or the next start.
    adminSocket?.close();
    await Promise.all([
      app.close(),
      sweeper.stop(),
      proPlan.stop(),
      runner?.stop(),
      conversions.stop(),
    ]);
    await queue.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  runner?.start();
  conversions.start();
  reaper?.start();
  sweeper.start();
  proPlan.start(app.log);
  app.log.info(
    {
      url: config.publicUrl,
      database: database.driver,
      storage: ctx.store.driver,
      signIn: config.oidc.issuer ?? 'built-in development provider',
      worker: runner ? 'embedded' : 'external (npm run worker)',
    },
    `Riffscribe is running at ${config.publicUrl}`,
  );
  const note = publicUrlNote(config.host, config.publicUrl);
  if (note) app.log.warn(note);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
