import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../apps/server/test/support/test-server.js';
import { launchChromium, screenshot } from './support/browser.js';
import { enableFrameLog, FULL_BENCH, measurePlayback, summary } from './support/frames.js';
import { denseLesson } from './support/lesson-data.js';
import { openLesson, seekTo, zoomTimeline } from './support/player.js';
import { signIn } from './support/auth.js';
import { seedLesson, startServerWithWeb, userByEmail } from './support/lessons.js';
import { makeVideo, mediaDir } from './support/media.js';

const NOTES = 2000;
/** Seconds of playback measured per zoom (the suite's short run: 2). */
const SECONDS = FULL_BENCH ? 6 : 2;

/**
 * Frame-time benchmark (issue 6): a lesson of 2,000 notes played at timeline zoom 600 and 10 in
 * this machine's headless Chromium. It prints frame-to-frame times and the player's own work per
 * frame (median and 95th percentile); it asserts only that frames were drawn, not their speed.
 * Full length with `npm run bench:player`; shorter in the test suite (FULL_BENCH).
 */
describe('tab player frame times, 2,000 notes', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let jobId: string;
  let work: string;

  beforeAll(async () => {
    work = mediaDir();
    // A pilot: lessons longer than 30 s are theirs to make.
    server = await startServerWithWeb({ PILOT_EMAILS: 'bench@example.test' });
    browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
    page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
    await signIn(page, server.url, { email: 'bench@example.test', name: 'Bench Player' });
    const lesson = denseLesson(NOTES);
    jobId = await seedLesson(server, await userByEmail(server, 'bench@example.test'), {
      ...lesson,
      video: makeVideo(work, 'dense.mp4', lesson.duration, {
        sound: 'tone',
        portrait: true,
        fps: 15,
      }),
    });
    await enableFrameLog(page);
    await openLesson(page, server.url, jobId);
  });

  afterAll(async () => {
    await browser.close();
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  for (const zoom of [600, 10] as const) {
    it(`plays at zoom ${String(zoom)} px/s`, async () => {
      await zoomTimeline(page, zoom);
      await seekTo(page, 40);
      const { frames, work: busy } = await measurePlayback(page, SECONDS);
      const f = summary(frames);
      const w = summary(busy);
      const fps = (frames.length / frames.reduce((a, b) => a + b, 0)) * 1000;
      console.log(
        `player bench: ${String(NOTES)} notes, zoom ${String(zoom)} px/s, ${String(frames.length)} frames in ${String(SECONDS)} s (${fps.toFixed(1)} fps): ` +
          `frame interval median ${f.median.toFixed(2)} ms, p95 ${f.p95.toFixed(2)} ms, max ${f.max.toFixed(2)} ms; ` +
          `player work per frame median ${w.median.toFixed(3)} ms, p95 ${w.p95.toFixed(3)} ms, max ${w.max.toFixed(2)} ms`,
      );
      expect(frames.length).toBeGreaterThan(SECONDS * 10);
    });
  }

  it('looks right on a dense passage at 1440 and 1920 px', async () => {
    await zoomTimeline(page, 600);
    for (let k = 0; k < 12; k += 1) await page.mouse.wheel(0, 100);
    await seekTo(page, 61.1);
    await screenshot(page, 'player-dense-1440');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await seekTo(page, 61.1);
    await screenshot(page, 'player-dense-1920');
    await zoomTimeline(page, 10);
    await screenshot(page, 'player-dense-zoom10-1920');
  });
});
