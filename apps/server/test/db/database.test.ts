import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openTestDatabase,
  testDatabaseDriver,
  type TestDatabase,
} from '../support/test-database.js';

describe(`database (${testDatabaseDriver()})`, () => {
  let t: TestDatabase;
  beforeAll(async () => {
    // From nothing: initdb and every migration, as a first start does.
    t = await openTestDatabase(testDatabaseDriver(), { fresh: true });
  });
  afterAll(() => t.dispose());

  it('runs the migrations and answers queries', async () => {
    await t.database.ping();
    const tables = await sql<{ table_name: string }>`
      select table_name from information_schema.tables
      where table_schema = current_schema() order by table_name`.execute(t.database.db);
    expect(tables.rows.map((r) => r.table_name)).toEqual(
      expect.arrayContaining([
        'users',
        'jobs',
        'credit_ledger',
        'credit_balances',
        'ratings',
        'job_sections',
      ]),
    );
  });

  it('runs multi-statement SQL without parameters through executeSql', async () => {
    await t.database.executeSql(
      'create table probe_t (n int); insert into probe_t values (1), (2);',
    );
    const { rows } = await t.database.executeSql(
      'select sum(n)::int as s from probe_t where n > $1',
      [0],
    );
    expect(rows).toEqual([{ s: 3 }]);
  });
});
