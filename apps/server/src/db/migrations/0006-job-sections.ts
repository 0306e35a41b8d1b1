import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Sections (issue 40 part 3): named loops each user keeps with a lesson, their own only. A user's
 * list for a lesson is replaced as a whole (PUT /api/job-sections), so the key is (job, user,
 * section id); its leading columns are the (job, user) index every read and replace goes by.
 * `position` keeps the order the list was saved in (ties of start and end). Rows go with their
 * lesson or their user.
 */
export const jobSections: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('job_sections')
      .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('start_seconds', 'double precision', (c) =>
        c.notNull().check(sql`start_seconds >= 0`),
      )
      .addColumn('end_seconds', 'double precision', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('job_sections_pk', ['job_id', 'user_id', 'id'])
      .addCheckConstraint('job_sections_span', sql`end_seconds > start_seconds`)
      .execute();
    // A user's account deletion finds their rows without scanning every lesson's.
    await db.schema.createIndex('job_sections_user').on('job_sections').column('user_id').execute();
  },
};
