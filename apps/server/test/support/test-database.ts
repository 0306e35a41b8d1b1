import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/database.js';
import { pgliteTemplateDump } from './pglite-template.js';

/** The PostgreSQL server the integration suite runs against (CI: 127.0.0.1:5432, database test). */
export const TEST_POSTGRES_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export type TestDatabaseDriver = 'pglite' | 'postgres';

export function testDatabaseDriver(): TestDatabaseDriver {
  return process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

export interface TestDatabase {
  database: Database;
  /** Connection settings a second process (a worker) can use to reach the same data. */
  url: string | null;
  searchPath: string | null;
  dispose(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or a new schema of its own in
 * the PostgreSQL test database (dropped afterwards), so files can run in parallel. A PGlite one
 * starts as a copy of the migrated template (pglite-template.ts) unless `fresh` asks for initdb
 * and every migration from nothing.
 */
export async function openTestDatabase(
  driver: TestDatabaseDriver = testDatabaseDriver(),
  options: {
    /** PostgreSQL only: where the server's pool connects (a proxy in front of the test server). */
    connectUrl?: string;
    poolSize?: number;
    /** PGlite only: a new database made from nothing, not a copy of the template. */
    fresh?: boolean;
  } = {},
): Promise<TestDatabase> {
  if (driver === 'pglite') {
    const database = await openDatabase({
      driver: 'pglite',
      dataDir: null,
      ...(options.fresh ? {} : { template: await pgliteTemplateDump() }),
    });
    return { database, url: null, searchPath: null, dispose: () => database.close() };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({
    connectionString: TEST_POSTGRES_URL,
    connectionTimeoutMillis: 5000,
  });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `The PostgreSQL integration suite needs a server at ${TEST_POSTGRES_URL} ` +
        `(set TEST_DATABASE_URL to use another): ${(error as Error).message}`,
      { cause: error },
    );
  }
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const database = await openDatabase({
    driver: 'postgres',
    url: options.connectUrl ?? TEST_POSTGRES_URL,
    searchPath: schema,
    ...(options.poolSize ? { poolSize: options.poolSize } : {}),
  });
  return {
    database,
    url: TEST_POSTGRES_URL,
    searchPath: schema,
    async dispose() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await cleanup.connect();
      await cleanup.query(`drop schema ${schema} cascade`);
      await cleanup.end();
    },
  };
}
