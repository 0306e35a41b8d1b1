import {
  MAX_UPLOAD_BYTES,
  MESSAGES,
  RECORDING_LIMIT_SECONDS,
  RECORDING_WARNING_FROM_SECONDS,
  REJECT_VIDEO_OVER_SECONDS,
  formatMegabytes,
} from '@riffscribe/core';

/**
 * The file checks of spec section 5, as pure functions: each returns the exact message to show,
 * or null when the value passes. `limited` is true for ordinary users (neither pilot nor admin).
 */

/** Only video/* types pass; audio files and everything else are refused. */
export function fileTypeError(mimeType: string): string | null {
  return /^video\/[a-z0-9.+-]+$/i.test(mimeType.trim()) ? null : MESSAGES.invalidFileType;
}

/** Ordinary users may upload at most 104,857,600 bytes. */
export function fileSizeError(bytes: number, limited: boolean): string | null {
  return limited && bytes > MAX_UPLOAD_BYTES ? MESSAGES.fileTooLarge(formatMegabytes(bytes)) : null;
}

/** Ordinary users' videos are refused when longer than 31 s (shown as a 30 s limit). */
export function durationError(seconds: number, limited: boolean): string | null {
  return limited && seconds > REJECT_VIDEO_OVER_SECONDS
    ? MESSAGES.videoTooLong(Math.round(seconds))
    : null;
}

/**
 * How far past 30 s an auto-stopped recording may run: the recorder stops on a timer, and the
 * last chunk arrives a moment later.
 */
export const RECORDING_STOP_TOLERANCE_SECONDS = 0.5;

/** Ordinary users' recordings are refused when longer than 30 s. */
export function recordingDurationError(seconds: number, limited: boolean): string | null {
  return limited && seconds > RECORDING_LIMIT_SECONDS + RECORDING_STOP_TOLERANCE_SECONDS
    ? MESSAGES.videoTooLong(Math.round(seconds))
    : null;
}

/** The countdown shown while recording: 'Ns remaining' from 20 s on, else null. */
export function recordingWarning(elapsedSeconds: number, limited: boolean): string | null {
  if (!limited || elapsedSeconds < RECORDING_WARNING_FROM_SECONDS) return null;
  const left = Math.max(0, Math.ceil(RECORDING_LIMIT_SECONDS - elapsedSeconds));
  return `${String(left)}s remaining`;
}
