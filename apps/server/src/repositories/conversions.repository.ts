import { exportOverlaySchema, type ConversionStatus, type ExportOverlay } from '@riffscribe/core';
import { sql, type Kysely, type UpdateObject } from 'kysely';
import type { DB } from '../db/schema.js';
import { JobFilesRepository, type JobFile } from './job-files.repository.js';
import { escapeLike } from '../db/like.js';

/** One MP4 export of a lesson, as the API and the runner see it. */
export interface ConversionRecord {
  jobId: string;
  userId: string;
  status: ConversionStatus;
  progress: number;
  error: string | null;
  uploadKey: string;
  uploadMaxBytes: number;
  attempts: number;
}

/** What a runner needs about the conversion it leased. */
export interface LeasedConversion {
  jobId: string;
  uploadKey: string;
  /** The lesson's length in seconds (null when the job has none recorded). */
  lessonSeconds: number | null;
  /** Runs started on this upload, this one included. */
  attempts: number;
  token: string;
  /** The tab overlay to put over the lesson's video; null: the upload is the whole video. */
  overlay: ExportOverlay | null;
}

/** A stored overlay, or null (none, or one that no longer reads as one). */
function readOverlay(text: string | null): ExportOverlay | null {
  if (!text) return null;
  try {
    const parsed = exportOverlaySchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Runs one upload may start: the first, and one more when a runner died holding it (its lease
 * ran out). A third expiry fails the conversion.
 */
export const MAX_CONVERSION_ATTEMPTS = 2;

/** The error a conversion gets when its runner died twice. */
export const CONVERSION_LOST =
  'The conversion stopped unexpectedly. Please export the video again.';

const inSeconds = (n: number) => sql<Date>`now() + ${n} * interval '1 second'`;

/**
 * The conversions table: the API's upload/start/status and the ConversionRunner's queue. Writes
 * of a runner are fenced by its lease token (like job-leases.repository.ts): a conversion
 * replaced by a new upload link, or taken over after its lease ran out, ignores the old runner.
 */
export class ConversionsRepository {
  private readonly files: JobFilesRepository;

  constructor(private readonly db: Kysely<DB>) {
    this.files = new JobFilesRepository(db);
  }

  async find(jobId: string): Promise<ConversionRecord | null> {
    const row = await this.db
      .selectFrom('conversions')
      .selectAll()
      .where('job_id', '=', jobId)
      .executeTakeFirst();
    return row
      ? {
          jobId: row.job_id,
          userId: row.user_id,
          status: row.status as ConversionStatus,
          progress: row.progress,
          error: row.error,
          uploadKey: row.upload_key,
          uploadMaxBytes: Number(row.upload_max_bytes),
          attempts: row.attempts,
        }
      : null;
  }

  /**
   * Starts a new conversion of the lesson, waiting for its upload: replaces any earlier one
   * (finished or not; a runner still holding it loses its lease). Returns the earlier upload's
   * key, for the caller to delete, or null.
   */
  async replace(conversion: {
    jobId: string;
    userId: string;
    uploadKey: string;
    uploadMaxBytes: number;
  }): Promise<string | null> {
    return this.db.transaction().execute(async (trx) => {
      const earlier = await trx
        .selectFrom('conversions')
        .select('upload_key')
        .where('job_id', '=', conversion.jobId)
        .forUpdate()
        .executeTakeFirst();
      const fresh = {
        user_id: conversion.userId,
        status: 'uploading',
        progress: 0,
        error: null,
        upload_key: conversion.uploadKey,
        upload_max_bytes: conversion.uploadMaxBytes,
        lease_token: null,
        lease_holder: null,
        lease_expires_at: null,
        attempts: 0,
        overlay: null,
      };
      await trx
        .insertInto('conversions')
        .values({ job_id: conversion.jobId, ...fresh })
        .onConflict((oc) =>
          oc
            .column('job_id')
            .doUpdateSet({ ...fresh, created_at: sql`now()`, updated_at: sql`now()` }),
        )
        .execute();
      return earlier && earlier.upload_key !== conversion.uploadKey ? earlier.upload_key : null;
    });
  }

  /**
   * Queues a conversion waiting for `uploadKey`, with the overlay to put over the lesson's video
   * (null: the upload is the whole video); false when it moved on (or was replaced).
   */
  async enqueue(
    jobId: string,
    uploadKey: string,
    overlay: ExportOverlay | null = null,
  ): Promise<boolean> {
    const row = await this.db
      .updateTable('conversions')
      .set({
        status: 'queued',
        progress: 0,
        error: null,
        attempts: 0,
        overlay: overlay ? JSON.stringify(overlay) : null,
        updated_at: sql`now()`,
      })
      .where('job_id', '=', jobId)
      .where('status', '=', 'uploading')
      .where('upload_key', '=', uploadKey)
      .returning('job_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Fails a conversion that has not started running (its upload is unusable). */
  async refuse(jobId: string, uploadKey: string, error: string): Promise<boolean> {
    const row = await this.db
      .updateTable('conversions')
      .set({ status: 'failed', error, updated_at: sql`now()` })
      .where('job_id', '=', jobId)
      .where('status', '=', 'uploading')
      .where('upload_key', '=', uploadKey)
      .returning('job_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Takes the oldest conversion that is queued, or processing under a lease that ran out with
   * a run left (MAX_CONVERSION_ATTEMPTS): one conditional UPDATE, so two runners (processes,
   * or machines sharing PostgreSQL) never take the same row; on PGlite (one connection) it is
   * the same statement. Returns null when there is nothing to take.
   */
  async claim(lease: {
    token: string;
    holder: string;
    seconds: number;
  }): Promise<LeasedConversion | null> {
    const result = await sql<{
      job_id: string;
      upload_key: string;
      attempts: number;
      overlay: string | null;
    }>`
      update conversions
      set status = 'processing', progress = 0, error = null,
          lease_token = ${lease.token}, lease_holder = ${lease.holder},
          lease_expires_at = ${inSeconds(lease.seconds)},
          attempts = attempts + 1, updated_at = now()
      where job_id = (
        select job_id from conversions
        where status = 'queued'
           or (status = 'processing' and lease_expires_at < now()
               and attempts < ${MAX_CONVERSION_ATTEMPTS})
        order by updated_at
        limit 1
        for update skip locked
      )
      and (status = 'queued' or (status = 'processing' and lease_expires_at < now()))
      returning job_id, upload_key, attempts, overlay`.execute(this.db);
    const row = result.rows[0];
    if (!row) return null;
    const job = await this.db
      .selectFrom('jobs')
      .select('duration')
      .where('id', '=', row.job_id)
      .executeTakeFirst();
    return {
      jobId: row.job_id,
      uploadKey: row.upload_key,
      lessonSeconds: job?.duration ?? null,
      attempts: row.attempts,
      token: lease.token,
      overlay: readOverlay(row.overlay),
    };
  }

  /**
   * Fails conversions whose runner died on their last run (lease ran out, no run left). Returns
   * their upload keys, for the caller to delete.
   */
  async failExpired(): Promise<{ jobId: string; uploadKey: string }[]> {
    const rows = await this.db
      .updateTable('conversions')
      .set({
        status: 'failed',
        error: CONVERSION_LOST,
        lease_token: null,
        lease_holder: null,
        lease_expires_at: null,
        updated_at: sql`now()`,
      })
      .where('status', '=', 'processing')
      .where('lease_expires_at', '<', sql<Date>`now()`)
      .where('attempts', '>=', MAX_CONVERSION_ATTEMPTS)
      .returning(['job_id', 'upload_key'])
      .execute();
    return rows.map((r) => ({ jobId: r.job_id, uploadKey: r.upload_key }));
  }

  private async fenced(
    db: Kysely<DB>,
    jobId: string,
    token: string,
    set: UpdateObject<DB, 'conversions'>,
  ): Promise<boolean> {
    const row = await db
      .updateTable('conversions')
      .set(set)
      .where('job_id', '=', jobId)
      .where('lease_token', '=', token)
      .where('status', '=', 'processing')
      .returning('job_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Extends the lease; false when this run no longer holds it. */
  renew(jobId: string, token: string, seconds: number): Promise<boolean> {
    return this.fenced(this.db, jobId, token, { lease_expires_at: inSeconds(seconds) });
  }

  /** Writes the percent done (0..100); false when the lease is gone. */
  progress(jobId: string, token: string, percent: number): Promise<boolean> {
    return this.fenced(this.db, jobId, token, {
      progress: Math.max(0, Math.min(99, Math.round(percent))),
      updated_at: sql`now()`,
    });
  }

  /**
   * Records the MP4 as the job's file and marks the conversion completed, in one transaction,
   * only while `token` holds the lease. Returns the key of the file it replaced (to delete), or
   * `false` when the lease was lost (the caller deletes its own output).
   */
  async complete(jobId: string, token: string, file: JobFile): Promise<string | null | false> {
    return this.db.transaction().execute(async (trx) => {
      const held = await this.fenced(trx, jobId, token, {
        status: 'completed',
        progress: 100,
        error: null,
        lease_token: null,
        lease_holder: null,
        lease_expires_at: null,
        updated_at: sql`now()`,
      });
      if (!held) return false;
      const earlier = await trx
        .selectFrom('job_files')
        .select('key')
        .where('job_id', '=', jobId)
        .where('name', '=', file.name)
        .where('version', '=', file.version)
        .executeTakeFirst();
      await this.files.upsert(file, trx);
      return earlier && earlier.key !== file.key ? earlier.key : null;
    });
  }

  /** Fails the conversion with a short sentence; false when the lease is gone. */
  fail(jobId: string, token: string, error: string): Promise<boolean> {
    return this.fenced(this.db, jobId, token, {
      status: 'failed',
      error,
      lease_token: null,
      lease_holder: null,
      lease_expires_at: null,
      updated_at: sql`now()`,
    });
  }

  /**
   * Gives the conversion back to the queue (its runner is shutting down) without using up a
   * run; false when the lease is gone.
   */
  release(jobId: string, token: string): Promise<boolean> {
    return this.fenced(this.db, jobId, token, {
      status: 'queued',
      progress: 0,
      lease_token: null,
      lease_holder: null,
      lease_expires_at: null,
      attempts: sql`greatest(attempts - 1, 0)`,
      updated_at: sql`now()`,
    });
  }

  /** Conversions in processing whose holder's name starts with `prefix` (`host:`), and holders. */
  async heldOn(prefix: string, limit = 50): Promise<{ id: string; holder: string }[]> {
    const rows = await this.db
      .selectFrom('conversions')
      .select(['job_id', 'lease_holder'])
      .where('status', '=', 'processing')
      .where('lease_holder', 'like', `${escapeLike(prefix)}%`)
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.job_id, holder: r.lease_holder ?? '' }));
  }
}
