import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  EXPORT_OUTPUT,
  EXPORT_OVERLAY_DEFAULTS,
  bandPicture,
  exportLayout,
  type ConvertStartResponse,
  type ConvertStatusResponse,
  type ConvertUploadUrlResponse,
  type DownloadResultResponse,
} from '@riffscribe/core';
import { findFfmpeg, findFfprobe } from '@riffscribe/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversionRunner } from '../../src/jobs/conversion-runner.js';
import { CONVERT_WORK_PREFIX } from '../../src/jobs/startup-cleanup.js';
import { jobObjectKey } from '../../src/storage/keys.js';
import { PRO_EXPORT_MESSAGE } from '../../src/services/convert.service.js';
import { createLesson } from '../support/fixtures.js';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.js';
import { claimDuration, ffmpeg } from './support/clips.js';

/**
 * The runners' log, silent but for a conversion that failed for no reason of its own (the
 * generic sentence): that is printed with its error, to tell a flake's cause (seen twice, rare).
 */
const quiet = {
  info: () => undefined,
  warn: (o: object, m: string) => {
    if (process.env.CONVERT_DEBUG || m.includes('The conversion failed. Please try again.')) {
      const err = (o as { err?: unknown }).err;
      console.warn(m, err instanceof Error ? err.stack : JSON.stringify(o));
    }
  },
  error: () => undefined,
};

