import type { JobStatus } from '@riffscribe/core';

/** Queued or processing: the job is still on its way (progress shown, the list kept polling). */
export function isInProgress(status: JobStatus): boolean {
  return status === 'queued' || status === 'processing';
}
