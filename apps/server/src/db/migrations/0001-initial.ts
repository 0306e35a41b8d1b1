import { sql, type Kysely, type Migration } from 'kysely';

/** Users, sessions, credits, uploads, jobs and their files, ratings, loads, views, upgrades. */
export const initial: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text')
      .addColumn('handle', 'text', (c) => c.notNull().unique())
      .addColumn('role', 'text', (c) =>
        c
          .notNull()
          .defaultTo('user')
          .check(sql`role in ('admin', 'pilot', 'user')`),
      )
      .addColumn('oidc_issuer', 'text', (c) => c.notNull())
      .addColumn('oidc_subject', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addUniqueConstraint('users_oidc_identity', ['oidc_issuer', 'oidc_subject'])
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('last_used_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('revoked_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

    await db.schema
      .createTable('credit_balances')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('creator', 'view')`))
      .addColumn('balance', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`balance >= 0`),
      )
      .addPrimaryKeyConstraint('credit_balances_pk', ['user_id', 'kind'])
      .execute();

    await db.schema
      .createTable('credit_ledger')
      .addColumn('id', 'bigserial', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('creator', 'view')`))
      .addColumn('delta', 'integer', (c) => c.notNull().check(sql`delta <> 0`))
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('ref', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addUniqueConstraint('credit_ledger_once', ['user_id', 'kind', 'reason', 'ref'])
      .execute();

    await db.schema
      .createTable('uploads')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('owner_uid', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('file_type', 'text', (c) => c.notNull())
      .addColumn('max_bytes', 'bigint')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('job_id', 'text')
      .execute();

    await db.schema
      .createTable('jobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('request_id', 'text', (c) => c.notNull().unique())
      .addColumn('owner_uid', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('file_name', 'text', (c) => c.notNull())
      .addColumn('project_name', 'text')
      .addColumn('file_size', 'bigint', (c) => c.notNull())
      .addColumn('file_type', 'text', (c) => c.notNull())
      .addColumn('upload_key', 'text', (c) => c.notNull().unique())
      .addColumn('config', 'jsonb', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('stage', 'text', (c) => c.notNull())
      .addColumn('progress', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('shared_to_explore', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('shared_to_personal', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('thumbnail_key', 'text')
      .addColumn('duration', 'double precision')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('completed_at', 'timestamptz')
      .execute();
    await db.schema
      .createIndex('jobs_owner')
      .on('jobs')
      .columns(['owner_uid', 'created_at'])
      .execute();
    await db.schema
      .createIndex('jobs_explore')
      .on('jobs')
      .columns(['shared_to_explore', 'status', 'created_at'])
      .execute();

    await db.schema
      .createTable('job_files')
      .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('version', 'text', (c) =>
        c.notNull().check(sql`version in ('original', 'edited')`),
      )
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('job_files_pk', ['job_id', 'name', 'version'])
      .execute();

    await db.schema
      .createTable('ratings')
      .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('stars', 'integer', (c) => c.notNull().check(sql`stars between 1 and 5`))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('ratings_pk', ['job_id', 'user_id'])
      .execute();

    await db.schema
      .createTable('job_loads')
      .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
      .addColumn('session_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('job_loads_pk', ['job_id', 'session_id'])
      .execute();

    await db.schema
      .createTable('job_views')
      .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addPrimaryKeyConstraint('job_views_pk', ['job_id', 'user_id'])
      .execute();

    await db.schema
      .createTable('upgrade_requests')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) =>
        c
          .notNull()
          .defaultTo('pending')
          .check(sql`status in ('pending', 'approved', 'rejected')`),
      )
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    // At most one pending request per user, enforced by the database.
    await sql`create unique index upgrade_requests_one_pending on upgrade_requests (user_id) where status = 'pending'`.execute(
      db,
    );
  },
};
