import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  JOB_STAGES,
  createStreamParser,
  jobStatusStreamPath,
  type CheckStatusResponse,
  type StreamEvent,
} from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../support/test-server.js';
import { makeClip, readClip } from './support/clips.js';
import {
  checkStatus,
  startPipelineServer,
  submitVideo,
  type PipelineServer,
} from './support/pipeline-server.js';

/**
 * The live channel of the processing screen: GET /api/job-status-stream, server-sent events over
 * the real server, the real worker and engine. Authorised like check-status; the stages arrive in
 * order, and the stream ends with an `end` event and closes.
 */
describe('job status stream', () => {
  let server: PipelineServer;
  let owner: TestUser;
  let other: TestUser;
  let dir: string;
  let clip: Buffer;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-stream-'));
    const [made] = await Promise.all([
      makeClip(dir, 'take.mp4', { seconds: 4, width: 320, height: 240 }),
      (async () => {
        server = await startPipelineServer();
        owner = await server.createUser();
        other = await server.createUser();
      })(),
    ]);
    clip = await readClip(made);
  }, 180_000);
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Every event of a stream, read until the server closes it. */
  async function readAll(res: Response): Promise<StreamEvent[]> {
    const events: StreamEvent[] = [];
    const push = createStreamParser((e) => events.push(e));
    const reader = res.body?.getReader();
    if (!reader) throw new Error('no body');
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      push(decoder.decode(value, { stream: true }));
    }
    return events;
  }

  it('refuses exactly as check-status does', async () => {
    const { body } = await submitVideo(server, owner, clip);
    const jobId = String(body.jobId);
    const cases: [TestUser | null, string][] = [
      [null, jobId],
      [other, jobId],
      [owner, 'no-such-job'],
    ];
    for (const [user, id] of cases) {
      const token = user ? { token: user.token } : {};
      const stream = await server.request('GET', jobStatusStreamPath(id), token);
      const poll = await server.request('GET', `/api/check-status?jobId=${id}`, token);
      expect(stream.status).toBe(poll.status);
      expect(stream.status).toBeGreaterThanOrEqual(400);
      expect(stream.headers.get('content-type')).toMatch(/json/);
      expect(await stream.json()).toEqual(await poll.json());
    }
  });

  it('sends the stages in order as they finish, then an end event, and closes', async () => {
    const { status, body } = await submitVideo(server, owner, clip);
    expect(status).toBe(200);
    const jobId = String(body.jobId);
    const res = await server.request('GET', jobStatusStreamPath(jobId), { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = await readAll(res);

    const statuses = events
      .filter((e) => e.event === 'status')
      .map((e) => JSON.parse(e.data) as CheckStatusResponse);
    expect(statuses.length).toBeGreaterThan(2);
    const stageIndex = statuses.map((s) => JOB_STAGES.indexOf(s.stage as never));
    expect(stageIndex.every((i) => i >= 0)).toBe(true);
    expect(stageIndex).toEqual([...stageIndex].sort((a, b) => a - b));
    const progress = statuses.map((s) => s.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    // More than the first and the last: the screen moves through the stages.
    expect(new Set(statuses.map((s) => s.stage)).size).toBeGreaterThan(2);

    const last = events.at(-1);
    expect(last?.event).toBe('end');
    const final = JSON.parse(last?.data ?? '{}') as CheckStatusResponse;
    expect(final.status).toBe('completed');
    expect(final).toEqual(statuses.at(-1));
    expect(final).toEqual(await checkStatus(server, owner, jobId));
  });

  it('answers a finished job with its status and an end event at once', async () => {
    const { body } = await submitVideo(server, owner, clip);
    const jobId = String(body.jobId);
    // The first stream waits for the job; a second one, opened after, has nothing to wait for.
    await readAll(await server.request('GET', jobStatusStreamPath(jobId), { token: owner.token }));
    const events = await readAll(
      await server.request('GET', jobStatusStreamPath(jobId), { token: owner.token }),
    );
    expect(events.map((e) => e.event)).toEqual(['status', 'end']);
  });
});
