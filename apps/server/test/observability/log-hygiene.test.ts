import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { AuthTokenResponse, MeResponse, SignedUploadResponse } from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieJar } from '../auth/support/cookie-jar.js';
import { completeProvider, renewToken, startLogin } from '../auth/support/sign-in.js';
import { makeClip, readClip } from '../pipeline/support/clips.js';
import {
  startPipelineServer,
  submitVideo,
  waitForJob,
  type PipelineServer,
} from '../pipeline/support/pipeline-server.js';
import type { TestUser } from '../support/test-server.js';

interface LogLine {
  msg?: string;
  requestId?: string;
  jobId?: string;
  req?: { url?: string };
}

/**
 * A full run with the server's real logger at debug level, every line captured: sign-in through
 * the development provider, a signed upload, processing by the embedded worker (real ffmpeg and
 * engine), a signed download. No credential may appear in the log, and the worker's lines about
 * the job carry the id of the request that submitted it.
 */
describe('logs of a full run', () => {
  const lines: string[] = [];
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  /** Every credential the run handled: none may be in the log. */
  const secrets = new Map<string, string>();
  const remember = (what: string, value: string | null | undefined) => {
    // Short values (flags, counters) would match by chance; every credential here is long.
    if (value && value.length >= 12) secrets.set(value, what);
  };
  const rememberCookies = (jar: CookieJar, when: string) => {
    for (const name of jar.names()) remember(`cookie ${name} (${when})`, jar.get(name)?.value);
  };
  let server: PipelineServer;
  let dir: string;
  let clip: Buffer;
  let jobId: string;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-logs-'));
    const [made] = await Promise.all([
      makeClip(dir, 'take.mp4', { seconds: 4 }),
      (async () => {
        server = await startPipelineServer({ env: { LOG_LEVEL: 'debug' }, logStream: capture });
      })(),
    ]);
    clip = await readClip(made);
    remember('RIFFSCRIBE_SECRET', server.config.secret);
    remember('OIDC client secret', server.config.oidc.clientSecret);

    // Sign in as a browser does, through the development provider.
    const jar = new CookieJar();
    const authorizationUrl = await startLogin(server, jar);
    rememberCookies(jar, 'login');
    for (const name of ['state', 'nonce', 'code_challenge']) {
      remember(`authorization ${name}`, new URL(authorizationUrl).searchParams.get(name));
    }
    const callbackUrl = await completeProvider(jar, authorizationUrl, {
      email: 'logs@example.test',
      name: 'Log Reader',
    });
    rememberCookies(jar, 'provider');
    remember('authorization code', new URL(callbackUrl).searchParams.get('code'));
    const callback = await jar.fetch(callbackUrl);
    expect(callback.status).toBe(302);
    rememberCookies(jar, 'callback');
    const renewed = await renewToken(server, jar);
    expect(renewed.status).toBe(200);
    rememberCookies(jar, 'token');
    const { accessToken } = (await renewed.json()) as AuthTokenResponse;
    remember('access token', accessToken);
    const meRes = await server.request('GET', '/api/me', { token: accessToken });
    expect(meRes.status).toBe(200);
    const me = (await meRes.json()) as MeResponse;
    const user: TestUser = { ...me, token: accessToken, sid: '' };

    // A signed link handed out and not used: its signature must not be logged either.
    const spare = await server.request('POST', '/api/generate-signed-upload-url', {
      token: accessToken,
      json: { fileName: 'spare.mp4', fileType: 'video/mp4', email: me.email },
    });
    const { signedUrl } = (await spare.json()) as SignedUploadResponse;
    remember('upload link signature', new URL(signedUrl).searchParams.get('sig'));

    const submitted = await submitVideo(server, user, clip, {
      config: { metadata: { duration: 4 } },
    });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    jobId = String(submitted.body.jobId);
    const { final } = await waitForJob(server, user, jobId, { timeoutMs: 150_000 });
    expect(final.status).toBe('completed');

    for (const fileName of ['video.mp4', 'results']) {
      const res = await server.request(
        'GET',
        `/api/download-result?jobId=${jobId}&fileName=${fileName}`,
        { token: accessToken },
      );
      const { downloadUrl } = (await res.json()) as { downloadUrl: string };
      remember(`${fileName} link signature`, new URL(downloadUrl).searchParams.get('sig'));
      const download = await fetch(downloadUrl);
      expect(download.status).toBe(200);
      await download.arrayBuffer();
    }
  }, 240_000);
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const parsed = () => lines.map((l) => JSON.parse(l) as LogLine);

  it('logs the run, with every signed link, token, cookie and secret left out', () => {
    const log = lines.join('\n');
    // The run was logged: signed storage calls included.
    const storageLines = parsed().filter((l) => l.req?.url?.startsWith('/api/storage/object'));
    expect(storageLines.length).toBeGreaterThanOrEqual(3);
    expect(log).toContain('/api/auth/callback');
    expect(secrets.size).toBeGreaterThanOrEqual(8);
    const leaked = [...secrets].filter(([value]) => log.includes(value)).map(([, what]) => what);
    if (process.env.SHOW_LEAKS === '1') {
      for (const [value, what] of secrets) {
        for (const l of lines) if (l.includes(value)) console.log(what, l.slice(0, 600));
      }
    }
    expect(leaked).toEqual([]);
    // No signature-like query value at all, whoever wrote the line.
    expect(log).not.toMatch(/[?&](sig|signature|code|state|X-Amz-Signature)=(?!\[redacted\])/i);
    expect(log).not.toMatch(/Bearer\s+(?!\[redacted\])\S/i);
  });

  it("carries the submitting request's id into the worker's lines about the job", () => {
    const entries = parsed();
    const submit = entries.find((l) => l.msg === 'video submitted for processing');
    expect(submit?.jobId).toBe(jobId);
    const requestId = submit?.requestId;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const worker = entries.filter(
      (l) => l.jobId === jobId && (l.msg === 'job started' || l.msg === 'job completed'),
    );
    expect(worker.map((l) => l.msg)).toEqual(['job started', 'job completed']);
    for (const line of worker) expect(line.requestId).toBe(requestId);
  });

  it('counts the job, its stages and the engine in /metrics', async () => {
    const res = await server.request('GET', '/metrics');
    expect(res.status).toBe(200);
    const text = await res.text();
    const value = (series: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? null : Number(line.slice(series.length + 1));
    };
    expect(value('riffscribe_jobs{status="completed"}')).toBe(1);
    expect(value('riffscribe_job_attempts_total{outcome="completed"}')).toBe(1);
    for (const stage of ['probing', 'transcribing', 'final_video_generation']) {
      expect(value(`riffscribe_job_stage_duration_seconds_count{stage="${stage}"}`)).toBe(1);
    }
    expect(value('riffscribe_engine_resident_memory_bytes{slot="0"}')).toBeGreaterThan(20e6);
  });
});
