import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Job leases for the processing pipeline: the worker attempt that owns a job (a random token it
 * must present on every write), until when, and how many attempts have started.
 */
export const jobLeases: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('jobs')
      .addColumn('lease_token', 'text')
      .addColumn('lease_expires_at', 'timestamptz')
      .addColumn('lease_holder', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    // The reaper looks for unfinished jobs whose lease ran out.
    await sql`create index jobs_unfinished on jobs (lease_expires_at) where status in ('queued', 'processing')`.execute(
      db,
    );
  },
};
