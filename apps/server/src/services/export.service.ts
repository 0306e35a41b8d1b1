import { createHash } from 'node:crypto';
import {
  CAPO_MAX,
  CAPO_MIN,
  MAX_BEAT_SECONDS,
  beatGridSchema,
  lessonDisplayName,
  defaultGrid,
  uploadConfigSchema,
  type BeatGrid,
  type BeatsResponse,
  type ExportFormat,
  type NotationMeta,
} from '@riffscribe/core';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../context.js';
import { badRequest, conflict } from '../errors.js';
import { ExportCache } from './export-cache.js';
import { exportPool } from './worker-pool.js';
import type { FileVersion, JobFile } from '../repositories/job-files.repository.js';
import type { JobRecord } from '../repositories/jobs.repository.js';
import { EXPORT_FORMAT_TABLE } from './export-formats.js';
import type { JobsService } from './jobs.service.js';

/** A lesson exported as a file: its bytes, type, download name and which version it holds. */
export interface ExportedFile {
  body: Buffer;
  contentType: string;
  fileName: string;
  version: FileVersion;
}

/**
 * GET /api/export: a lesson's notes (and chords) as a file through the format table. Reads are
 * authorised exactly as the notes are (JobsService.events): the owner, anyone signed in for a
 * shared lesson (a non-owner's first read spends their view credit), a signed-out visitor for a
 * shared lesson; a private lesson is "not found" to all but its owner.
 */
export class ExportService {
  constructor(
    private readonly ctx: AppContext,
    private readonly jobs: JobsService,
    /** Exported files per lesson version (the process's own unless a test gives one). */
    readonly cache: ExportCache = new ExportCache(),
  ) {}

  async export(
    user: AuthUser | null,
    jobId: string,
    format: ExportFormat,
    version: FileVersion | undefined,
  ): Promise<ExportedFile> {
    const spec = EXPORT_FORMAT_TABLE[format];
    const { job } = await this.jobs.readable(user, jobId);
    // The player's choice when none is given: the edited version where one was saved.
    const edited = version !== 'original';
    const [notesFile, chordsFile, resultsFile, editedBeats, engineBeats] = await Promise.all([
      this.jobs.eventsFile(job.id, 'notes', edited),
      this.jobs.eventsFile(job.id, 'chords', edited),
      this.jobs.files.find(job.id, 'results', 'original'),
      edited ? this.jobs.files.find(job.id, 'beats', 'edited') : null,
      this.jobs.files.find(job.id, 'beats', 'original'),
    ]);
    const title = lessonDisplayName(job.projectName, null, job.fileName);
    const key = fingerprint(format, job, [
      notesFile,
      chordsFile,
      resultsFile,
      editedBeats,
      engineBeats,
    ]);
    const out = await this.cache.get(key, async () => {
      // Files read here (the rows found above), parsed and written off the request thread.
      const [notes, chords, results, corrected, engine] = await Promise.all([
        this.bytesOf(notesFile),
        this.bytesOf(chordsFile),
        this.jsonOf(resultsFile).then((json) => resultsSchema.parse(json)),
        this.gridIn(editedBeats),
        this.gridIn(engineBeats),
      ]);
      const task = {
        kind: 'export' as const,
        format,
        notes,
        chords,
        grid: corrected ?? engine,
        gridSeconds: knownDuration(job, results),
        meta: exportMeta(job, results),
      };
      return (await exportPool.answer(task)).bytes;
    });
    return {
      body: Buffer.from(out.buffer, out.byteOffset, out.byteLength),
      contentType: spec.contentType,
      fileName: `${title}${spec.extension}`,
      version: notesFile?.version ?? 'original',
    };
  }

  /**
   * GET /api/beats: the lesson's beats and bars as the notation view and the exports use them,
   * for the same callers as the notes: the engine's grid, or (`source: 'default'`) a steady
   * 4/4 at 120 over the lesson when the job has none.
   */
  async beats(user: AuthUser | null, jobId: string, edited = false): Promise<BeatsResponse> {
    const { job } = await this.jobs.access.visible(jobId, user);
    const notes = await this.jobs.events(user, job.id, 'notes', edited);
    const results = resultsSchema.parse(await this.readJson(job.id, 'results'));
    return this.gridOf(job, results, notes.events, edited);
  }

  /**
   * POST /api/edit-beats: the owner's corrected grid, stored as the edited version (the player
   * saves it with the edited notes). 409 before the lesson is ready; 400 for beats outside the
   * video.
   */
  async saveBeats(user: AuthUser, jobId: string, grid: BeatGrid): Promise<{ saved: number }> {
    const job = await this.jobs.access.owned(jobId, user);
    if (job.status !== 'completed') throw conflict('This lesson is not ready yet.');
    const last = grid.beats.at(-1) ?? 0;
    if (job.duration !== null && job.duration > 0 && last > job.duration + MAX_BEAT_SECONDS)
      throw badRequest(
        `The beats cannot be saved: the last beat (at ${last.toFixed(2)} s) is more than ` +
          `${String(MAX_BEAT_SECONDS)} s past the end of the video (${job.duration.toFixed(2)} s).`,
      );
    await this.jobs.saveEditedJson(job.id, 'beats', grid);
    return { saved: grid.beats.length };
  }

