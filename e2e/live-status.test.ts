import { rmSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/auth.js';
import { sharedChromium } from './support/browser.js';
import {
  completeLikeWorker,
  queuedJob,
  setProgress,
  startServerWithWeb,
  userByEmail,
  type TestServer,
} from './support/lessons.js';
import { makeVideo, mediaDir } from './support/media.js';
import { DESKTOP } from './support/shots.js';

/**
 * The processing screen on the live status stream (GET /api/job-status-stream): with the page's
 * clock held, check-status polling (every 10 s) never fires, so every change the screen shows
 * here came through the stream. The job is moved along on the real server as the worker would.
 * The fallback to polling when the stream drops is in e2e/library.test.ts.
 */
describe('processing screen, live status', () => {
  let server: TestServer;
  let browser: Browser;
  let dir: string;
  let video: string;

  beforeAll(async () => {
    server = await startServerWithWeb();
    browser = await sharedChromium();
    dir = mediaDir();
    video = makeVideo(dir, 'lesson.mp4', 4);
  });
  afterAll(async () => {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('moves as stages finish and opens the lesson as soon as it is ready', async () => {
    const page = await browser.newPage({ viewport: DESKTOP });
    await signIn(page, server.url, { email: 'eve@example.test', name: 'Eve Strummer' });
    const eve = await userByEmail(server, 'eve@example.test');
    const job = await queuedJob(server, eve);
    await setProgress(server, job.jobId, {
      status: 'processing',
      stage: 'probing',
      progress: 2,
      message: 'Checking the video',
    });
    let streams = 0;
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/job-status-stream') streams += 1;
    });
    await page.clock.install();
    await page.goto(`${server.url}/?jobId=${job.jobId}`);
    await page.getByRole('heading', { name: 'Processing Your Video' }).waitFor();
    await page.getByText('Checking the video').waitFor();

    await setProgress(server, job.jobId, {
      status: 'processing',
      stage: 'transcribing',
      progress: 37,
      message: 'Listening for notes',
    });
    await page.getByText('37%').waitFor();
    await page.getByText('Listening for notes').waitFor();

    await completeLikeWorker(server, job.jobId, video);
    await page.getByText('Processing complete! Your tabs are ready.').waitFor();
    // The spec's 2 s pause on desktop still comes before the lesson.
    expect(await page.getByRole('heading', { name: 'Processing Your Video' }).count()).toBe(1);
    await page.clock.runFor(2_100);
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/lesson/${job.jobId}`);
    expect(streams).toBe(1);
    await page.close();
  });
});
