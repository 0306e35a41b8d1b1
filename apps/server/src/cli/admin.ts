import path from 'node:path';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { parseCommandLine, runAdminCommand, USAGE, UsageError } from './admin-commands.js';
import { sendAdminCommand } from './admin-socket.js';

async function run(argv: string[]): Promise<string> {
  const [command] = parseCommandLine(argv).positionals;
  if (!command || command === 'help') return USAGE;
  const config = loadConfig();
  if (!config.databaseUrl) {
    // The embedded database: through the server when it runs (it holds the database).
    const answer = await sendAdminCommand(config.dataDir, argv);
    if (answer) {
      if (answer.ok) return answer.output;
      throw answer.usage ? new UsageError(answer.output) : new Error(answer.output);
    }
  }
  const database = await openDatabase(
    config.databaseUrl
      ? { driver: 'postgres', url: config.databaseUrl, poolSize: 2 }
      : { driver: 'pglite', dataDir: path.join(config.dataDir, 'pglite') },
  );
  try {
    return await runAdminCommand(database, argv);
  } finally {
    await database.close();
  }
}

run(process.argv.slice(2)).then(
  (output) => {
    console.log(output);
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