  private async gridOf(
    job: JobRecord,
    results: ResultsFields,
    notes: readonly { end_time: number }[],
    edited: boolean,
  ): Promise<BeatsResponse> {
    return (
      (await this.storedGrid(job.id, edited)) ?? {
        grid: defaultGrid(duration(job, results, notes)),
        source: 'default',
      }
    );
  }

  /** The owner's corrected grid (where asked and saved), else the engine's, else null. */
  private async storedGrid(jobId: string, edited: boolean): Promise<BeatsResponse | null> {
    const corrected = edited ? await this.beatGrid(jobId, 'edited') : null;
    if (corrected) return { grid: corrected, source: 'edited' };
    const stored = await this.beatGrid(jobId, 'original');
    return stored ? { grid: stored, source: 'engine' } : null;
  }

  /** The beat grid in a stored beats file, or null when none is there or it does not validate. */
  private async gridIn(file: JobFile | null): Promise<BeatGrid | null> {
    const parsed = beatGridSchema.safeParse(await this.jsonOf(file));
    return parsed.success ? parsed.data : null;
  }

  /** A stored file's bytes, or null when there is none. */
  private async bytesOf(file: JobFile | null): Promise<Uint8Array | null> {
    return file ? new Uint8Array(await this.ctx.store.getBuffer(file.key)) : null;
  }

  /** The job's stored beat grid, or null when there is none or it does not validate. */
  private async beatGrid(jobId: string, version: FileVersion): Promise<BeatGrid | null> {
    return this.gridIn(await this.jobs.files.find(jobId, 'beats', version));
  }

  /** An output file of the job as JSON, or null when absent or unreadable. */
  private async readJson(
    jobId: string,
    name: string,
    version: FileVersion = 'original',
  ): Promise<unknown> {
    return this.jsonOf(await this.jobs.files.find(jobId, name, version));
  }

  /** A stored file as JSON, or null when there is none or it does not parse. */
  private async jsonOf(file: JobFile | null): Promise<unknown> {
    if (!file) return null;
    try {
      return JSON.parse((await this.ctx.store.getBuffer(file.key)).toString('utf8')) as unknown;
    } catch {
      return null;
    }
  }
}

/**
 * The fields of the results file an export uses, each dropped when it is missing or malformed:
 * the capo and tuning the engine wrote the frets against, the length of the audio and the key.
 */
const resultsSchema = z
  .object({
    capo: z.number().int().min(CAPO_MIN).max(CAPO_MAX).optional().catch(undefined),
    tuning: z.array(z.number().int().min(0).max(127)).length(6).optional().catch(undefined),
    duration: z.number().positive().optional().catch(undefined),
    musical_key: z.string().max(40).optional().catch(undefined),
  })
  .catch({});
type ResultsFields = z.infer<typeof resultsSchema>;

/**
 * Title, tuning and capo from the results file, else the upload config; its guitar type (the
 * chords come from their file on the export pool's thread).
 */
function exportMeta(job: JobRecord, results: ResultsFields): Omit<NotationMeta, 'chords'> {
  const parsed = uploadConfigSchema.safeParse(job.config);
  const config = parsed.success ? parsed.data : uploadConfigSchema.parse({});
  return {
    title: lessonDisplayName(job.projectName, null, job.fileName),
    tuning: results.tuning ?? [...config.tuning],
    capo: results.capo ?? config.capo,
    guitar: config.guitar_type,
    ...(results.musical_key ? { key: results.musical_key } : {}),
  };
}

/** Seconds the default grid must cover: the results' duration, the job's, or the last note's end. */
function duration(
  job: JobRecord,
  results: ResultsFields,
  notes: readonly { end_time: number }[],
): number {
  return knownDuration(job, results) ?? notes.reduce((end, n) => Math.max(end, n.end_time), 1);
}

/** The lesson's length from its results or its job, when either knows it. */
function knownDuration(job: JobRecord, results: ResultsFields): number | null {
  if (results.duration !== undefined) return results.duration;
  if (job.duration !== null && job.duration > 0) return job.duration;
  return null;
}

/**
 * What one export is made from, as a cache key: the format, the stored files it reads (each
 * object's key, size and when it was written; a save rewrites the row) and the lesson's fields
 * the file carries (name, set-up, length).
 */
function fingerprint(
  format: ExportFormat,
  job: JobRecord,
  files: readonly (JobFile | null)[],
): string {
  const parts = [
    format,
    job.id,
    job.projectName,
    job.fileName,
    job.duration,
    job.config,
    files.map((f) => (f ? [f.name, f.version, f.key, f.size, f.savedAt?.getTime()] : null)),
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}
