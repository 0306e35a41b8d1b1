import {
  MESSAGES,
  exportFileName,
  lessonDisplayName,
  normalizeProjectName,
  uploadConfigSchema,
  type RefingerRequest,
  type RefingerResponse,
  type ChordEvent,
  type CheckStatusResponse,
  type DownloadableFileName,
  type ExploreItem,
  type ExploreSort,
  type JobDto,
  type JobMetaResponse,
  type MyJobItem,
  type NoteEvent,
  type Paged,
  type ViewAccessResponse,
} from '@riffscribe/core';
import type { AppContext, AuthUser } from '../context.js';
import {
  AppError,
  badRequest,
  conflict,
  forbidden,
  notFound,
  paymentRequired,
  unauthorized,
  unprocessable,
} from '../errors.js';
import { loadEngine } from '../jobs/engine-api.js';
import { CreditsRepository, InsufficientCreditsError } from '../repositories/credits.repository.js';
import { EngagementRepository } from '../repositories/engagement.repository.js';
import {
  JobFilesRepository,
  type FileVersion,
  type JobFile,
} from '../repositories/job-files.repository.js';
import { JobsRepository, type JobRecord } from '../repositories/jobs.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { jobObjectKey, jobObjectPrefix } from '../storage/keys.js';
import { JobAccessPolicy } from './job-access.js';
import { editsPool } from './worker-pool.js';

export type EventsKind = 'notes' | 'chords';
type EventsOf<K extends EventsKind> = K extends 'notes' ? NoteEvent[] : ChordEvent[];

/** Every job call of spec section 7 apart from upload and processing. */
/**
 * The name a file downloads under: an exported video with tabs is named after its lesson
 * (`<lesson>-tabs.mp4`), the results file is JSON, the rest keep the spec's names.
 */
function downloadNameOf(job: JobRecord, fileName: DownloadableFileName): string {
  const lesson = () => lessonDisplayName(job.projectName, null, job.fileName);
  if (fileName === 'webm_converted.mp4') return exportFileName(lesson(), 'mp4');
  if (fileName === 'video_with_tabs.webm') return exportFileName(lesson(), 'webm');
  return fileName === 'results' ? 'results.json' : fileName;
}

export class JobsService {
  readonly jobs: JobsRepository;
  readonly files: JobFilesRepository;
  readonly engagement: EngagementRepository;
  readonly access: JobAccessPolicy;
  private readonly credits = new CreditsRepository();

  constructor(private readonly ctx: AppContext) {
    this.jobs = new JobsRepository(ctx.database.db);
    this.files = new JobFilesRepository(ctx.database.db);
    this.engagement = new EngagementRepository(ctx.database.db);
    this.access = new JobAccessPolicy(this.jobs);
  }

  async checkStatus(user: AuthUser, jobId: string): Promise<CheckStatusResponse> {
    const job = await this.access.owned(jobId, user);
    return {
      success: true,
      jobId: job.id,
      requestId: job.requestId,
      status: job.status,
      stage: job.stage,
      progress: job.progress,
      message: job.message,
      error: job.error,
    };
  }

