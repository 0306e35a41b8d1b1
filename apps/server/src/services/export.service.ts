import {
  CAPO_MAX,
  CAPO_MIN,
  MAX_BEAT_SECONDS,
  beatGridSchema,
  lessonDisplayName,
  defaultGrid,
  MAX_NOTES_PER_LESSON,
  TOO_MANY_NOTES,
  uploadConfigSchema,
  type BeatGrid,
  type BeatsResponse,
  type ChordEvent,
  type ExportFormat,
  type NotationMeta,
} from '@riffscribe/core';
import { z } from 'zod';
import type { AppContext, AuthUser } from '../context.js';
import { badRequest, conflict, payloadTooLarge, serviceUnavailable } from '../errors.js';
import { ExportFailed, exportPool } from './export-pool.js';
import type { FileVersion } from '../repositories/job-files.repository.js';
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
  ) {}

  async export(
    user: AuthUser | null,
    jobId: string,
    format: ExportFormat,
    version: FileVersion | undefined,
  ): Promise<ExportedFile> {
    const spec = EXPORT_FORMAT_TABLE[format];
    const { job } = await this.jobs.access.visible(jobId, user);
    // The player's choice when none is given: the edited version where one was saved.
    const edited = version !== 'original';
    const notes = await this.jobs.events(user, job.id, 'notes', edited);
    const chords = await this.jobs.events(user, job.id, 'chords', edited);
    const results = resultsSchema.parse(await this.readJson(job.id, 'results'));
    const meta = exportMeta(job, results, chords.events);
    if (notes.events.length > MAX_NOTES_PER_LESSON) throw payloadTooLarge(TOO_MANY_NOTES);
    const { grid } = await this.gridOf(job, results, notes.events, edited);
    // Off the request thread: the notes placed in bars and the file written by the export pool.
    let out: Uint8Array;
    try {
      out = await exportPool.run({ format, notes: notes.events, grid, meta });
    } catch (error) {
      if (error instanceof ExportFailed) throw serviceUnavailable(error.message);
      throw error;
    }
    return {
      body: Buffer.from(out.buffer, out.byteOffset, out.byteLength),
      contentType: spec.contentType,
      fileName: `${meta.title}${spec.extension}`,
      version: notes.version,
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
    const corrected = edited ? await this.beatGrid(job.id, 'edited') : null;
    if (corrected) return { grid: corrected, source: 'edited' };
    const stored = await this.beatGrid(job.id, 'original');
    if (stored) return { grid: stored, source: 'engine' };
    return {
      grid: defaultGrid(duration(job, results, notes)),
      source: 'default',
    };
  }

  /** The job's stored beat grid, or null when there is none or it does not validate. */
  private async beatGrid(jobId: string, version: FileVersion): Promise<BeatGrid | null> {
    const parsed = beatGridSchema.safeParse(await this.readJson(jobId, 'beats', version));
    return parsed.success ? parsed.data : null;
  }

  /** An output file of the job as JSON, or null when absent or unreadable. */
  private async readJson(
    jobId: string,
    name: string,
    version: FileVersion = 'original',
  ): Promise<unknown> {
    const file = await this.jobs.files.find(jobId, name, version);
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

/** Title, tuning and capo from the results file, else the upload config; its guitar type. */
function exportMeta(
  job: JobRecord,
  results: ResultsFields,
  chords: readonly ChordEvent[],
): NotationMeta {
  const parsed = uploadConfigSchema.safeParse(job.config);
  const config = parsed.success ? parsed.data : uploadConfigSchema.parse({});
  return {
    title: lessonDisplayName(job.projectName, null, job.fileName),
    tuning: results.tuning ?? [...config.tuning],
    capo: results.capo ?? config.capo,
    guitar: config.guitar_type,
    chords,
    ...(results.musical_key ? { key: results.musical_key } : {}),
  };
}

/** Seconds the default grid must cover: the results' duration, the job's, or the last note's end. */
function duration(
  job: JobRecord,
  results: ResultsFields,
  notes: readonly { end_time: number }[],
): number {
  if (results.duration !== undefined) return results.duration;
  if (job.duration !== null && job.duration > 0) return job.duration;
  return Math.max(1, ...notes.map((n) => n.end_time));
}
