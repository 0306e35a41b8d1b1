import { describe, expect, it } from 'vitest';
import {
  MEDIA_ERR_ABORTED,
  MEDIA_ERR_DECODE,
  MEDIA_ERR_NETWORK,
  MEDIA_ERR_SRC_NOT_SUPPORTED,
  VideoRetryPolicy,
} from './videoRetry';

describe('video retry policy', () => {
  it('retries a network error or a refused link once, then gives up until a link plays', () => {
    const policy = new VideoRetryPolicy();
    expect(policy.shouldRetry(MEDIA_ERR_SRC_NOT_SUPPORTED)).toBe(true);
    // The fresh link fails too (a file the browser cannot play): no second refetch, no loop.
    expect(policy.shouldRetry(MEDIA_ERR_SRC_NOT_SUPPORTED)).toBe(false);
    expect(policy.shouldRetry(MEDIA_ERR_NETWORK)).toBe(false);
  });

  it('allows another retry once a link has played (a link expiring in a long session)', () => {
    const policy = new VideoRetryPolicy();
    expect(policy.shouldRetry(MEDIA_ERR_NETWORK)).toBe(true);
    policy.playable();
    expect(policy.shouldRetry(MEDIA_ERR_NETWORK)).toBe(true);
    expect(policy.shouldRetry(MEDIA_ERR_NETWORK)).toBe(false);
  });

  it('never retries an abort, a decode error or an unknown failure', () => {
    const policy = new VideoRetryPolicy();
    expect(policy.shouldRetry(MEDIA_ERR_ABORTED)).toBe(false);
    expect(policy.shouldRetry(MEDIA_ERR_DECODE)).toBe(false);
    expect(policy.shouldRetry(undefined)).toBe(false);
    expect(policy.shouldRetry(MEDIA_ERR_NETWORK)).toBe(true);
  });
});
