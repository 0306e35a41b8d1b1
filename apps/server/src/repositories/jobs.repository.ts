import type { JobStatus } from '@riffscribe/core';
import { sql, type ExpressionBuilder, type Kysely, type Selectable } from 'kysely';
import type { DB, JobsTable } from '../db/schema.js';

export interface JobRecord {
  id: string;
  requestId: string;
  ownerUid: string;
  ownerUsername: string;
  fileName: string;
  projectName: string | null;
  fileSize: number;
  fileType: string;
  uploadKey: string;
  config: Record<string, unknown>;
  status: JobStatus;
  stage: string;
  progress: number;
  message: string;
  error: string | null;
  sharedToExplore: boolean;
  sharedToPersonal: boolean;
  thumbnailKey: string | null;
  duration: number | null;
  createdAt: Date;
  updatedAt: Date;
  completedAt: Date | null;
}

type JobRow = Selectable<JobsTable> & { owner_handle: string };

function toJob(row: JobRow): JobRecord {
  return {
    id: row.id,
    requestId: row.request_id,
    ownerUid: row.owner_uid,
    ownerUsername: row.owner_handle,
    fileName: row.file_name,
    projectName: row.project_name,
    fileSize: Number(row.file_size),
    fileType: row.file_type,
    uploadKey: row.upload_key,
    config: row.config,
    status: row.status as JobStatus,
    stage: row.stage,
    progress: row.progress,
    message: row.message,
    error: row.error,
    sharedToExplore: row.shared_to_explore,
    sharedToPersonal: row.shared_to_personal,
    thumbnailKey: row.thumbnail_key,
    duration: row.duration,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    completedAt: row.completed_at,
  };
}

export interface NewJob {
  id: string;
  requestId: string;
  ownerUid: string;
  fileName: string;
  fileSize: number;
  fileType: string;
  uploadKey: string;
  config: Record<string, unknown>;
  message: string;
  duration: number | null;
}

export type JobSort = 'newest' | 'rating' | 'opens';

export interface JobListRow extends JobRecord {
  stars: number | null;
  starsCount: number;
  loadsCount: number;
}

/** Jobs and the lists built from them. */
export class JobsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  private base(db: Kysely<DB> = this.db) {
    return db
      .selectFrom('jobs')
      .innerJoin('users', 'users.id', 'jobs.owner_uid')
      .selectAll('jobs')
      .select('users.handle as owner_handle');
  }

  async insert(trx: Kysely<DB>, job: NewJob): Promise<void> {
    await trx
      .insertInto('jobs')
      .values({
        id: job.id,
        request_id: job.requestId,
        owner_uid: job.ownerUid,
        file_name: job.fileName,
        file_size: job.fileSize,
        file_type: job.fileType,
        upload_key: job.uploadKey,
        config: JSON.stringify(job.config),
        status: 'queued',
        stage: 'queued',
        progress: 0,
        message: job.message,
        duration: job.duration,
      })
      .execute();
  }

  async findById(id: string): Promise<JobRecord | null> {
    const row = await this.base().where('jobs.id', '=', id).executeTakeFirst();
    return row ? toJob(row) : null;
  }

  async findByRequestId(requestId: string): Promise<JobRecord | null> {
    const row = await this.base().where('jobs.request_id', '=', requestId).executeTakeFirst();
    return row ? toJob(row) : null;
  }

  async update(
    id: string,
    fields: Partial<{
      projectName: string | null;
      sharedToExplore: boolean;
      sharedToPersonal: boolean;
      thumbnailKey: string | null;
    }>,
  ): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({
        ...(fields.projectName !== undefined ? { project_name: fields.projectName } : {}),
        ...(fields.sharedToExplore !== undefined
          ? { shared_to_explore: fields.sharedToExplore }
          : {}),
        ...(fields.sharedToPersonal !== undefined
          ? { shared_to_personal: fields.sharedToPersonal }
          : {}),
        ...(fields.thumbnailKey !== undefined ? { thumbnail_key: fields.thumbnailKey } : {}),
        updated_at: new Date(),
      })
      .where('id', '=', id)
      .execute();
  }

  /** Completed lessons shared to Explore, with rating and open counts. */
  /**
   * Finished lessons shared to Explore; with `personalOf`, those that user shared to their
   * personal page instead.
   */
  async listExplore(
    sort: JobSort,
    page: number,
    pageSize: number,
    personalOf?: string,
  ): Promise<{ rows: JobListRow[]; total: number }> {
    const stars = sql<
      number | null
    >`(select avg(r.stars)::float8 from ratings r where r.job_id = jobs.id)`;
    const starsCount = sql<string>`(select count(*) from ratings r where r.job_id = jobs.id)`;
    const loads = sql<string>`(select count(*) from job_loads l where l.job_id = jobs.id)`;
    // The same lessons for the page and for its count.
    const listed = (eb: ExpressionBuilder<DB, 'jobs'>) =>
      eb.and([
        eb('jobs.status', '=', 'completed'),
        personalOf === undefined
          ? eb('jobs.shared_to_explore', '=', true)
          : eb.and([
              eb('jobs.shared_to_personal', '=', true),
              eb('jobs.owner_uid', '=', personalOf),
            ]),
      ]);
    let query = this.base()
      .select([stars.as('stars'), starsCount.as('stars_count'), loads.as('loads_count')])
      .where(listed);
    query =
      sort === 'rating'
        ? query.orderBy(sql`stars desc nulls last`).orderBy(sql`stars_count desc`)
        : sort === 'opens'
          ? query.orderBy(sql`loads_count desc`)
          : query;
    const rows = await query
      .orderBy('jobs.created_at', 'desc')
      .orderBy('jobs.id')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute();
    const count = await this.db
      .selectFrom('jobs')
      .select(sql<string>`count(*)`.as('n'))
      .where(listed)
      .executeTakeFirstOrThrow();
    return {
      rows: rows.map((r) => ({
        ...toJob(r),
        stars: r.stars,
        starsCount: Number(r.stars_count),
        loadsCount: Number(r.loads_count),
      })),
      total: Number(count.n),
    };
  }

  async listByOwner(
    ownerUid: string,
    page: number,
    pageSize: number,
  ): Promise<{ rows: JobRecord[]; total: number }> {
    const rows = await this.base()
      .where('jobs.owner_uid', '=', ownerUid)
      .orderBy('jobs.created_at', 'desc')
      .orderBy('jobs.id')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute();
    const count = await this.db
      .selectFrom('jobs')
      .select(sql<string>`count(*)`.as('n'))
      .where('owner_uid', '=', ownerUid)
      .executeTakeFirstOrThrow();
    return { rows: rows.map(toJob), total: Number(count.n) };
  }
}
