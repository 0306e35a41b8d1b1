import { randomUUID } from 'node:crypto';
import {
  MAX_UPLOAD_BYTES,
  MESSAGES,
  formatMegabytes,
  isPrivileged,
  type ProcessVideoResponse,
  type SignedUploadResponse,
  type UploadConfig,
} from '@riffscribe/core';
import type { AppContext, AuthUser } from '../context.js';
import { badRequest, conflict, notFound, paymentRequired, payloadTooLarge } from '../errors.js';
import { CreditsRepository, InsufficientCreditsError } from '../repositories/credits.repository.js';
import { JobsRepository } from '../repositories/jobs.repository.js';
import { UploadsRepository } from '../repositories/uploads.repository.js';
import { MediaRefusal, verifyStoredUpload } from '../jobs/upload-verification.js';
import { newUploadKey } from '../storage/keys.js';

/** A browser video type: video/*, never audio or anything else (spec section 5). */
export function isVideoType(fileType: string): boolean {
  return /^video\/[a-z0-9.+-]+$/i.test(fileType.trim());
}

/** The first half of the submit sequence: a signed upload link, then the process call. */
/** The answer to an upload link asked without the file's size where the storage needs it. */
export const UPLOAD_SIZE_NEEDED =
  "Send the file's size (fileSize, in bytes) to get an upload link.";

export class UploadService {
  private readonly uploads: UploadsRepository;
  private readonly jobs: JobsRepository;
  private readonly credits = new CreditsRepository();

  constructor(private readonly ctx: AppContext) {
    this.uploads = new UploadsRepository(ctx.database.db);
    this.jobs = new JobsRepository(ctx.database.db);
  }

  /**
   * A signed link for one upload, only for a caller who could submit it: a video type, within
   * the role's size limit, with a creator credit to spend (402 with the spec's sentence).
   */
  async signedUploadUrl(
    user: AuthUser,
    request: { fileName: string; fileType: string; fileSize?: number | undefined },
  ): Promise<SignedUploadResponse> {
    if (!isVideoType(request.fileType)) throw badRequest(MESSAGES.invalidFileType);
    const limited = !isPrivileged(user.role);
    // A presigned S3 PUT cannot bound its body: the size is signed into the link instead
    // (Content-Length, which S3 checks), so S3 links need it (issue 38 row 4). The local store
    // counts the bytes itself.
    if (
      this.ctx.store.driver === 's3' &&
      !(request.fileSize !== undefined && request.fileSize > 0)
    ) {
      throw badRequest(UPLOAD_SIZE_NEEDED);
    }
    if (limited && request.fileSize !== undefined && request.fileSize > MAX_UPLOAD_BYTES) {
      throw payloadTooLarge(MESSAGES.fileTooLarge(formatMegabytes(request.fileSize)));
    }
    // Room in storage only for a file that could become a lesson: process-video would refuse
    // it without a creator credit (it spends one), so the link is refused the same way.
    const { creator } = await this.credits.balances(this.ctx.database.db, user.uid);
    if (creator <= 0) throw paymentRequired(MESSAGES.outOfCredits('creator'));
    const key = newUploadKey(user.uid);
    const maxBytes = limited ? MAX_UPLOAD_BYTES : null;
    await this.uploads.insert({ key, ownerUid: user.uid, fileType: request.fileType, maxBytes });
    const signed = await this.ctx.store.createUploadUrl(key, {
      contentType: request.fileType,
      maxBytes,
      ...(request.fileSize !== undefined && request.fileSize > 0
        ? { exactBytes: request.fileSize }
        : {}),
    });
    return { signedUrl: signed.url, gcsFilePath: key, method: 'PUT', headers: signed.headers };
  }

  /**
   * Checks the stored upload itself (owner, presence, real size, then its content: a video
   * container with video and audio streams, and the user's duration limit, read by ffprobe),
   * then in one transaction creates the job, spends one creator credit and enqueues it.
   * A refused file is deleted from storage; nothing else is written.
   */
  async processVideo(
    user: AuthUser,
    request: {
      gcsFilePath: string;
      fileName: string;
      fileSize: number;
      fileType: string;
      config: UploadConfig;
    },
    /** Id of the HTTP request, carried by the job so that its worker's log lines show it. */
    httpRequestId?: string,
  ): Promise<ProcessVideoResponse> {
    if (!isVideoType(request.fileType)) throw badRequest(MESSAGES.invalidFileType);
    const upload = await this.uploads.find(request.gcsFilePath);
    if (upload?.ownerUid !== user.uid) {
      throw notFound('The uploaded file was not found. Please upload it again.');
    }
    if (upload.jobId) throw conflict('This upload has already been submitted for processing.');
    const limited = !isPrivileged(user.role);
    // The browser's declared duration is not checked: the probe below reads the real one.
    const stored = await this.ctx.store.head(upload.key);
    if (!stored) throw badRequest('The upload did not arrive. Please upload the file again.');
    if (stored.size === 0) {
      await this.ctx.store.delete(upload.key);
      throw badRequest(MESSAGES.invalidVideo);
    }
    if (limited && stored.size > MAX_UPLOAD_BYTES) {
      await this.ctx.store.delete(upload.key);
      throw payloadTooLarge(MESSAGES.fileTooLarge(formatMegabytes(stored.size)));
    }
    let facts;
    try {
      facts = await verifyStoredUpload(this.ctx.store, upload.key, { limited });
    } catch (error) {
      // The file can never become a lesson: do not keep it.
      if (error instanceof MediaRefusal) await this.ctx.store.delete(upload.key);
      throw error;
    }
    const jobId = randomUUID();
    const requestId = `req_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
    const queue = this.ctx.queue;
    try {
      await this.ctx.database.db.transaction().execute(async (trx) => {
        const claimed = await this.uploads.claim(trx, upload.key, jobId);
        if (!claimed) throw conflict('This upload has already been submitted for processing.');
        await this.jobs.insert(trx, {
          id: jobId,
          requestId,
          ownerUid: user.uid,
          fileName: request.fileName,
          fileSize: stored.size,
          fileType: request.fileType,
          uploadKey: upload.key,
          config: { ...request.config, metadata: { duration: facts.durationSeconds } },
          message: MESSAGES.defaultProcessingMessage,
          duration: facts.durationSeconds,
        });
        await this.credits.spend(trx, {
          userId: user.uid,
          kind: 'creator',
          amount: 1,
          reason: 'job_create',
          ref: jobId,
        });
        // In the same transaction: a job is never accepted without its queue entry.
        await queue?.enqueue(
          { jobId, requestId, ...(httpRequestId ? { httpRequestId } : {}) },
          trx,
        );
      });
    } catch (error) {
      if (error instanceof InsufficientCreditsError) {
        throw paymentRequired(MESSAGES.outOfCredits('creator'));
      }
      throw error;
    }
    queue?.notifyEnqueued();
    return { success: true, message: 'Video submitted for processing.', requestId, jobId };
  }
}
