import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

export interface UploadRecord {
  key: string;
  ownerUid: string;
  fileType: string;
  maxBytes: number | null;
  jobId: string | null;
}

/** Upload links handed out, so that process-video only accepts the caller's own, once. */
export class UploadsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async insert(u: { key: string; ownerUid: string; fileType: string; maxBytes: number | null }) {
    await this.db
      .insertInto('uploads')
      .values({ key: u.key, owner_uid: u.ownerUid, file_type: u.fileType, max_bytes: u.maxBytes })
      .execute();
  }

  async find(key: string): Promise<UploadRecord | null> {
    const row = await this.db
      .selectFrom('uploads')
      .selectAll()
      .where('key', '=', key)
      .executeTakeFirst();
    return row
      ? {
          key: row.key,
          ownerUid: row.owner_uid,
          fileType: row.file_type,
          maxBytes: row.max_bytes === null ? null : Number(row.max_bytes),
          jobId: row.job_id,
        }
      : null;
  }

  /** Marks the upload as used by a job; false when another job took it first. */
  async claim(trx: Kysely<DB>, key: string, jobId: string): Promise<boolean> {
    const row = await trx
      .updateTable('uploads')
      .set({ job_id: jobId })
      .where('key', '=', key)
      .where('job_id', 'is', null)
      .returning('key')
      .executeTakeFirst();
    return row !== undefined;
  }
}