  /**
   * check-status as a live feed (GET /api/job-status-stream): the current status at once, then
   * each change, read from the job row every `everyMs` (the worker may be another process, so the
   * row is the one source). Every read is authorised as check-status is. Ends after completed or
   * failed, when `signal` aborts, or after `maxMs`.
   */
  async *watchStatus(
    user: AuthUser,
    jobId: string,
    opts: { signal: AbortSignal; everyMs: number; maxMs: number },
  ): AsyncGenerator<CheckStatusResponse> {
    const deadline = Date.now() + opts.maxMs;
    let last = '';
    for (;;) {
      const status = await this.checkStatus(user, jobId);
      const key = JSON.stringify(status);
      if (key !== last) {
        last = key;
        yield status;
      }
      if (status.status === 'completed' || status.status === 'failed') return;
      if (opts.signal.aborted || Date.now() >= deadline) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          opts.signal.removeEventListener('abort', done);
          resolve();
        };
        const timer = setTimeout(done, opts.everyMs);
        opts.signal.addEventListener('abort', done, { once: true });
      });
    }
  }

  async getJob(user: AuthUser, jobId: string): Promise<JobDto> {
    return this.toDto(await this.access.owned(jobId, user));
  }

  async patchJob(
    user: AuthUser,
    jobId: string,
    patch: { sharedToExplore?: boolean; sharedToPersonal?: boolean; projectName?: string | null },
  ): Promise<JobDto> {
    const job = await this.access.owned(jobId, user);
    if (patch.sharedToPersonal !== undefined && user.role === 'user') {
      throw forbidden('Share to Personal is a Pro feature. Request an upgrade to use it.');
    }
    if (
      (patch.sharedToExplore === true || patch.sharedToPersonal === true) &&
      job.status !== 'completed'
    ) {
      throw conflict('Only a finished lesson can be shared.');
    }
    await this.jobs.update(job.id, {
      ...(patch.sharedToExplore !== undefined ? { sharedToExplore: patch.sharedToExplore } : {}),
      ...(patch.sharedToPersonal !== undefined ? { sharedToPersonal: patch.sharedToPersonal } : {}),
      ...('projectName' in patch ? { projectName: normalizeProjectName(patch.projectName) } : {}),
    });
    return this.getJob(user, jobId);
  }

  /**
   * Deletes the owner's lesson: its row (files, ratings, views, loads and exports go with it
   * in the database) and every stored object of it (the upload, results, stems, thumbnail,
   * exports). A lesson still being made cannot be deleted (its worker holds it); spent credits
   * are not returned. Viewers lose it too, shared links answer 404 from then on.
   */
  async deleteJob(user: AuthUser, jobId: string): Promise<void> {
    const job = await this.access.owned(jobId, user);
    if (job.status === 'queued' || job.status === 'processing') {
      throw conflict('This lesson is still being made. Delete it once it is done.');
    }
    const db = this.ctx.database.db;
    const keys = new Set<string>([job.uploadKey]);
    if (job.thumbnailKey) keys.add(job.thumbnailKey);
    const files = await db
      .selectFrom('job_files')
      .select('key')
      .where('job_id', '=', job.id)
      .execute();
    for (const f of files) keys.add(f.key);
    const conversion = await db
      .selectFrom('conversions')
      .select('upload_key')
      .where('job_id', '=', job.id)
      .executeTakeFirst();
    if (conversion) keys.add(conversion.upload_key);
    await db.transaction().execute(async (trx) => {
      await trx.deleteFrom('uploads').where('key', '=', job.uploadKey).execute();
      await trx.deleteFrom('jobs').where('id', '=', job.id).execute();
    });
    // Objects after the rows: a failure here leaves files nobody can reach, never a lesson
    // without its files. Whatever else sits under the job's folder goes too.
    for (const listed of await this.ctx.store.list(jobObjectPrefix(job.id)).catch(() => [])) {
      keys.add(listed.key);
    }
    await Promise.all([...keys].map((key) => this.ctx.store.delete(key).catch(() => undefined)));
  }

  async canEdit(user: AuthUser | null, jobId: string): Promise<boolean> {
    const { isOwner } = await this.access.visible(jobId, user);
    return isOwner;
  }

  async meta(user: AuthUser | null, jobId: string): Promise<JobMetaResponse> {
    const { job } = await this.access.visible(jobId, user);
    const summary = await this.engagement.ratingSummary(job.id);
    return {
      sharedToExplore: job.sharedToExplore,
      sharedToPersonal: job.sharedToPersonal,
      ownerUid: job.ownerUid,
      ownerUsername: job.ownerUsername,
      stars: summary.average,
      starsCount: summary.count,
      projectName: job.projectName,
      fileName: job.fileName,
    };
  }

  async myStars(user: AuthUser, jobId: string): Promise<number | null> {
    const { job } = await this.access.visible(jobId, user);
    return this.engagement.rating(job.id, user.uid);
  }

  async rate(user: AuthUser, jobId: string, stars: number) {
    const { job, isOwner } = await this.access.visible(jobId, user);
    if (isOwner) throw forbidden('You cannot rate your own lesson.');
    await this.engagement.rate(job.id, user.uid, stars);
    const summary = await this.engagement.ratingSummary(job.id);
    return { average: summary.average ?? stars, count: summary.count };
  }

  async stats(user: AuthUser | null, jobId: string) {
    const { job } = await this.access.visible(jobId, user);
    return this.engagement.loadStats(job.id);
  }

  async recordLoad(user: AuthUser, jobId: string): Promise<{ counted: boolean }> {
    const { job } = await this.access.visible(jobId, user);
    return { counted: await this.engagement.recordLoad(job.id, user.sid, user.uid) };
  }

  async viewAccess(user: AuthUser | null, jobId: string): Promise<ViewAccessResponse> {
    const { job, isOwner } = await this.access.visible(jobId, user);
    if (!user) {
      return {
        projectName: job.projectName,
        fileName: job.fileName,
        status: 'signed_out',
        remaining: 0,
      };
    }
    const remaining = (await this.credits.balances(this.ctx.database.db, user.uid)).view;
    const status = isOwner
      ? 'owner'
      : (await this.engagement.hasViewed(job.id, user.uid))
        ? 'granted'
        : 'needs_credit';
    return { projectName: job.projectName, fileName: job.fileName, status, remaining };
  }

  /**
   * Makes sure a non-owner may see the lesson's content: the first time, one view credit is spent
   * (once, whatever the number of concurrent requests) and the view recorded. 402 when none left.
   */
  private async ensureViewGranted(user: AuthUser, job: JobRecord): Promise<void> {
    if (await this.engagement.hasViewed(job.id, user.uid)) return;
    try {
      await this.ctx.database.db.transaction().execute(async (trx) => {
        await this.credits.spend(trx, {
          userId: user.uid,
          kind: 'view',
          amount: 1,
          reason: 'job_view',
          ref: job.id,
        });
        await this.engagement.recordView(trx, job.id, user.uid);
      });
    } catch (error) {
      if (error instanceof InsufficientCreditsError) throw paymentRequired(MESSAGES.noViewCredits);
      throw error;
    }
  }

  /**
   * A lesson's notes or chords. A non-owner's first read spends their view credit; a signed-out
   * visitor's read of a shared lesson costs nothing: the link is the owner's invitation, and
   * there is no account to charge (reads are rate-limited per address).
   */
  async events<K extends EventsKind>(
    user: AuthUser | null,
    jobId: string,
    kind: K,
    editVersion: boolean,
  ): Promise<{ events: EventsOf<K>; version: FileVersion }> {
    const { job } = await this.readable(user, jobId);
    return this.eventsOf<K>(await this.eventsFile(job.id, kind, editVersion));
  }

  /**
   * The lesson, when `user` may read its content now: visible to them, ready, and (a non-owner's
   * first read) their view credit spent.
   */
  async readable(
    user: AuthUser | null,
    jobId: string,
  ): Promise<{ job: JobRecord; isOwner: boolean }> {
    const found = await this.access.visible(jobId, user);
    if (found.job.status !== 'completed') throw conflict('This lesson is not ready yet.');
    if (!found.isOwner && user) await this.ensureViewGranted(user, found.job);
    return found;
  }

  /** The stored notes or chords file a read uses: the edited one where asked and saved. */
  async eventsFile(jobId: string, kind: EventsKind, editVersion: boolean): Promise<JobFile | null> {
    const edited = editVersion ? await this.files.find(jobId, kind, 'edited') : null;
    return edited ?? (await this.files.find(jobId, kind, 'original'));
  }

  /** The events in a stored notes or chords file (none when there is no file). */
  async eventsOf<K extends EventsKind>(
    file: JobFile | null,
  ): Promise<{ events: EventsOf<K>; version: FileVersion }> {
    if (!file) return { events: [] as EventsOf<K>, version: 'original' };
    const parsed: unknown = JSON.parse((await this.ctx.store.getBuffer(file.key)).toString('utf8'));
    return { events: (Array.isArray(parsed) ? parsed : []) as EventsOf<K>, version: file.version };
  }

  /**
   * Stores the owner's edited notes or chords, sorted by time, as the lesson's edited version.
   * `body` is the request's JSON as it came: parsed, checked (the route's schema, control
   * characters, spec section 5 against the video's length; the first event refused says which
   * and why) and sorted on the edits pool's thread, so that a 50,000-note save does not hold the
   * event loop.
   */
  async saveEdits(
    user: AuthUser,
    jobId: string,
    kind: EventsKind,
    body: Uint8Array,
  ): Promise<{ saved: number }> {
    const job = await this.access.owned(jobId, user);
    if (job.status !== 'completed') throw conflict('This lesson is not ready yet.');
    const checked = await editsPool.answer({
      kind: 'edits',
      events: kind,
      body,
      duration: job.duration,
    });
    await this.saveEditedBytes(job.id, kind, Buffer.from(checked.bytes));
    return { saved: checked.count };
  }

  /**
   * Stores `value` as the edited version of the job's output file `name` (`name.json`), beside
   * the original: the notes, the chords, the beats (ExportService.saveBeats).
   */
  async saveEditedJson(jobId: string, name: string, value: unknown): Promise<void> {
    await this.saveEditedBytes(jobId, name, Buffer.from(JSON.stringify(value)));
  }

  private async saveEditedBytes(jobId: string, name: string, body: Buffer): Promise<void> {
    const key = jobObjectKey(jobId, `${name}.json`, 'edited');
    await this.ctx.store.put(key, body, 'application/json');
    await this.files.upsert({
      jobId,
      name,
      version: 'edited',
      key,
      contentType: 'application/json',
      size: body.length,
    });
  }

  /**
   * Re-fingers a selection (POST /api/refinger): the notes given (the editor's, possibly unsaved)
   * or else the lesson's edited version (the original when none was saved), re-solved by the
   * engine's fingering model under the constraint, in this process. Editors (the owner) only;
   * nothing is saved. 400 for indices outside the notes, 422 when no fingering meets the
   * constraint.
   */
  async refinger(
    user: AuthUser,
    jobId: string,
    body: Omit<RefingerRequest, 'events'> & { events?: NoteEvent[] | undefined },
  ): Promise<RefingerResponse> {
    const job = await this.access.owned(jobId, user);
    if (job.status !== 'completed') throw conflict('This lesson is not ready yet.');
    const notes = body.events ?? (await this.events(user, jobId, 'notes', true)).events;
    // Indices outside the notes and a selection spread too wide are the engine's to refuse
    // (RefingerError 'bad_selection', a 400 below).
    const parsed = uploadConfigSchema.safeParse(job.config);
    const config = parsed.success ? parsed.data : uploadConfigSchema.parse({});
    const engine = await loadEngine();
    try {
      return await engine.refingerSelection(notes, body.selection, body.constraint, config);
    } catch (error) {
      if (error instanceof Error && error.name === 'RefingerError' && 'code' in error) {
        throw error.code === 'no_fingering'
          ? unprocessable(error.message)
          : badRequest(error.message);
      }
      throw error;
    }
  }

  async downloadUrl(user: AuthUser | null, jobId: string, fileName: DownloadableFileName) {
    const { job, isOwner } = await this.access.visible(jobId, user);
    if (!user) {
      // The view-only player needs the browser video and the lesson's settings, nothing more.
      if (!PUBLIC_FILES.has(fileName)) throw unauthorized();
    } else if (!isOwner && !(await this.engagement.hasViewed(job.id, user.uid))) {
      throw paymentRequired(MESSAGES.viewCreditsRequired);
    }
    const file = await this.files.find(job.id, fileName, 'original');
    if (!file) throw notFound('This file is not available for this lesson.');
    return this.ctx.store.createDownloadUrl(file.key, {
      downloadName: downloadNameOf(job, fileName),
    });
  }

  /**
   * A personal page (/u/<handle>): the lessons its owner shared to Personal, for anyone with the
   * link, opened with view credits as from Explore. An unknown handle is not found.
   */
  async personal(
    handle: string,
    sort: ExploreSort,
    page: number,
    pageSize: number,
  ): Promise<Paged<ExploreItem> & { handle: string }> {
    const owner = await new UsersRepository(this.ctx.database.db).findByHandle(handle);
    if (!owner) throw notFound('No such personal page.');
    return { ...(await this.explore(sort, page, pageSize, owner.uid)), handle: owner.handle };
  }

  async explore(
    sort: ExploreSort,
    page: number,
    pageSize: number,
    personalOf?: string,
  ): Promise<Paged<ExploreItem>> {
    const { rows, total } = await this.jobs.listExplore(sort, page, pageSize, personalOf);
    const items = await Promise.all(
      rows.map(async (r) => ({
        jobId: r.id,
        projectName: r.projectName,
        fileName: r.fileName,
        ownerUsername: r.ownerUsername,
        stars: r.stars,
        starsCount: r.starsCount,
        loadsCount: r.loadsCount,
        thumbnailUrl: await this.thumbnailUrl(r),
        createdAt: r.createdAt.toISOString(),
        duration: r.duration,
      })),
    );
    return { items, page, pageSize, total };
  }

  async myJobs(user: AuthUser, page: number, pageSize: number): Promise<Paged<MyJobItem>> {
    const { rows, total } = await this.jobs.listByOwner(user.uid, page, pageSize);
    const items = await Promise.all(
      rows.map(async (r) => ({
        jobId: r.id,
        requestId: r.requestId,
        projectName: r.projectName,
        fileName: r.fileName,
        status: r.status,
        stage: r.stage,
        progress: r.progress,
        sharedToExplore: r.sharedToExplore,
        sharedToPersonal: r.sharedToPersonal,
        thumbnailUrl: await this.thumbnailUrl(r),
        createdAt: r.createdAt.toISOString(),
        error: r.error,
      })),
    );
    return { items, page, pageSize, total };
  }

  /** Stores the JPEG thumbnail the browser made for the owner's job with this request id. */
  async saveThumbnail(user: AuthUser, requestId: string, jpeg: Buffer): Promise<void> {
    const found = await this.jobs.findByRequestId(requestId);
    if (found?.ownerUid !== user.uid) throw notFound(JOB_REQUEST_NOT_FOUND);
    if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8 || jpeg[2] !== 0xff) {
      throw badRequest('The thumbnail must be a JPEG image.');
    }
    const key = jobObjectKey(found.id, 'thumbnail.jpg');
    await this.ctx.store.put(key, jpeg, 'image/jpeg');
    await this.jobs.update(found.id, { thumbnailKey: key });
    // The owner's picture replaces one the worker made; that one is no longer needed.
    if (found.thumbnailKey !== null && found.thumbnailKey !== key) {
      await this.ctx.store.delete(found.thumbnailKey);
    }
  }

  /**
   * What a link preview may show of a lesson (its page's Open Graph tags): the name, the owner and
   * whether there is a picture, for shared lessons only; null for private or missing ones, so a
   * preview never tells them apart.
   */
  async preview(
    jobId: string,
  ): Promise<{ name: string; ownerUsername: string | null; hasThumbnail: boolean } | null> {
    try {
      const { job } = await this.access.visible(jobId, null);
      return {
        name: lessonDisplayName(job.projectName, null, job.fileName),
        ownerUsername: job.ownerUsername,
        hasThumbnail: job.thumbnailKey !== null,
      };
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return null;
      throw error;
    }
  }

  /** A shared lesson's thumbnail JPEG (404 for private lessons and lessons without one). */
  async publicThumbnail(jobId: string): Promise<Buffer> {
    const { job } = await this.access.visible(jobId, null);
    if (!job.thumbnailKey) throw notFound('This lesson has no picture.');
    return this.ctx.store.getBuffer(job.thumbnailKey);
  }

  private thumbnailUrl(job: JobRecord): Promise<string | null> {
    return job.thumbnailKey
      ? this.ctx.store.createDownloadUrl(job.thumbnailKey)
      : Promise.resolve(null);
  }

  private async toDto(job: JobRecord): Promise<JobDto> {
    const summary = await this.engagement.ratingSummary(job.id);
    return {
      id: job.id,
      jobId: job.id,
      uid: job.ownerUid,
      ownerUid: job.ownerUid,
      ownerUsername: job.ownerUsername,
      projectName: job.projectName,
      fileName: job.fileName,
      sharedToExplore: job.sharedToExplore,
      sharedToPersonal: job.sharedToPersonal,
      stars: summary.average,
      starsCount: summary.count,
      requestId: job.requestId,
      status: job.status,
      stage: job.stage,
      progress: job.progress,
      message: job.message,
      error: job.error,
      createdAt: job.createdAt.toISOString(),
      duration: job.duration,
    };
  }
}

/** What a signed-out visitor may download from a shared lesson: what the view-only player reads. */
const PUBLIC_FILES: ReadonlySet<DownloadableFileName> = new Set(['video.mp4', 'results']);

const JOB_REQUEST_NOT_FOUND = 'No job was found for this request.';
