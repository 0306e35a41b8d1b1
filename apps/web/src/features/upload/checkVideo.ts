import { readVideoDuration, type DurationResult } from './videoProbe';
import { durationError, fileSizeError, fileTypeError, recordingDurationError } from './validation';

/**
 * Every check of spec section 5 on a chosen file, in order: type, size, then the duration read
 * in the browser. Size and length limits apply to ordinary users only (`limited`).
 */
export async function checkVideoFile(file: File, limited: boolean): Promise<DurationResult> {
  const early = fileTypeError(file.type) ?? fileSizeError(file.size, limited);
  if (early) return { ok: false, message: early };
  const duration = await readVideoDuration(file);
  if (!duration.ok) return duration;
  const tooLong = durationError(duration.seconds, limited);
  return tooLong ? { ok: false, message: tooLong } : duration;
}

/** The same checks for a recording, whose length the recorder measured (seconds). */
export function checkRecording(file: File, seconds: number, limited: boolean): DurationResult {
  const error =
    fileTypeError(file.type) ??
    fileSizeError(file.size, limited) ??
    recordingDurationError(seconds, limited);
  return error ? { ok: false, message: error } : { ok: true, seconds };
}
