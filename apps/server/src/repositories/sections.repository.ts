import type { Section } from '@riffscribe/core';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** A section as it is saved: every field set, the id made where the caller gave none. */
export interface SectionRow extends Section {
  /** Where it stood in the list as saved (0 = first). */
  position: number;
}

/** Each user's sections of each lesson (issue 40 part 3): named loops, their own only. */
export class SectionsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The user's sections of the lesson by start (then end, then the saved order). */
  async list(jobId: string, userId: string, db: Kysely<DB> = this.db): Promise<Section[]> {
    const rows = await db
      .selectFrom('job_sections')
      .select(['id', 'name', 'start_seconds', 'end_seconds'])
      .where('job_id', '=', jobId)
      .where('user_id', '=', userId)
      .orderBy('start_seconds')
      .orderBy('end_seconds')
      .orderBy('position')
      .execute();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      start: r.start_seconds,
      end: r.end_seconds,
    }));
  }

  /**
   * Replaces the user's sections of the lesson with `sections`, in one transaction, and returns
   * the list as saved. Two replaces of the same list wait for each other (a transaction-scoped
   * advisory lock on the pair), so the last one wins whole, never a mix of both.
   */
  async replace(
    jobId: string,
    userId: string,
    sections: readonly SectionRow[],
  ): Promise<Section[]> {
    return this.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`job-sections|${jobId}|${userId}`}, 0))`.execute(
        trx,
      );
      const kept = await trx
        .selectFrom('job_sections')
        .select(['id', 'created_at'])
        .where('job_id', '=', jobId)
        .where('user_id', '=', userId)
        .execute();
      const created = new Map(kept.map((r) => [r.id, r.created_at]));
      await trx
        .deleteFrom('job_sections')
        .where('job_id', '=', jobId)
        .where('user_id', '=', userId)
        .execute();
      if (sections.length > 0) {
        await trx
          .insertInto('job_sections')
          .values(
            sections.map((s) => {
              const firstSaved = created.get(s.id);
              return {
                job_id: jobId,
                user_id: userId,
                id: s.id,
                name: s.name,
                start_seconds: s.start,
                end_seconds: s.end,
                position: s.position,
                // A section kept from the list before keeps the time it was first saved.
                ...(firstSaved ? { created_at: firstSaved } : {}),
              };
            }),
          )
          .execute();
      }
      return this.list(jobId, userId, trx);
    });
  }
}
