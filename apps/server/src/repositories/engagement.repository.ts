import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** Ratings, opens (loads) and first views of lessons by people other than their owners. */
export class EngagementRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async rating(jobId: string, userId: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('ratings')
      .select('stars')
      .where('job_id', '=', jobId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.stars ?? null;
  }

  /** One rating per user per job: a second rating replaces the first. */
  async rate(jobId: string, userId: string, stars: number): Promise<void> {
    await this.db
      .insertInto('ratings')
      .values({ job_id: jobId, user_id: userId, stars })
      .onConflict((oc) =>
        oc.columns(['job_id', 'user_id']).doUpdateSet({ stars, updated_at: sql`now()` }),
      )
      .execute();
  }

  async ratingSummary(jobId: string): Promise<{ average: number | null; count: number }> {
    const row = await this.db
      .selectFrom('ratings')
      .select([sql<number | null>`avg(stars)::float8`.as('average'), sql<string>`count(*)`.as('n')])
      .where('job_id', '=', jobId)
      .executeTakeFirstOrThrow();
    return { average: row.average, count: Number(row.n) };
  }

  /** Counts an open once per (job, sign-in session); returns whether this call counted it. */
  async recordLoad(jobId: string, sessionId: string, userId: string): Promise<boolean> {
    const row = await this.db
      .insertInto('job_loads')
      .values({ job_id: jobId, session_id: sessionId, user_id: userId })
      .onConflict((oc) => oc.columns(['job_id', 'session_id']).doNothing())
      .returning('job_id')
      .executeTakeFirst();
    return row !== undefined;
  }

  async loadStats(jobId: string): Promise<{ loadsCount: number; viewersCount: number }> {
    const row = await this.db
      .selectFrom('job_loads')
      .select([
        sql<string>`count(*)`.as('loads'),
        sql<string>`count(distinct user_id)`.as('viewers'),
      ])
      .where('job_id', '=', jobId)
      .executeTakeFirstOrThrow();
    return { loadsCount: Number(row.loads), viewersCount: Number(row.viewers) };
  }

  async hasViewed(jobId: string, userId: string, db: Kysely<DB> = this.db): Promise<boolean> {
    const row = await db
      .selectFrom('job_views')
      .select('job_id')
      .where('job_id', '=', jobId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async recordView(trx: Kysely<DB>, jobId: string, userId: string): Promise<void> {
    await trx
      .insertInto('job_views')
      .values({ job_id: jobId, user_id: userId })
      .onConflict((oc) => oc.columns(['job_id', 'user_id']).doNothing())
      .execute();
  }
}
