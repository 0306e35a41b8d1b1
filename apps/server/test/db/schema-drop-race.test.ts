import pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  openTestDatabase,
  testDatabaseDriver,
  TEST_POSTGRES_URL,
} from '../support/test-database.js';

/**
 * CI failed once with "Database migration failed: schema t_… does not exist": Kysely's migrator
 * reads the tables of every schema, and another test file dropped its schema during that read.
 * Opening a database while other schemas come and go must still succeed (also "column id of
 * relation t does not exist", the same race one level down).
 */
describe.runIf(testDatabaseDriver() === 'postgres')(
  'migrating while other schemas are dropped',
  () => {
    it('opens every database while thirty other schemas are dropped meanwhile', async () => {
      const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await admin.connect();
      const doomed = Array.from(
        { length: 30 },
        (_, i) => `drop_race_${String(process.pid)}_${String(i)}`,
      );
      try {
        for (const schema of doomed) {
          await admin.query(`create schema ${schema}`);
          await admin.query(`create table ${schema}.t (id serial primary key, name text)`);
        }
        const dropping = (async () => {
          const dropper = new pg.Client({ connectionString: TEST_POSTGRES_URL });
          await dropper.connect();
          for (const schema of doomed) {
            await dropper.query(`drop schema ${schema} cascade`);
            await new Promise((resolve) => setTimeout(resolve, 2));
          }
          await dropper.end();
        })();
        const opened = await Promise.allSettled(
          Array.from({ length: 6 }, () => openTestDatabase('postgres')),
        );
        await dropping;
        for (const result of opened)
          if (result.status === 'fulfilled') await result.value.dispose();
        expect(opened.map((r) => (r.status === 'fulfilled' ? 'opened' : String(r.reason)))).toEqual(
          Array(6).fill('opened'),
        );
      } finally {
        for (const schema of doomed) await admin.query(`drop schema if exists ${schema} cascade`);
        await admin.end();
      }
    });
  },
);
