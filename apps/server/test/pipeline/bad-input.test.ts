import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MESSAGES } from '@riffscribe/core';
import { probeMedia } from '@riffscribe/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyMediaFile } from '../../src/jobs/upload-verification.js';
import type { TestUser } from '../support/test-server.js';
import { ffmpeg, GUITAR_WAV, makeClip, readClip } from './support/clips.js';
import {
  creatorBalance,
  jobLedger,
  localObjectKeys,
  startPipelineServer,
  strayObjects,
  submitVideo,
  waitForJob,
  type PipelineServer,
} from './support/pipeline-server.js';

/**
 * Acceptance, bad input: each file gets its clear error, the worker keeps running, a spent
 * credit is refunded, and nothing is left half-written (no job rows for refused files, no
 * objects nobody refers to).
 */
describe('pipeline, bad input', () => {
  let server: PipelineServer;
  let user: TestUser;
  let pilot: TestUser;
  let dir: string;
  let canary: Server;
  let canaryHits = 0;
  let canaryUrl: string;
  let enginePids: number[];
  const files: Record<string, Buffer> = {};

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-bad-'));
    canary = createServer((_req, res) => {
      canaryHits++;
      res.end('#EXTM3U\n');
    });
    await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
    canaryUrl = `http://127.0.0.1:${(canary.address() as AddressInfo).port}`;

    const good = await makeClip(dir, 'good.mp4', { seconds: 6 });
    const [audioMp4, silent, endIndex, long] = await Promise.all([
      makeClip(dir, 'audio.mp4', { seconds: 4, audioOnly: true }),
      makeClip(dir, 'silent.mp4', { seconds: 3, silent: true }),
      makeClip(dir, 'end-index.mp4', { seconds: 6, indexAtEnd: true }),
      makeClip(dir, 'long.mp4', { seconds: 33, width: 160, height: 120 }),
      ffmpeg(['-i', GUITAR_WAV, '-t', '3', '-y', path.join(dir, 'audio.wav')]),
      (async () => {
        server = await startPipelineServer();
        user = await server.createUser();
        pilot = await server.createUser({ role: 'pilot' });
      })(),
    ]);
    const goodBytes = await readClip(good);
    const endBytes = await readClip(endIndex);
    files.text = Buffer.from('These are my guitar notes for the lesson, saved as take.mp4.\n');
    files.audioMp4 = await readClip(audioMp4);
    files.wav = await readClip(path.join(dir, 'audio.wav'));
    files.silent = await readClip(silent);
    files.empty = Buffer.alloc(0);
    files.truncatedFront = goodBytes.subarray(0, Math.floor(goodBytes.length / 2));
    files.truncatedEnd = endBytes.subarray(0, Math.floor(endBytes.length / 2));
    files.long = await readClip(long);
    writeFileSync(path.join(dir, 'target.mp4'), goodBytes);
    files.hlsHttp = Buffer.from(
      `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.0,\n${canaryUrl}/segment.ts\n#EXT-X-ENDLIST\n`,
    );
    files.hlsFile = Buffer.from(
      `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:6.0,\nfile:${path.join(dir, 'target.mp4')}\n#EXT-X-ENDLIST\n`,
    );
    files.ffconcat = Buffer.from(
      `ffconcat version 1.0\nfile '${path.join(dir, 'target.mp4')}'\nfile '${canaryUrl}/more.mp4'\n`,
    );
    enginePids = server.runner?.enginePids ?? [];
  }, 180_000);
  afterAll(async () => {
    await server.close();
    await new Promise<void>((resolve) =>
      canary.close(() => {
        resolve();
      }),
    );
    rmSync(dir, { recursive: true, force: true });
  });

  /** A valid video without a sound track is told so (issue 37), not "invalid". */
  const NO_SOUND =
    'This video has no sound track. Record or export it with sound and upload it again.';
  const refusals: [string, string, string][] = [
    ['a text file renamed .mp4', 'text', MESSAGES.invalidVideo],
    ['an audio-only MP4', 'audioMp4', MESSAGES.invalidFileType],
    ['a WAV file renamed .mp4', 'wav', MESSAGES.invalidFileType],
    ['a video without sound', 'silent', NO_SOUND],
    ['a 0-byte upload', 'empty', MESSAGES.invalidVideo],
    ['a truncated MP4 with its index at the end', 'truncatedEnd', MESSAGES.invalidVideo],
    ['an HLS playlist of a URL renamed .mp4', 'hlsHttp', MESSAGES.invalidVideo],
    ['an HLS playlist of a local file renamed .mp4', 'hlsFile', MESSAGES.invalidVideo],
    ['an ffconcat list renamed .mp4', 'ffconcat', MESSAGES.invalidVideo],
  ];

  it.each(refusals)('refuses %s with its message and spends nothing', async (_, name, message) => {
    const before = await creatorBalance(server, user.uid);
    const submitted = await submitVideo(server, user, files[name] ?? Buffer.alloc(0));
    expect(submitted.status).toBe(400);
    expect(submitted.body).toEqual({ error: message });
    expect(await creatorBalance(server, user.uid)).toBe(before);
    // The useless upload is gone, and no job was created for it.
    expect(await server.ctx.store.head(submitted.gcsFilePath)).toBeNull();
    const upload = await server.ctx.database.db
      .selectFrom('uploads')
      .select('job_id')
      .where('key', '=', submitted.gcsFilePath)
      .executeTakeFirstOrThrow();
    expect(upload.job_id).toBeNull();
  });

  it('never lets ffprobe follow a playlist or list, even past the first check', async () => {
    for (const name of ['hlsHttp', 'hlsFile', 'ffconcat']) {
      const file = path.join(dir, `${name}.mp4`);
      writeFileSync(file, files[name] ?? Buffer.alloc(0));
      // ffprobe itself refuses the list (the format whitelist): had it followed the local
      // target.mp4, it would have answered with its facts and the container name `hls`/`concat`.
      await expect(probeMedia(file), name).rejects.toMatchObject({ code: 'unreadable_media' });
      await expect(verifyMediaFile(file, false)).rejects.toMatchObject({
        message: MESSAGES.invalidVideo,
      });
    }
    expect(canaryHits).toBe(0);
  });

  it('refuses a video over 31 s for a user, whatever its declared length', async () => {
    const before = await creatorBalance(server, user.uid);
    const submitted = await submitVideo(server, user, files.long ?? Buffer.alloc(0), {
      config: { metadata: { duration: 10 } },
    });
    expect(submitted.status).toBe(400);
    expect(submitted.body).toEqual({ error: MESSAGES.videoTooLong(33) });
    expect(await creatorBalance(server, user.uid)).toBe(before);
  });

  it('accepts and processes the same long video for a pilot', async () => {
    const submitted = await submitVideo(server, pilot, files.long ?? Buffer.alloc(0), {
      config: { skip_video_generation: true },
    });
    expect(submitted.status).toBe(200);
    const { final } = await waitForJob(server, pilot, String(submitted.body.jobId));
    expect(final.status).toBe('completed');
  }, 120_000);

  it('fails a truncated MP4 the probe accepted, with its reason, and refunds the credit', async () => {
    const before = await creatorBalance(server, user.uid);
    const submitted = await submitVideo(server, user, files.truncatedFront ?? Buffer.alloc(0));
    expect(submitted.status).toBe(200);
    const jobId = String(submitted.body.jobId);
    const { final } = await waitForJob(server, user, jobId);
    expect(final).toMatchObject({ status: 'failed', stage: 'failed', message: MESSAGES.jobFailed });
    expect(final.error).toMatch(/incomplete/i);
    expect(await creatorBalance(server, user.uid)).toBe(before);
    expect(await jobLedger(server, user.uid, jobId)).toEqual([
      { kind: 'creator', delta: -1, reason: 'job_create' },
      { kind: 'creator', delta: 1, reason: 'job_refund' },
    ]);
    const outputs = await server.ctx.database.db
      .selectFrom('job_files')
      .selectAll()
      .where('job_id', '=', jobId)
      .execute();
    expect(outputs).toEqual([]);
    // A problem with the file is not retried.
    const row = await server.ctx.database.db
      .selectFrom('jobs')
      .select(['attempts', 'lease_token'])
      .where('id', '=', jobId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ attempts: 1, lease_token: null });
  }, 120_000);

  it('leaves the worker running and no stray objects behind', async () => {
    expect(server.runner?.enginePids).toEqual(enginePids);
    const storage = server.config.storage;
    if (storage.driver !== 'local') throw new Error('local storage expected');
    expect(await strayObjects(server, await localObjectKeys(storage.dir))).toEqual([]);
    const unfinished = await server.ctx.database.db
      .selectFrom('jobs')
      .select('id')
      .where('status', 'in', ['queued', 'processing'])
      .execute();
    expect(unfinished).toEqual([]);
    expect(canaryHits).toBe(0);
  });
});
