import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

/** The value of one sample line (`name{labels} value`) in a Prometheus text exposition. */
function sample(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? null : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  let server: TestServer;
  let user: TestUser;

  beforeAll(async () => {
    server = await startTestServer({ queue: false });
    user = await server.createUser();
  });
  afterAll(() => server.close());

  it('serves Prometheus text to a direct loopback caller, latency by route pattern', async () => {
    const jobId = randomUUID();
    expect((await server.request('GET', '/api/auth/config')).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const res = await server.request('GET', `/api/check-status?jobId=${jobId}`, {
        token: user.token,
      });
      expect(res.status).toBe(404);
    }
    expect((await server.request('GET', '/api/no-such-call?secret=1')).status).toBe(404);

    const res = await server.request('GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const latency = 'riffscribe_http_request_duration_seconds';
    expect(
      sample(text, `${latency}_count{method="GET",route="/api/check-status",status_class="4xx"}`),
    ).toBe(3);
    expect(
      sample(text, `${latency}_count{method="GET",route="/api/auth/config",status_class="2xx"}`),
    ).toBe(1);
    expect(
      sample(text, `${latency}_count{method="GET",route="unmatched",status_class="4xx"}`),
    ).toBe(1);
    // Route patterns only: no ids, no query strings.
    expect(text).not.toContain(jobId);
    expect(text).not.toContain('secret=');
    expect(text).not.toContain('no-such-call');
    for (const status of ['queued', 'processing', 'completed', 'failed']) {
      expect(sample(text, `riffscribe_jobs{status="${status}"}`)).toBe(0);
    }
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    expect(text).toContain('# TYPE riffscribe_job_stage_duration_seconds histogram');
    expect(text).toContain('# TYPE riffscribe_engine_resident_memory_bytes gauge');
  });

  it('refuses a scrape that came through a proxy, and signed-in users get nothing more', async () => {
    const proxied = await server.request('GET', '/metrics', {
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(proxied.status).toBe(403);
    const refusal = (await proxied.json()) as { error?: unknown };
    expect(typeof refusal.error).toBe('string');
    // A user's access token is not a metrics token (and is not checked as one).
    const asUser = await server.request('GET', '/metrics', {
      token: user.token,
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(asUser.status).toBe(403);
  });

  it('with METRICS_TOKEN, wants that bearer token', async () => {
    const token = `metrics-${randomUUID()}`;
    const guarded = await startTestServer({ queue: false, env: { METRICS_TOKEN: token } });
    try {
      expect((await guarded.request('GET', '/metrics')).status).toBe(401);
      expect((await guarded.request('GET', '/metrics', { token: 'wrong' })).status).toBe(401);
      const ok = await guarded.request('GET', '/metrics', {
        token,
        headers: { 'x-forwarded-for': '203.0.113.9' },
      });
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain('riffscribe_http_request_duration_seconds');
    } finally {
      await guarded.close();
    }
  });
});
