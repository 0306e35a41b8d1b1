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

  /**
   * Forgets the links handed out before `before` that no job used, and returns their keys (the
   * caller deletes their objects). A link is used by a job or never: `claim` only takes a row
   * this has not removed.
   */
  async removeUnsubmitted(before: Date): Promise<string[]> {
    const rows = await this.db
      .deleteFrom('uploads')
      .where('job_id', 'is', null)
      .where('created_at', '<', before)
      .returning('key')
      .execute();
    return rows.map((r) => r.key);
  }

  /**
   * Of `keys`, those something still refers to: a job's upload, or a link handed out and not
   * yet removed (waiting for its file or its submission).
   */
  async referenced(keys: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let at = 0; at < keys.length; at += 500) {
      const batch = keys.slice(at, at + 500);
      const [jobs, links] = await Promise.all([
        this.db.selectFrom('jobs').select('upload_key').where('upload_key', 'in', batch).execute(),
        this.db.selectFrom('uploads').select('key').where('key', 'in', batch).execute(),
      ]);
      for (const row of jobs) found.add(row.upload_key);
      for (const row of links) found.add(row.key);
    }
    return found;
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
