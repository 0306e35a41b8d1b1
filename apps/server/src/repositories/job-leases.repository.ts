import { MESSAGES, type Role } from '@riffscribe/core';
import { sql, type Kysely, type UpdateObject } from 'kysely';
import type { DB } from '../db/schema.js';
import { CreditsRepository } from './credits.repository.js';
import { JobFilesRepository, type JobFile } from './job-files.repository.js';
import { escapeLike } from '../db/like.js';

/** What a worker needs to know about the job it leased. */
export interface LeasedJob {
  id: string;
  ownerRole: Role;
  uploadKey: string;
  config: Record<string, unknown>;
  thumbnailKey: string | null;
  /** Attempts started so far, this one included. */
  attempts: number;
  /** The token this attempt presents on every write. */
  token: string;
}

/** Why a lease could not be taken. */
export type ClaimRefusal = 'missing' | 'finished' | 'held';

export interface StageUpdate {
  stage: string;
  /** Overall percent, 0..100. */
  progress: number;
  message: string;
}

/** A finished job's outputs, recorded in the same transaction that marks it completed. */
export interface CompletedOutputs {
  files: JobFile[];
  /** Length of the analysed media in seconds. */
  duration: number;
  /** The thumbnail made by the worker, used only when the owner's browser sent none. */
  generatedThumbnailKey: string | null;
  message: string;
}

/** How `complete` ended: not at all (the lease was lost), or completed. */
export type CompleteResult =
  | { completed: false }
  | {
      completed: true;
      /** Whether the job now points at `generatedThumbnailKey` (false: the browser's won). */
      posterUsed: boolean;
    };

const seconds = (n: number) => sql<Date>`now() + ${n} * interval '1 second'`;

/**
 * Leases on job rows. A worker attempt owns a job while `lease_token` is its token and
 * `lease_expires_at` is in the future; every write it makes is conditional on that token
 * (fencing), so a worker that lost its lease (paused, partitioned, presumed dead) can no longer
 * change the job, and a job's outcome and credit movements are recorded exactly once.
 */
export class JobLeasesRepository {
  private readonly credits = new CreditsRepository();
  private readonly files: JobFilesRepository;

  constructor(private readonly db: Kysely<DB>) {
    this.files = new JobFilesRepository(db);
  }

