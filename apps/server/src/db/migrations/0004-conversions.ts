import { sql, type Kysely, type Migration } from 'kysely';

/**
 * MP4 exports (spec section 7, /api/convert/*): one row per lesson (the conversion's id is the
 * job's id), and the queue the ConversionRunner takes them from. A runner owns a row while
 * `lease_token` is its token and `lease_expires_at` is in the future; every write it makes is
 * conditional on that token, so a replaced or requeued conversion is never overwritten by a
 * runner that lost it.
 */
export const conversions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('conversions')
      .addColumn('job_id', 'text', (c) => c.primaryKey().references('jobs.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      // uploading | queued | processing | completed | failed
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('error', 'text')
      .addColumn('upload_key', 'text', (c) => c.notNull())
      .addColumn('upload_max_bytes', 'bigint', (c) => c.notNull())
      .addColumn('lease_token', 'text')
      .addColumn('lease_holder', 'text')
      .addColumn('lease_expires_at', 'timestamptz')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    // Runners look for queued rows, and for processing rows whose lease ran out.
    await sql`create index conversions_waiting on conversions (updated_at) where status in ('queued', 'processing')`.execute(
      db,
    );
  },
};
