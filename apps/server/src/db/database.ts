import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, sql, type MigrationProvider } from 'kysely';
import pg from 'pg';
import { SCHEMA_NAME } from '../config.js';
import { initial } from './migrations/0001-initial.js';
import { jobLeases } from './migrations/0002-job-leases.js';
import { healthProbe } from './migrations/0003-health-probe.js';
import { conversions } from './migrations/0004-conversions.js';
import { conversionOverlay } from './migrations/0005-conversion-overlay.js';
import { jobSections } from './migrations/0006-job-sections.js';
import { ConnectionLock, PGliteDialect } from './pglite-dialect.js';
import type { DB } from './schema.js';

export type DatabaseDriver = 'pglite' | 'postgres';

/**
 * The application's database: Kysely over PGlite (embedded) or a PostgreSQL pool, plus a raw SQL
 * entry point for the job queue that honours the same connection discipline.
 */
export interface Database {
  readonly db: Kysely<DB>;
  readonly driver: DatabaseDriver;
  /** Runs one SQL text (possibly several statements when there are no parameters). */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  /**
   * Runs `work` holding the installation's start-up lock (a PostgreSQL advisory lock on a
   * connection of its own): schema creation, migrations and the queue's setup of processes that
   * start at once run one after the other instead of racing (issue 38 row 8). PGlite has one
   * process: the work just runs.
   */
  withStartupLock<T>(work: () => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  /** Commits a one-row write: fails when the database answers but cannot store anything. */
  probeWrite(): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseOptions =
  | { driver: 'postgres'; url: string; searchPath?: string; poolSize?: number }
  /**
   * `dataDir` null keeps the database in memory (tests). An in-memory database may start as a
   * copy of `template`, a PGlite data-directory dump (`dumpDataDir`) of an earlier database: the
   * tests start each database from one made and migrated once, instead of running initdb again.
   */
  | { driver: 'pglite'; dataDir: string | null; template?: Blob };

const migrations: MigrationProvider = {
  getMigrations: () =>
    Promise.resolve({
      '0001-initial': initial,
      '0002-job-leases': jobLeases,
      '0003-health-probe': healthProbe,
      '0004-conversions': conversions,
      '0005-conversion-overlay': conversionOverlay,
      '0006-job-sections': jobSections,
    }),
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database =
    options.driver === 'postgres'
      ? openPostgres(options)
      : await openPglite(options.dataDir, options.template);
  try {
    await database.withStartupLock(async () => {
      if (options.driver === 'postgres' && options.searchPath) {
        await createSchema(database, options.searchPath);
      }
      await migrate(database.db, options.driver === 'postgres' ? options.searchPath : undefined);
    });
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** Creates the configured schema when missing; a concurrent creator winning the race is fine. */
async function createSchema(database: Database, schema: string): Promise<void> {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`Invalid schema name ${schema}`);
  try {
    await database.executeSql(`create schema if not exists ${schema}`);
  } catch (error) {
    if ((error as { code?: string }).code !== '23505') throw error;
  }
}

/**
 * Kysely's migrator looks for its tables in every schema of the database. When another schema or
 * table is dropped during that scan (tests give each file a schema and drop it at the end; an
 * operator may drop one), PostgreSQL answers that the schema (3F000), table (42P01) or column
 * (42703) does not exist. Such a failure of the scan, before any migration ran, is repeated for up
 * to SCAN_RETRY_MS (a busy machine dropping many schemas); a migration that fails is not.
 */
const SCAN_RETRY_MS = 15_000;
const VANISHED = new Set(['3F000', '42P01', '42703']);

async function migrate(db: Kysely<DB>, schema: string | undefined): Promise<void> {
  const started = Date.now();
  for (let attempt = 1; ; attempt += 1) {
    // With a schema of its own, the migration bookkeeping lives there too: Kysely otherwise finds
    // another schema's lock table and skips creating its own.
    const { error, results } = await new Migrator({
      db,
      provider: migrations,
      ...(schema ? { migrationTableSchema: schema } : {}),
    }).migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    if (error === undefined && !failed) return;
    if (
      results === undefined &&
      Date.now() - started < SCAN_RETRY_MS &&
      vanishedDuringScan(error, schema)
    ) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(200, 20 * attempt)));
      continue;
    }
    const reason =
      error instanceof Error
        ? error.message
        : `migration ${failed?.migrationName ?? '(unknown)'} failed`;
    throw new Error(`Database migration failed: ${reason}`, { cause: error });
  }
}

/** Something other than our own schema disappeared while the migrator read the catalog. */
function vanishedDuringScan(error: unknown, schema: string | undefined): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  if (code === undefined || !VANISHED.has(code)) return false;
  const message = (error as Error).message;
  return schema === undefined || !message.includes(`"${schema}"`);
}

/** The advisory lock key of start-up work ('riffscribe' as a number: any fixed key would do). */
const STARTUP_LOCK = 0x72696666;

function openPostgres(options: { url: string; searchPath?: string; poolSize?: number }): Database {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5000,
    ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
  });
  // An idle client that errors (server restart) must not crash the process.
  pool.on('error', () => undefined);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    driver: 'postgres',
    async executeSql(text, values) {
      const result = await pool.query(text, values);
      return { rows: Array.isArray(result) ? [] : result.rows };
    },
    async withStartupLock(work) {
      // A connection outside the pool: the work itself may need every pooled one.
      const client = new pg.Client({
        connectionString: options.url,
        connectionTimeoutMillis: 5000,
      });
      client.on('error', () => undefined);
      await client.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK]);
        return await work();
      } finally {
        // Ending the session releases the lock, also when the unlock cannot be sent.
        await client.end().catch(() => undefined);
      }
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async probeWrite() {
      await sql`update health_probe set checked_at = now() where id = 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

/**
 * PGlite allows one process per data directory. A pid file claims it; a second process (another
 * server, or the admin command while the server runs) gets a clear error instead of corruption.
 */
function claimDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const pidFile = path.join(dataDir, 'riffscribe.pid');
  let holder: number | null = null;
  try {
    holder = Number(readFileSync(pidFile, 'utf8').trim()) || null;
  } catch {
    holder = null;
  }
  if (holder !== null && holder !== process.pid && isAlive(holder)) {
    throw new Error(
      `The embedded database in ${dataDir} is in use by process ${holder}. ` +
        'Stop that process first (or use PostgreSQL with DATABASE_URL to share a database).',
    );
  }
  writeFileSync(pidFile, String(process.pid));
  return () => {
    rmSync(pidFile, { force: true });
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function openPglite(dataDir: string | null, template?: Blob): Promise<Database> {
  const release = dataDir ? claimDataDir(dataDir) : () => undefined;
  const client = dataDir
    ? await PGlite.create(dataDir)
    : await PGlite.create(template ? { loadDataDir: template } : {});
  const lock = new ConnectionLock();
  const db = new Kysely<DB>({ dialect: new PGliteDialect(client, lock) });
  return {
    db,
    driver: 'pglite',
    executeSql(text, values) {
      return lock.run(async () => {
        if (values && values.length > 0) return { rows: (await client.query(text, values)).rows };
        // Multi-statement SQL without parameters must go through exec.
        const results = await client.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      });
    },
    withStartupLock(work) {
      return work();
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async probeWrite() {
      await sql`update health_probe set checked_at = now() where id = 1`.execute(db);
    },
    async close() {
      await db.destroy();
      release();
    },
  };
}
