/** MediaError.code values (the constants are on the browser's MediaError, not in Node). */
export const MEDIA_ERR_ABORTED = 1;
export const MEDIA_ERR_NETWORK = 2;
export const MEDIA_ERR_DECODE = 3;
export const MEDIA_ERR_SRC_NOT_SUPPORTED = 4;

/**
 * When a failed video is worth a fresh signed link. A dropped connection (network error) or an
 * expired link (the browser reports the refused request as "source not supported") is retried,
 * but only once until a link can play again: a file the browser cannot decode would otherwise
 * fail, fetch a new link, fail again, and so on for ever.
 */
export class VideoRetryPolicy {
  private retried = false;

  /** The current link can play (decoded frames are ready): a later failure may be retried. */
  playable(): void {
    this.retried = false;
  }

  /** Whether to fetch a fresh link after a failure with this MediaError code. */
  shouldRetry(code: number | undefined): boolean {
    if (code !== MEDIA_ERR_NETWORK && code !== MEDIA_ERR_SRC_NOT_SUPPORTED) return false;
    if (this.retried) return false;
    this.retried = true;
    return true;
  }
}
