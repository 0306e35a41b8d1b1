import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MESSAGES } from '@riffscribe/core';
import { probeMedia } from '@riffscribe/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../support/test-server.js';
import { claimDuration, ffmpeg, GUITAR_WAV } from './support/clips.js';
import {
  creatorBalance,
  jobLedger,
  startPipelineServer,
  submitVideo,
  waitForJob,
  type PipelineServer,
} from './support/pipeline-server.js';

/** Processes whose parent chain leads to this test process, with their command names. */
function descendants(): { pid: number; comm: string }[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid=,comm='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length >= 3)
    .map(([pid, ppid, comm]) => ({ pid: Number(pid), ppid: Number(ppid), comm: comm ?? '' }));
  const ours = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const row of rows) {
      if (!ours.has(row.pid) && ours.has(row.ppid)) {
        ours.add(row.pid);
        grew = true;
      }
    }
  }
  return rows.filter((r) => r.pid !== process.pid && ours.has(r.pid));
}

/**
 * Issue 13, defect 1: a video whose Matroska header claims 25 s while its streams last 90 s
 * passes the probe; the 30 s limit of ordinary users must hold on the audio actually decoded.
 */
describe('pipeline, a false duration in the header', () => {
  let server: PipelineServer;
  let user: TestUser;
  let pilot: TestUser;
  let dir: string;
  let liar: Buffer;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-false-duration-'));
    const file = path.join(dir, 'long.mkv');
    await Promise.all([
      ffmpeg([
        ...['-f', 'lavfi', '-i', 'testsrc2=size=160x120:rate=10'],
        ...['-stream_loop', '-1', '-i', GUITAR_WAV],
        ...['-map', '0:v', '-map', '1:a', '-t', '90'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
        ...['-c:a', 'aac', '-b:a', '64k', '-f', 'matroska', '-y', file],
      ]),
      (async () => {
        server = await startPipelineServer();
        user = await server.createUser();
        pilot = await server.createUser({ role: 'pilot' });
      })(),
    ]);
    liar = claimDuration(await readFile(file), 25);
  }, 180_000);
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is a file whose header the probe believes', async () => {
    const file = path.join(dir, 'liar.mkv');
    writeFileSync(file, liar);
    const facts = await probeMedia(file);
    expect(facts.durationSeconds).toBeCloseTo(25, 0);
  });

  it('fails an ordinary user’s job with the too-long message, quickly, and refunds it', async () => {
    const before = await creatorBalance(server, user.uid);
    const submitted = await submitVideo(server, user, liar, { fileName: 'take.mkv' });
    // process-video trusts the probe (25 s); the worker must not.
    expect(submitted.status).toBe(200);
    const jobId = String(submitted.body.jobId);
    const started = Date.now();
    const { final } = await waitForJob(server, user, jobId, { timeoutMs: 60_000 });
    const tookMs = Date.now() - started;
    expect(final).toMatchObject({ status: 'failed', message: MESSAGES.jobFailed });
    expect(final.error).toBe(MESSAGES.videoTooLong(90));
    // Decoding stops right after the limit, far sooner than 90 s of audio would take.
    expect(tookMs).toBeLessThan(30_000);
    expect(await creatorBalance(server, user.uid)).toBe(before);
    expect(await jobLedger(server, user.uid, jobId)).toEqual([
      { kind: 'creator', delta: -1, reason: 'job_create' },
      { kind: 'creator', delta: 1, reason: 'job_refund' },
    ]);
    const row = await server.ctx.database.db
      .selectFrom('jobs')
      .select(['attempts', 'lease_token'])
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
    // The file is the problem: no retry.
    expect(row).toEqual({ attempts: 1, lease_token: null });
    // No ffmpeg (decoder, video, thumbnail) is left running; only the engine child waits.
    const left = descendants().filter((p) => p.pid !== server.runner?.enginePids[0]);
    expect(left.filter((p) => /ffmpeg|ffprobe/.test(p.comm))).toEqual([]);
  }, 90_000);

  it('still processes the whole file for a pilot (no limit)', async () => {
    const submitted = await submitVideo(server, pilot, liar, {
      fileName: 'take.mkv',
      config: { skip_video_generation: true },
    });
    expect(submitted.status).toBe(200);
    const { final } = await waitForJob(server, pilot, String(submitted.body.jobId), {
      timeoutMs: 150_000,
    });
    expect(final.status).toBe('completed');
  }, 180_000);
});
