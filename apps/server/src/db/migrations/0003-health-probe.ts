import { sql, type Kysely, type Migration } from 'kysely';

/**
 * One row that /api/health rewrites: a database that answers reads but cannot commit a write (a
 * read-only or full disk, a read-only server) is not healthy, and only a committed write shows it.
 */
export const healthProbe: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('health_probe')
      .addColumn('id', 'smallint', (c) => c.primaryKey())
      .addColumn('checked_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await sql`insert into health_probe (id) values (1)`.execute(db);
  },
};
