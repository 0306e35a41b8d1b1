import http from 'node:http';

/**
 * A small HTTP load generator for the benches (keep-alive connections, plain node:http, so the
 * bench measures the server rather than a client library).
 *
 * - `closedLoop`: `connections` requests in flight at all times, each sent the moment the previous
 *   one on its connection is answered: the most the server serves.
 * - `openLoop`: requests sent on a fixed schedule (`rate` a second) whether or not earlier ones were
 *   answered, each timed from when it was due, so a stalled server shows as latency rather than as
 *   fewer requests (no coordinated omission).
 */

export interface LoadResult {
  requests: number;
  /** Answers that were not 2xx, and requests that failed outright. */
  errors: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  max: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] ?? Number.NaN;
}

function summary(latencies: number[], errors: number, seconds: number): LoadResult {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    seconds,
    perSecond: latencies.length / seconds,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
}

function requester(url: string, headers: Record<string, string>, sockets: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const target = new URL(url);
  const close = () => {
    agent.destroy();
  };
  const once = () =>
    new Promise<boolean>((resolve) => {
      const req = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname + target.search,
          headers,
        },
        (res) => {
          res.resume();
          res.once('end', () => {
            resolve((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300);
          });
          res.once('error', () => {
            resolve(false);
          });
        },
      );
      req.once('error', () => {
        resolve(false);
      });
      req.end();
    });
  return { once, close };
}

export async function closedLoop(
  url: string,
  headers: Record<string, string>,
  options: { connections: number; seconds: number },
): Promise<LoadResult> {
  const { once, close } = requester(url, headers, options.connections);
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const end = start + options.seconds * 1000;
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (performance.now() < end) {
        const before = performance.now();
        const ok = await once();
        latencies.push(performance.now() - before);
        if (!ok) errors += 1;
      }
    }),
  );
  close();
  return summary(latencies, errors, (performance.now() - start) / 1000);
}

export async function openLoop(
  url: string,
  headers: Record<string, string>,
  options: { rate: number; seconds: number },
): Promise<LoadResult> {
  // Enough sockets that the client never queues at these rates unless the server stalls.
  const { once, close } = requester(url, headers, 256);
  const latencies: number[] = [];
  let errors = 0;
  const total = Math.round(options.rate * options.seconds);
  const interval = 1000 / options.rate;
  const start = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i += 1) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(
      once().then((ok) => {
        latencies.push(performance.now() - due);
        if (!ok) errors += 1;
      }),
    );
  }
  await Promise.all(pending);
  close();
  return summary(latencies, errors, options.seconds);
}

export function describeLoad(label: string, r: LoadResult): string {
  const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;
  return (
    `${label.padEnd(34)} ${r.perSecond.toFixed(0).padStart(5)} req/s  p50 ${ms(r.p50).padStart(7)}  ` +
    `p99 ${ms(r.p99).padStart(7)}  max ${ms(r.max).padStart(7)}` +
    (r.errors > 0 ? `  (${String(r.errors)} errors)` : '')
  );
}
