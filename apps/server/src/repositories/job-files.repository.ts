import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

export type FileVersion = 'original' | 'edited';

export interface JobFile {
  jobId: string;
  name: string;
  version: FileVersion;
  key: string;
  contentType: string;
  size: number;
  /** When the object was last written (read only; the database sets it). */
  savedAt?: Date;
}

/** Which stored object holds each output of a job (results, notes, chords, video, stems). */
export class JobFilesRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async find(jobId: string, name: string, version: FileVersion): Promise<JobFile | null> {
    const row = await this.db
      .selectFrom('job_files')
      .selectAll()
      .where('job_id', '=', jobId)
      .where('name', '=', name)
      .where('version', '=', version)
      .executeTakeFirst();
    return row
      ? {
          jobId: row.job_id,
          name: row.name,
          version: row.version as FileVersion,
          key: row.key,
          contentType: row.content_type,
          size: Number(row.size),
          savedAt: new Date(row.created_at),
        }
      : null;
  }

  /** Records (or replaces) the object behind one output of a job. */
  async upsert(file: JobFile, db: Kysely<DB> = this.db): Promise<void> {
    await db
      .insertInto('job_files')
      .values({
        job_id: file.jobId,
        name: file.name,
        version: file.version,
        key: file.key,
        content_type: file.contentType,
        size: file.size,
      })
      .onConflict((oc) =>
        oc.columns(['job_id', 'name', 'version']).doUpdateSet({
          key: file.key,
          content_type: file.contentType,
          size: file.size,
          created_at: sql`now()`,
        }),
      )
      .execute();
  }

  async names(jobId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('job_files')
      .select('name')
      .distinct()
      .where('job_id', '=', jobId)
      .execute();
    return rows.map((r) => r.name);
  }
}
