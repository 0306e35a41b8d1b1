import { timingSafeEqual } from 'node:crypto';

/** Where a scrape came from and what it sent. */
export interface ScrapeRequest {
  /** The TCP peer's address (never X-Forwarded-For). */
  remoteAddress: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

export type ScrapeDecision = 'allowed' | 'unauthorized' | 'forbidden';

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Who may read /metrics. With METRICS_TOKEN set: whoever sends `Authorization: Bearer <token>`,
 * from any address. Without it: only direct connections from a loopback address; a request that
 * came through a proxy (X-Forwarded-For or Forwarded) is refused even when the proxy is local,
 * since a reverse proxy on the same machine would otherwise publish the metrics.
 */
export function decideScrape(request: ScrapeRequest, token: string | null): ScrapeDecision {
  if (token !== null) {
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    return match?.[1] !== undefined && sameSecret(match[1], token) ? 'allowed' : 'unauthorized';
  }
  const proxied =
    request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  return !proxied && LOOPBACK.test(request.remoteAddress ?? '') ? 'allowed' : 'forbidden';
}
