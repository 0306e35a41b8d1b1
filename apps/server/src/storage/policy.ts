import { isValidContentType } from './http-headers.js';
import { SIGNED_URL_TTL_SECONDS, type DownloadOptions, type UploadPolicy } from './object-store.js';

/** Longest lifetime of a signed link, in seconds (one week, the S3 limit). */
export const MAX_SIGNED_URL_TTL_SECONDS = 7 * 24 * 60 * 60;

/**
 * The lifetime of a signed link in whole seconds: SIGNED_URL_TTL_SECONDS by default, else an
 * integer in 1..MAX_SIGNED_URL_TTL_SECONDS. Throws RangeError for anything else.
 */
export function signedUrlTtl(expiresInSeconds: number | undefined): number {
  const ttl = expiresInSeconds ?? SIGNED_URL_TTL_SECONDS;
  if (!Number.isInteger(ttl) || ttl < 1 || ttl > MAX_SIGNED_URL_TTL_SECONDS) {
    throw new RangeError(
      `A signed link lives 1..${MAX_SIGNED_URL_TTL_SECONDS} seconds, not ${ttl}`,
    );
  }
  return ttl;
}

function isByteCount(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

/** Throws RangeError for a policy no upload could satisfy; both drivers call it. */
export function checkUploadPolicy(policy: UploadPolicy): void {
  if (!isValidContentType(policy.contentType)) {
    throw new RangeError(`Not a content type: ${JSON.stringify(policy.contentType)}`);
  }
  if (policy.maxBytes !== null && !isByteCount(policy.maxBytes)) {
    throw new RangeError(`maxBytes must be a whole number of bytes, not ${policy.maxBytes}`);
  }
  const exact = policy.exactBytes;
  if (exact !== undefined) {
    if (!isByteCount(exact)) {
      throw new RangeError(`exactBytes must be a whole number of bytes, not ${exact}`);
    }
    if (policy.maxBytes !== null && exact > policy.maxBytes) {
      throw new RangeError(`exactBytes ${exact} is over maxBytes ${policy.maxBytes}`);
    }
  }
}

/** Throws RangeError for a content type override that could not be a header value. */
export function checkDownloadOptions(options: DownloadOptions): void {
  if (options.contentType !== undefined && !isValidContentType(options.contentType)) {
    throw new RangeError(`Not a content type: ${JSON.stringify(options.contentType)}`);
  }
}