/** A WebM as the browser records it (VP8 + Opus), `seconds` long, portrait. */
async function makeWebm(file: string, seconds: number): Promise<void> {
  await ffmpeg([
    ...['-f', 'lavfi', '-i', 'testsrc2=size=144x256:rate=25'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=330:sample_rate=48000'],
    ...['-map', '0:v', '-map', '1:a', '-t', String(seconds)],
    ...['-c:v', 'libvpx', '-b:v', '300k', '-deadline', 'realtime', '-cpu-used', '8'],
    ...['-c:a', 'libopus', '-b:a', '64k', '-f', 'webm', '-y', file],
  ]);
}

interface Probe {
  streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
  format: { duration: string; format_name: string };
}

function probe(file: string): Probe {
  return JSON.parse(
    execFileSync(
      findFfprobe(),
      ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', file],
      { encoding: 'utf8' },
    ),
  ) as Probe;
}

describe('MP4 export (/api/convert/*)', () => {
  let server: TestServer;
  let runner: ConversionRunner;
  let pilot: TestUser;
  let free: TestUser;
  let dir: string;
  let workRoot: string;
  let webm: Buffer;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'riffscribe-mp4-export-test-'));
    workRoot = path.join(dir, 'work');
    const file = path.join(dir, 'take.webm');
    await makeWebm(file, 3);
    webm = await readFile(file);
    server = await startTestServer({ queue: false, env: { SIGNUP_CREATOR_CREDITS: '20' } });
    runner = newRunner();
    runner.start();
    pilot = await server.createUser({ role: 'pilot' });
    free = await server.createUser();
  }, 120_000);

  afterAll(async () => {
    await runner.stop();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function newRunner(timeLimitSeconds = 60): ConversionRunner {
    return new ConversionRunner({
      database: server.ctx.database,
      store: server.ctx.store,
      log: quiet,
      timeLimitSeconds,
      leaseSeconds: 30,
      pollMs: 200,
      workRoot,
    });
  }

  /** A completed lesson of `owner`, `seconds` long. */
  async function lesson(owner: TestUser, seconds = 3): Promise<string> {
    const { jobId } = await createLesson(server, owner);
    await server.ctx.database.db
      .updateTable('jobs')
      .set({ duration: seconds })
      .where('id', '=', jobId)
      .execute();
    return jobId;
  }

  async function uploadUrl(user: TestUser, jobId: string, contentType = 'video/webm') {
    return server.request('POST', '/api/convert/upload-url', {
      token: user.token,
      json: { job_id: jobId, filename: 'lesson.webm', content_type: contentType },
    });
  }

  async function upload(user: TestUser, jobId: string, bytes: Buffer): Promise<void> {
    const res = await uploadUrl(user, jobId, 'video/webm;codecs=vp8,opus');
    expect(res.status).toBe(200);
    const link = (await res.json()) as ConvertUploadUrlResponse;
    expect(link.method).toBe('PUT');
    const put = await fetch(link.upload_url, {
      method: link.method,
      headers: link.headers,
      body: new Uint8Array(bytes),
    });
    expect(put.ok).toBe(true);
  }

  async function start(user: TestUser, jobId: string) {
    return server.request('POST', '/api/convert/start', {
      token: user.token,
      json: { job_id: jobId },
    });
  }

  async function status(user: TestUser, id: string): Promise<ConvertStatusResponse> {
    const res = await server.request('GET', `/api/convert/status/${id}`, { token: user.token });
    expect(res.status).toBe(200);
    return (await res.json()) as ConvertStatusResponse;
  }

  /** Polls like the browser (here every 200 ms) until completed or failed. */
  async function settle(user: TestUser, id: string): Promise<ConvertStatusResponse[]> {
    const seen: ConvertStatusResponse[] = [];
    for (let i = 0; i < 300; i++) {
      const now = await status(user, id);
      seen.push(now);
      if (now.status === 'completed' || now.status === 'failed') return seen;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`conversion ${id} did not finish: ${JSON.stringify(seen.at(-1))}`);
  }

  it('converts a pilot’s WebM recording to an H.264/AAC MP4 that download-result serves', async () => {
    const jobId = await lesson(pilot);
    await upload(pilot, jobId, webm);
    const uploading = await status(pilot, jobId);
    expect(uploading).toEqual({ status: 'uploading', progress: 0, error: null });
    const started = await start(pilot, jobId);
    expect(started.status).toBe(200);
    const { id } = (await started.json()) as ConvertStartResponse;
    expect(id).toBe(jobId);
    const seen = await settle(pilot, id);
    expect(seen.at(-1)).toEqual({ status: 'completed', progress: 100, error: null });
    const progress = seen.map((s) => s.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    const res = await server.request(
      'GET',
      `/api/download-result?jobId=${jobId}&fileName=webm_converted.mp4`,
      { token: pilot.token },
    );
    expect(res.status).toBe(200);
    const { downloadUrl } = (await res.json()) as DownloadResultResponse;
    const mp4 = await fetch(downloadUrl);
    expect(mp4.status).toBe(200);
    const out = path.join(dir, 'out.mp4');
    await writeFile(out, Buffer.from(await mp4.arrayBuffer()));
    const inFile = path.join(dir, 'in.webm');
    await writeFile(inFile, webm);
    const [a, b] = [probe(inFile), probe(out)];
    expect(b.format.format_name).toContain('mp4');
    const video = b.streams.find((s) => s.codec_type === 'video');
    expect(video).toMatchObject({ codec_name: 'h264', width: 144, height: 256 });
    expect(b.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe('aac');
    expect(Math.abs(Number(b.format.duration) - Number(a.format.duration))).toBeLessThan(0.1);

    // The upload is gone, and so is the working folder.
    const row = await server.ctx.database.db
      .selectFrom('conversions')
      .select(['upload_key', 'attempts', 'lease_token'])
      .where('job_id', '=', jobId)
      .executeTakeFirstOrThrow();
    expect(await server.ctx.store.head(row.upload_key)).toBeNull();
    expect(row).toMatchObject({ attempts: 1, lease_token: null });
    const left = existsSync(workRoot)
      ? readdirSync(workRoot).filter((n) => n.startsWith(CONVERT_WORK_PREFIX))
      : [];
    expect(left).toEqual([]);

    // A second export replaces the first MP4; the job still has one webm_converted.mp4.
    await upload(pilot, jobId, webm);
    expect((await start(pilot, jobId)).status).toBe(200);
    expect((await settle(pilot, jobId)).at(-1)?.status).toBe('completed');
    const files = await server.ctx.database.db
      .selectFrom('job_files')
      .select('key')
      .where('job_id', '=', jobId)
      .where('name', '=', 'webm_converted.mp4')
      .execute();
    expect(files).toHaveLength(1);
    const objects = await server.ctx.store.list(`jobs/${jobId}/`);
    expect(objects.filter((o) => o.key.includes('webm_converted'))).toHaveLength(1);
    expect(objects.filter((o) => o.key.includes('recording-'))).toHaveLength(0);
  }, 120_000);

  it('fails a conversion of bytes that are not a recording, with a short sentence', async () => {
    const jobId = await lesson(pilot);
    await upload(pilot, jobId, Buffer.from('this is not a video at all, just some text bytes'));
    expect((await start(pilot, jobId)).status).toBe(200);
    expect((await settle(pilot, jobId)).at(-1)).toMatchObject({
      status: 'failed',
      error: 'The recording could not be read.',
    });
  });

  it('fails a recording longer than the lesson, even when its header says otherwise', async () => {
    const long = path.join(dir, 'long.webm');
    await makeWebm(long, 12);
    const bytes = await readFile(long);
    // The header tells the truth: refused by the probe.
    const honest = await lesson(pilot, 3);
    await upload(pilot, honest, bytes);
    expect((await start(pilot, honest)).status).toBe(200);
    expect((await settle(pilot, honest)).at(-1)).toMatchObject({
      status: 'failed',
      error: 'The recording is longer than the lesson.',
    });
    // The header claims 3 s: the decoded length still refuses it.
    const liar = await lesson(pilot, 3);
    await upload(pilot, liar, claimDuration(bytes, 3));
    expect((await start(pilot, liar)).status).toBe(200);
    expect((await settle(pilot, liar)).at(-1)).toMatchObject({
      status: 'failed',
      error: 'The recording is longer than the lesson.',
    });
    expect(
      await server.services.jobs
        .downloadUrl(pilot, liar, 'webm_converted.mp4')
        .catch((e: unknown) => (e as { status: number }).status),
    ).toBe(404);
  }, 120_000);

  it('answers 409 to start before an upload', async () => {
    const jobId = await lesson(pilot);
    const none = await start(pilot, jobId);
    expect(none.status).toBe(409);
    expect(await none.json()).toEqual({ error: 'Upload the recording first.' });
    // A link, but nothing PUT to it.
    expect((await uploadUrl(pilot, jobId)).status).toBe(200);
    const empty = await start(pilot, jobId);
    expect(empty.status).toBe(409);
    expect(await empty.json()).toEqual({ error: 'Upload the recording first.' });
    expect(await status(pilot, jobId)).toMatchObject({ status: 'uploading' });
  });

  it('refuses other content types', async () => {
    const jobId = await lesson(pilot);
    const res = await uploadUrl(pilot, jobId, 'video/mp4');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/WebM/);
  });

  it('is a Pro feature: a free owner gets 403 with the upgrade sentence', async () => {
    const jobId = await lesson(free);
    for (const res of [await uploadUrl(free, jobId), await start(free, jobId)]) {
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({ error: PRO_EXPORT_MESSAGE });
    }
  });

  it('hands a running conversion back when its runner stops; the next runner finishes it', async () => {
    const file = path.join(dir, 'twelve.webm');
    await makeWebm(file, 12);
    const jobId = await lesson(pilot, 12);
    await upload(pilot, jobId, await readFile(file));
    expect((await start(pilot, jobId)).status).toBe(200);
    for (let i = 0; i < 500 && (await status(pilot, jobId)).status !== 'processing'; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    await runner.stop();
    expect(await status(pilot, jobId)).toMatchObject({ status: 'queued', progress: 0 });
    const row = await server.ctx.database.db
      .selectFrom('conversions')
      .select(['attempts', 'lease_token'])
      .where('job_id', '=', jobId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ attempts: 0, lease_token: null });
    expect(readdirSync(workRoot).filter((n) => n.startsWith(CONVERT_WORK_PREFIX))).toEqual([]);

    // A runner whose time limit is far too short fails it with the sentence for that.
    runner = newRunner(0.001);
    runner.start();
    expect((await settle(pilot, jobId)).at(-1)).toMatchObject({
      status: 'failed',
      error: 'Conversion took too long.',
    });
    await runner.stop();

    runner = newRunner();
    runner.start();
    await upload(pilot, jobId, await readFile(file));
    expect((await start(pilot, jobId)).status).toBe(200);
    expect((await settle(pilot, jobId)).at(-1)).toMatchObject({ status: 'completed' });
  }, 120_000);

  /** The RGB of one pixel of `file`'s frame at `seconds`. */
  function pixel(file: string, seconds: number, x: number, y: number): number[] {
    const raw = execFileSync(findFfmpeg(), [
      ...['-v', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1'],
      ...[
        '-vf',
        `format=rgb24,crop=1:1:${String(x)}:${String(y)}`,
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-',
      ],
    ]);
    return [...raw.subarray(0, 3)];
  }
  const near = (rgb: number[], want: number[]) =>
    rgb.every((v, i) => Math.abs(v - (want[i] ?? 0)) < 40);

  it.each(['mp4', 'webm'] as const)(
    'puts the browser’s tab overlay and logo over the lesson’s own video on the server (%s)',
    async (format) => {
      const jobId = await lesson(pilot, 2);
      // The lesson's video: red, 16:9, with sound; stored as the pipeline stores it.
      const source = path.join(dir, `lesson-${format}.mp4`);
      await ffmpeg([
        ...['-f', 'lavfi', '-i', 'color=c=red:size=640x360:rate=25'],
        ...['-f', 'lavfi', '-i', 'sine=frequency=330:sample_rate=44100'],
        ...['-map', '0:v', '-map', '1:a', '-t', '2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p'],
        ...['-c:a', 'aac', '-y', source],
      ]);
      const key = jobObjectKey(jobId, 'video.mp4', 'original');
      const bytes = await readFile(source);
      await server.ctx.store.put(key, bytes, 'video/mp4');
      await server.ctx.database.db
        .insertInto('job_files')
        .values({
          job_id: jobId,
          name: 'video.mp4',
          version: 'original',
          key,
          content_type: 'video/mp4',
          size: bytes.length,
        })
        .execute();
      // The band as the browser renders it (green) and the logo (blue).
      const framing = {
        ...EXPORT_OVERLAY_DEFAULTS,
        videoZoom: 1,
        videoOffsetX: 0,
        videoOffsetY: 0,
      };
      const layout = exportLayout(framing, { width: 640, height: 360 }, EXPORT_OUTPUT);
      const band = bandPicture(layout);
      const bandFile = path.join(dir, `band-${format}.webm`);
      await ffmpeg([
        ...[
          '-f',
          'lavfi',
          '-i',
          `color=c=lime:size=${String(band.width)}x${String(band.height)}:rate=30`,
        ],
        ...['-t', '2', '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-y', bandFile],
      ]);
      const logoFile = path.join(dir, `logo-${format}.png`);
      await ffmpeg([
        ...['-f', 'lavfi', '-i', 'color=c=blue:size=120x60', '-frames:v', '1', '-y', logoFile],
      ]);
      await upload(pilot, jobId, await readFile(bandFile));
      const started = await server.request('POST', '/api/convert/start', {
        token: pilot.token,
        json: {
          job_id: jobId,
          overlay: { format, framing, logo_png: (await readFile(logoFile)).toString('base64') },
        },
      });
      expect(started.status).toBe(200);
      const seen = await settle(pilot, jobId);
      expect(seen.at(-1)).toEqual({ status: 'completed', progress: 100, error: null });
      const name = format === 'mp4' ? 'webm_converted.mp4' : 'video_with_tabs.webm';
      const res = await server.request(
        'GET',
        `/api/download-result?jobId=${jobId}&fileName=${name}`,
        {
          token: pilot.token,
        },
      );
      expect(res.status).toBe(200);
      const { downloadUrl } = (await res.json()) as DownloadResultResponse;
      const out = path.join(dir, `overlaid.${format}`);
      await writeFile(out, Buffer.from(await (await fetch(downloadUrl)).arrayBuffer()));
      const made = probe(out);
      expect(made.format.format_name).toContain(format === 'mp4' ? 'mp4' : 'webm');
      expect(made.streams.find((s) => s.codec_type === 'video')).toMatchObject({
        codec_name: format === 'mp4' ? 'h264' : 'vp8',
        width: EXPORT_OUTPUT.width,
        height: EXPORT_OUTPUT.height,
      });
      expect(made.streams.find((s) => s.codec_type === 'audio')?.codec_name).toBe(
        format === 'mp4' ? 'aac' : 'opus',
      );
      expect(Math.abs(Number(made.format.duration) - 2)).toBeLessThan(0.15);
      // Where the preview puts each part: the video's middle, the band, the logo, black above.
      const video = layout.video ?? { x: 0, y: 0, width: 0, height: 0 };
      const mid = (a: number, b: number) => Math.round(a + b / 2);
      expect(pixel(out, 1, mid(video.x, video.width), mid(video.y, video.height))).toSatisfy(
        (rgb: number[]) => near(rgb, [255, 0, 0]),
      );
      expect(pixel(out, 1, 700, Math.round(layout.band.top + 40))).toSatisfy((rgb: number[]) =>
        near(rgb, [0, 255, 0]),
      );
      expect(
        pixel(out, 1, Math.round(layout.logo.x + 60), Math.round(layout.logo.y + 30)),
      ).toSatisfy((rgb: number[]) => near(rgb, [0, 0, 255]));
      expect(pixel(out, 1, 700, Math.round(video.y / 2) + 100)).toSatisfy((rgb: number[]) =>
        near(rgb, [0, 0, 0]),
      );
    },
    120_000,
  );

  it('refuses an overlay whose logo is not a picture, with a short sentence', async () => {
    const jobId = await lesson(pilot, 2);
    await upload(pilot, jobId, webm);
    const framing = { ...EXPORT_OVERLAY_DEFAULTS, videoZoom: 1, videoOffsetX: 0, videoOffsetY: 0 };
    const started = await server.request('POST', '/api/convert/start', {
      token: pilot.token,
      json: { job_id: jobId, overlay: { format: 'mp4', framing, logo_png: 'bm90IGEgcG5n' } },
    });
    expect(started.status).toBe(200);
    const seen = await settle(pilot, jobId);
    expect(seen.at(-1)?.status).toBe('failed');
    expect(seen.at(-1)?.error).toMatch(/could not be read|not available/);
    const bad = await server.request('POST', '/api/convert/start', {
      token: pilot.token,
      json: { job_id: jobId, overlay: { format: 'gif', framing, logo_png: 'AAAA' } },
    });
    expect(bad.status).toBe(400);
  });
});
