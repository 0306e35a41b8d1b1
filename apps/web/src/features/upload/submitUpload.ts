import { MESSAGES, type ProcessVideoResponse, type UploadConfig } from '@riffscribe/core';
import { api } from '../../api/endpoints';
import { ApiRequestError } from '../../api/session';
import { DirectUploadError, uploadToSignedUrl } from '../../api/signedUpload';
import { storeThumbnail, takeStoredThumbnail } from './videoProbe';

/** The status messages of the submit sequence (spec section 4), word for word. */
export const SUBMIT_STATUS = {
  initiating: 'Initiating upload...',
  uploading: 'Uploading...',
  thumbnail: 'Upload complete! Creating thumbnail...',
  submitting: 'Upload complete! Submitting for processing...',
} as const;

/** The server refused the job for lack of creator credits (HTTP 402). */
export class OutOfCreditsError extends Error {
  constructor() {
    super('Out of creator credits.');
    this.name = 'OutOfCreditsError';
  }
}

/** A failure of the sequence whose message is ready to show after 'Error: '. */
export class SubmitError extends Error {
  override name = 'SubmitError';
}

/**
 * The upload went through but the process call (the start) failed: the home page shows its
 * error state with this message (spec section 4), not the wizard's 'Error: ...' line.
 */
export class StartError extends Error {
  override name = 'StartError';
  constructor(
    message: string,
    /** The refused start call's request id, when the server answered. */
    readonly requestId: string | null = null,
  ) {
    super(message);
  }
}

export interface SubmitInput {
  file: Blob;
  fileName: string;
  fileType: string;
  email: string;
  config: UploadConfig;
  onStatus: (message: string) => void;
  /** Fraction of the file sent, 0..1. */
  onProgress: (fraction: number) => void;
}

async function requestUploadLink(input: SubmitInput) {
  try {
    const link = await api.signedUploadUrl({
      fileName: input.fileName,
      fileType: input.fileType,
      email: input.email,
      fileSize: input.file.size,
    });
    if (!link.signedUrl) throw new SubmitError(MESSAGES.couldNotPrepareFile);
    return link;
  } catch (error) {
    if (error instanceof SubmitError) throw error;
    // The server hands out no upload link without a creator credit.
    if (error instanceof ApiRequestError && error.status === 402) throw new OutOfCreditsError();
    throw new SubmitError(
      error instanceof ApiRequestError && error.serverText
        ? error.serverText
        : MESSAGES.failedToPrepareUploadLink,
    );
  }
}

async function startProcessing(input: SubmitInput, gcsFilePath: string) {
  try {
    return await api.processVideo({
      gcsFilePath,
      email: input.email,
      fileName: input.fileName,
      fileSize: input.file.size,
      fileType: input.fileType,
      config: input.config,
    });
  } catch (error) {
    if (error instanceof ApiRequestError) {
      if (error.status === 402) throw new OutOfCreditsError();
      throw new StartError(error.serverText ?? MESSAGES.failedToStartProcessing, error.requestId);
    }
    throw new StartError(
      error instanceof Error && error.message ? error.message : MESSAGES.unexpectedNetworkError,
    );
  }
}

/**
 * The submit sequence: a signed upload link, the file sent straight to storage with progress,
 * a thumbnail made in the browser, then the process call; afterwards the stored thumbnail is
 * sent for the new request (its failure is ignored). Throws SubmitError (before the start call),
 * StartError (the start call failed) or OutOfCreditsError (a 402 on the link or start call).
 */
export async function submitUpload(input: SubmitInput): Promise<ProcessVideoResponse> {
  input.onStatus(SUBMIT_STATUS.initiating);
  const link = await requestUploadLink(input);

  input.onStatus(SUBMIT_STATUS.uploading);
  input.onProgress(0);
  try {
    await uploadToSignedUrl({
      url: link.signedUrl,
      method: link.method,
      headers: link.headers,
      file: input.file,
      onProgress: input.onProgress,
    });
  } catch (error) {
    throw new SubmitError(
      error instanceof DirectUploadError && error.status > 0
        ? MESSAGES.directUploadFailed(error.status)
        : MESSAGES.unknownUploadError,
    );
  }

  input.onStatus(SUBMIT_STATUS.thumbnail);
  await storeThumbnail(input.file);

  input.onStatus(SUBMIT_STATUS.submitting);
  const started = await startProcessing(input, link.gcsFilePath);

  const thumbnail = takeStoredThumbnail();
  if (thumbnail) {
    await api.uploadThumbnail(started.requestId, thumbnail).catch(() => undefined);
  }
  return started;
}
