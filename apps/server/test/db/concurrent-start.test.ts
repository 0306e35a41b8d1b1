import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { JobQueue } from '../../src/queue/job-queue.js';
import { TEST_POSTGRES_URL, testDatabaseDriver } from '../support/test-database.js';

/**
 * Issue 38 row 8: an API and two workers started at once on a fresh database all come up:
 * creating the schema, the migrations and the queue's own setup are serialised by an advisory
 * lock (before, one process crashed in 4 of 10 starts: a duplicate pg_namespace key, a deadlock).
 */
describe.runIf(testDatabaseDriver() === 'postgres')('three processes starting at once', () => {
  async function startOne(schema: string): Promise<{ database: Database; queue: JobQueue }> {
    const database = await openDatabase({
      driver: 'postgres',
      url: TEST_POSTGRES_URL,
      searchPath: schema,
      poolSize: 3,
    });
    try {
      return { database, queue: await JobQueue.start(database, { schema }) };
    } catch (error) {
      await database.close();
      throw error;
    }
  }

  it('succeed 10 times out of 10 on a fresh schema', async () => {
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    const failures: string[] = [];
    try {
      for (let round = 0; round < 10; round++) {
        const schema = `t_start_${randomBytes(5).toString('hex')}`;
        const started = await Promise.allSettled([
          startOne(schema),
          startOne(schema),
          startOne(schema),
        ]);
        for (const s of started) {
          if (s.status === 'rejected') failures.push(`round ${String(round)}: ${String(s.reason)}`);
          else {
            await s.value.queue.stop();
            await s.value.database.close();
          }
        }
        await admin.query(`drop schema if exists ${schema} cascade`);
      }
    } finally {
      await admin.end();
    }
    expect(failures).toEqual([]);
  }, 180_000);
});