  /** Updates the job only while `token` holds its lease; false when it does not. */
  private async fencedUpdate(
    db: Kysely<DB>,
    jobId: string,
    token: string,
    set: UpdateObject<DB, 'jobs'>,
  ): Promise<boolean> {
    const row = await db
      .updateTable('jobs')
      .set(set)
      .where('id', '=', jobId)
      .where('lease_token', '=', token)
      .where('status', '=', 'processing')
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Takes the lease of an unfinished job whose lease is free or expired: status processing,
   * attempts + 1. Returns the job, or why it could not be taken.
   */
  async claim(
    jobId: string,
    lease: { token: string; holder: string; seconds: number; update: StageUpdate },
  ): Promise<LeasedJob | ClaimRefusal> {
    const row = await this.db
      .updateTable('jobs')
      .set({
        status: 'processing',
        stage: lease.update.stage,
        progress: lease.update.progress,
        message: lease.update.message,
        error: null,
        lease_token: lease.token,
        lease_holder: lease.holder,
        lease_expires_at: seconds(lease.seconds),
        attempts: sql`attempts + 1`,
        updated_at: sql`now()`,
      })
      .where('id', '=', jobId)
      .where('status', 'in', ['queued', 'processing'])
      .where((eb) =>
        eb.or([eb('lease_token', 'is', null), eb('lease_expires_at', '<', sql<Date>`now()`)]),
      )
      .returning(['id', 'owner_uid', 'upload_key', 'config', 'thumbnail_key', 'attempts'])
      .executeTakeFirst();
    if (!row) {
      const current = await this.db
        .selectFrom('jobs')
        .select('status')
        .where('id', '=', jobId)
        .executeTakeFirst();
      if (!current) return 'missing';
      return current.status === 'completed' || current.status === 'failed' ? 'finished' : 'held';
    }
    const owner = await this.db
      .selectFrom('users')
      .select('role')
      .where('id', '=', row.owner_uid)
      .executeTakeFirst();
    return {
      id: row.id,
      ownerRole: (owner?.role ?? 'user') as Role,
      uploadKey: row.upload_key,
      config: row.config,
      thumbnailKey: row.thumbnail_key,
      attempts: row.attempts,
      token: lease.token,
    };
  }

  /** Extends the lease; false when this attempt no longer holds it. */
  renew(jobId: string, token: string, leaseSeconds: number): Promise<boolean> {
    return this.fencedUpdate(this.db, jobId, token, { lease_expires_at: seconds(leaseSeconds) });
  }

  /** Writes the live stage, percent and message; false when the lease is gone. */
  progress(jobId: string, token: string, update: StageUpdate): Promise<boolean> {
    return this.fencedUpdate(this.db, jobId, token, {
      stage: update.stage,
      progress: Math.max(0, Math.min(100, Math.round(update.progress))),
      message: update.message,
      updated_at: sql`now()`,
    });
  }

  /**
   * Records the outputs and marks the job completed, in one transaction, only while `token`
   * holds the lease. Says whether the worker's thumbnail was used: when it was not (the
   * browser's arrived first), the caller deletes the stored poster.
   */
  async complete(jobId: string, token: string, outputs: CompletedOutputs): Promise<CompleteResult> {
    return this.db.transaction().execute(async (trx) => {
      const held = await this.fencedUpdate(trx, jobId, token, {
        status: 'completed',
        stage: 'completed',
        progress: 100,
        message: outputs.message,
        error: null,
        duration: outputs.duration,
        lease_token: null,
        lease_expires_at: null,
        lease_holder: null,
        completed_at: sql`now()`,
        updated_at: sql`now()`,
      });
      if (!held) return { completed: false };
      for (const file of outputs.files) await this.files.upsert(file, trx);
      let posterUsed = false;
      if (outputs.generatedThumbnailKey !== null) {
        // The browser's own thumbnail, when it arrived, wins.
        const row = await trx
          .updateTable('jobs')
          .set({ thumbnail_key: outputs.generatedThumbnailKey })
          .where('id', '=', jobId)
          .where('thumbnail_key', 'is', null)
          .returning('id')
          .executeTakeFirst();
        posterUsed = row !== undefined;
      }
      return { completed: true, posterUsed };
    });
  }

  /**
   * Fails the job for good and refunds its creator credit, in one transaction. With a token,
   * only while that attempt holds the lease; without one (the reaper), only while the job is
   * unfinished and nobody holds a live lease. Returns false when nothing changed.
   */
  async fail(jobId: string, token: string | null, reason: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      let query = trx
        .updateTable('jobs')
        .set({
          status: 'failed',
          stage: 'failed',
          message: MESSAGES.jobFailed,
          error: reason,
          lease_token: null,
          lease_expires_at: null,
          lease_holder: null,
          completed_at: sql`now()`,
          updated_at: sql`now()`,
        })
        .where('id', '=', jobId)
        .where('status', 'in', ['queued', 'processing']);
      query =
        token === null
          ? query.where((eb) =>
              eb.or([eb('lease_token', 'is', null), eb('lease_expires_at', '<', sql<Date>`now()`)]),
            )
          : query.where('lease_token', '=', token);
      const row = await query.returning('owner_uid').executeTakeFirst();
      if (!row) return false;
      await this.refund(trx, jobId, row.owner_uid);
      return true;
    });
  }

  /** Returns the creator credit spent on the job, once, if one was spent. */
  private async refund(trx: Kysely<DB>, jobId: string, ownerUid: string): Promise<void> {
    const spent = await this.credits.countMovements(trx, {
      userId: ownerUid,
      kind: 'creator',
      reason: 'job_create',
      ref: jobId,
    });
    if (spent === 0) return;
    await this.credits.grant(trx, {
      userId: ownerUid,
      kind: 'creator',
      amount: 1,
      reason: 'job_refund',
      ref: jobId,
    });
  }

  /**
   * Gives the job back to the queue for a retry: status queued, lease cleared. With a token,
   * only while that attempt holds the lease; without one, only when its lease has expired.
   */
  async release(jobId: string, token: string | null, message: string): Promise<boolean> {
    let query = this.db
      .updateTable('jobs')
      .set({
        status: 'queued',
        stage: 'queued',
        progress: 0,
        message,
        lease_token: null,
        lease_expires_at: null,
        lease_holder: null,
        updated_at: sql`now()`,
      })
      .where('id', '=', jobId)
      .where('status', '=', 'processing');
    query =
      token === null
        ? query.where('lease_expires_at', '<', sql<Date>`now()`)
        : query.where('lease_token', '=', token);
    const row = await query.returning('id').executeTakeFirst();
    return row !== undefined;
  }

  /** Jobs in processing whose lease ran out (their worker died or stopped responding). */
  async expired(limit = 50): Promise<{ id: string; attempts: number }[]> {
    return this.db
      .selectFrom('jobs')
      .select(['id', 'attempts'])
      .where('status', '=', 'processing')
      .where('lease_expires_at', '<', sql<Date>`now()`)
      .orderBy('lease_expires_at')
      .limit(limit)
      .execute();
  }

  /** Jobs in processing whose lease holder's name starts with `prefix` (`host:`), and holders. */
  async heldOn(prefix: string, limit = 50): Promise<{ id: string; holder: string }[]> {
    const rows = await this.db
      .selectFrom('jobs')
      .select(['id', 'lease_holder'])
      .where('status', '=', 'processing')
      .where('lease_holder', 'like', `${escapeLike(prefix)}%`)
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: r.id, holder: r.lease_holder ?? '' }));
  }

  /**
   * Ends the lease of `holder` on a job at once (its worker is known dead), so the reaper's next
   * look at expired leases takes the job; false when the job moved on meanwhile.
   */
  async expireNow(jobId: string, holder: string): Promise<boolean> {
    const row = await this.db
      .updateTable('jobs')
      .set({ lease_expires_at: sql<Date>`now() - interval '1 second'` })
      .where('id', '=', jobId)
      .where('status', '=', 'processing')
      .where('lease_holder', '=', holder)
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Queued jobs untouched for `olderThanSeconds`: the reaper checks their queue entries. */
  async waiting(olderThanSeconds: number, limit = 50): Promise<{ id: string }[]> {
    return this.db
      .selectFrom('jobs')
      .select('id')
      .where('status', '=', 'queued')
      .where('updated_at', '<', sql<Date>`now() - ${olderThanSeconds} * interval '1 second'`)
      .orderBy('updated_at')
      .limit(limit)
      .execute();
  }

  /** The database's clock, so that lease arithmetic never mixes two machines' clocks. */
  async now(): Promise<Date> {
    const row = await sql<{ now: Date }>`select now() as now`.execute(this.db);
    return new Date(row.rows[0]?.now ?? Date.now());
  }
}
