import path from 'node:path';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import type { AppContext } from './context.js';
import { openDatabase } from './db/database.js';
import { JobQueue } from './queue/job-queue.js';
import { createObjectStore } from './storage/create-store.js';

/** Starts the server with the configuration from the environment (see the README's table). */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(
    config.databaseUrl
      ? { driver: 'postgres', url: config.databaseUrl }
      : { driver: 'pglite', dataDir: path.join(config.dataDir, 'pglite') },
  );
  const queue = await JobQueue.start(database);
  const ctx: AppContext = { config, database, store: createObjectStore(config), queue };
  const app = await buildApp(ctx);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await queue.stop();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  app.log.info(
    {
      url: config.publicUrl,
      database: database.driver,
      storage: ctx.store.driver,
      signIn: config.oidc.issuer ?? 'built-in development provider',
    },
    `Riffscribe is running at ${config.publicUrl}`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
