import { ObjectNotFoundError } from '../storage/object-store.js';
import { asEngineFailure } from './engine-api.js';
import { MediaRefusal } from './upload-verification.js';

/**
 * What to do with a job attempt that threw: give up for good (the file itself is the problem,
 * so another attempt would fail the same way) or retry later (the machine, the network, the
 * storage or a crashed process).
 */
export interface Disposition {
  retry: boolean;
  /** A specific reason, stored in the job's error; written for the job's owner. */
  reason: string;
}

/** A problem with the job's input that no retry can fix. */
export class PermanentJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentJobError';
  }
}

/** The engine child process exited or was killed while it worked on the job. */
export class EngineCrashError extends Error {
  constructor(detail: string) {
    super(`The transcription process stopped unexpectedly (${detail}).`);
    this.name = 'EngineCrashError';
  }
}

/** A child tool (ffmpeg) failed on a file the engine had read: treated as the file's fault. */
export class MediaToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MediaToolError';
  }
}

/** Decides between retry and a final failure, with the reason to store. */
export function classifyFailure(error: unknown): Disposition {
  if (error instanceof PermanentJobError || error instanceof MediaToolError) {
    return { retry: false, reason: error.message };
  }
  if (error instanceof ObjectNotFoundError) {
    return { retry: false, reason: 'The uploaded file is no longer in storage.' };
  }
  if (error instanceof EngineCrashError) return { retry: true, reason: error.message };
  if (error instanceof MediaRefusal) return { retry: false, reason: error.reason };
  const engine = asEngineFailure(error);
  if (engine) {
    switch (engine.code) {
      case 'empty_file':
      case 'unreadable_media':
      case 'no_audio_stream':
      case 'too_long':
        return { retry: false, reason: engine.message };
      case 'timeout':
      case 'model_failed':
      case 'cancelled':
        return { retry: true, reason: engine.message };
    }
  }
  const name = error instanceof Error ? error.name : typeof error;
  return {
    retry: true,
    reason: `A temporary problem interrupted processing (${name}).`,
  };
}
