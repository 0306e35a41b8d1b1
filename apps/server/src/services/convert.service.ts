import { randomUUID } from 'node:crypto';
import {
  isPrivileged,
  type ConvertStartResponse,
  type ConvertStatusResponse,
  type ConvertUploadUrlResponse,
  type ExportOverlay,
} from '@riffscribe/core';
import type { AppContext, AuthUser } from '../context.js';
import { badRequest, conflict, forbidden, notFound, payloadTooLarge } from '../errors.js';
import { conversionQueued, recordingByteLimit } from '../jobs/conversion-runner.js';
import { ConversionsRepository } from '../repositories/conversions.repository.js';
import type { JobRecord } from '../repositories/jobs.repository.js';
import { JobsRepository } from '../repositories/jobs.repository.js';
import { jobObjectKey } from '../storage/keys.js';
import { JobAccessPolicy } from './job-access.js';

export const PRO_EXPORT_MESSAGE =
  'Export video with tabs is a Pro feature. Request an upgrade to use it.';
export const UPLOAD_FIRST = 'Upload the recording first.';
export const NO_EXPORT = 'No video export of this lesson was started.';

/** The one content type accepted: WebM, with or without parameters (`;codecs=vp8,opus`). */
export function isWebmType(contentType: string): boolean {
  return /^video\/webm\s*(;.*)?$/i.test(contentType.trim());
}

/**
 * MP4 export (spec section 7, /api/convert/*): the browser records the lesson with its tab
 * overlay as WebM, uploads it through a signed link, starts the conversion and polls its status;
 * the ConversionRunner (jobs/conversion-runner.ts) converts it to the job's `webm_converted.mp4`.
 * The conversion's id is the job's id: one export of a lesson at a time, a new upload link
 * replacing the earlier one.
 */
export class ConvertService {
  private readonly conversions: ConversionsRepository;
  private readonly access: JobAccessPolicy;

  constructor(private readonly ctx: AppContext) {
    this.conversions = new ConversionsRepository(ctx.database.db);
    this.access = new JobAccessPolicy(new JobsRepository(ctx.database.db));
  }

  /**
   * The owner of a finished lesson, with the Pro feature (pilot or admin): others get the usual
   * 404/403 of the job, a free owner 403 with the upgrade sentence.
   */
  private async exportable(user: AuthUser, jobId: string): Promise<JobRecord> {
    const job = await this.access.owned(jobId, user);
    if (!isPrivileged(user.role)) throw forbidden(PRO_EXPORT_MESSAGE);
    if (job.status !== 'completed') throw conflict('This lesson is not ready yet.');
    return job;
  }

  async uploadUrl(
    user: AuthUser,
    body: { job_id: string; filename: string; content_type: string },
  ): Promise<ConvertUploadUrlResponse> {
    const job = await this.exportable(user, body.job_id);
    if (!isWebmType(body.content_type)) {
      throw badRequest('The recording must be a WebM video (video/webm).');
    }
    // A fresh key per link: a replaced conversion's runner can never touch the new upload.
    const key = jobObjectKey(job.id, `recording-${randomUUID()}.webm`);
    const maxBytes = recordingByteLimit(job.duration);
    const earlier = await this.conversions.replace({
      jobId: job.id,
      userId: user.uid,
      uploadKey: key,
      uploadMaxBytes: maxBytes,
    });
    if (earlier) await this.ctx.store.delete(earlier).catch(() => undefined);
    // Signed for `video/webm` itself: the browser sends the headers given here.
    const signed = await this.ctx.store.createUploadUrl(key, {
      contentType: 'video/webm',
      maxBytes,
    });
    return { upload_url: signed.url, method: 'PUT', headers: signed.headers };
  }

  /**
   * Queues the uploaded recording's conversion; with `overlay`, the upload is the tab overlay
   * alone and the runner puts it over the lesson's video (MP4 or WebM).
   */
  async start(
    user: AuthUser,
    jobId: string,
    overlay: ExportOverlay | null = null,
  ): Promise<ConvertStartResponse> {
    const job = await this.exportable(user, jobId);
    const conversion = await this.conversions.find(job.id);
    if (!conversion) throw conflict(UPLOAD_FIRST);
    // Started already: the same conversion (a repeated click, a retried request).
    if (conversion.status === 'queued' || conversion.status === 'processing') {
      return { id: job.id };
    }
    // Finished ones deleted their upload: a new export needs a new upload link.
    if (conversion.status !== 'uploading') throw conflict(UPLOAD_FIRST);
    const stored = await this.ctx.store.head(conversion.uploadKey);
    if (!stored || stored.size === 0) throw conflict(UPLOAD_FIRST);
    if (stored.size > conversion.uploadMaxBytes) {
      // An S3 link cannot bound the size of a PUT: refused here, and not kept.
      await this.conversions.refuse(job.id, conversion.uploadKey, 'The recording is too large.');
      await this.ctx.store.delete(conversion.uploadKey);
      throw payloadTooLarge('The recording is too large.');
    }
    if (!(await this.conversions.enqueue(job.id, conversion.uploadKey, overlay))) {
      // Replaced by a new upload link meanwhile, or started by a parallel call.
      const now = await this.conversions.find(job.id);
      if (now?.status !== 'queued' && now?.status !== 'processing') throw conflict(UPLOAD_FIRST);
    }
    conversionQueued.emit('queued');
    return { id: job.id };
  }

  async status(user: AuthUser, id: string): Promise<ConvertStatusResponse> {
    const job = await this.access.owned(id, user);
    const conversion = await this.conversions.find(job.id);
    if (!conversion) throw notFound(NO_EXPORT);
    return {
      status: conversion.status,
      progress: conversion.progress,
      error: conversion.error,
    };
  }
}
