import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/auth.js';
import { screenshot, SCREENSHOT_DIR, sharedChromium } from './support/browser.js';
import { findFfmpeg } from '../packages/engine/src/adapters/binaries.js';
import { editLesson } from './support/editor.js';
import { seedLesson, startServerWithWeb, userByEmail, type TestServer } from './support/lessons.js';
import { makeVideo, mediaDir, probeMedia, rgbFrame } from './support/media.js';
import { openLesson, seekTo } from './support/player.js';
import { DESKTOP } from './support/shots.js';

/**
 * Lesson lengths. EXPORT_TEST_SECONDS / EXPORT_TEST_SHORT_SECONDS set longer ones to time an
 * export (the closing note's 30 s figures: both 30, with -t "records|uploads").
 */
const SECONDS = Number(process.env.EXPORT_TEST_SECONDS ?? '2');
/** Where the WebM's frame is compared with the preview, and the earlier time it must differ from. */
const AT = SECONDS * 0.75;
const EARLIER = SECONDS * 0.25;
/** The MP4 tests use a shorter lesson: the conversion of 1536 x 2728 frames is slow on 2 cores. */
const SHORT_SECONDS = Number(process.env.EXPORT_TEST_SHORT_SECONDS ?? '1');
const PREVIEW = { width: 270, height: 480 };
/** The tab overlay's band in the 270 x 480 preview as the test frames it (overlayY 2400 of 3840, 1152 high). */
const BAND = {
  top: Math.ceil((2400 / 3840) * 480) + 2,
  bottom: Math.floor((3552 / 3840) * 480) - 2,
};

/** Mean absolute difference of two RGB images over the tab band's rows (or all rows). */
function bandDifference(a: Uint8Array, b: Uint8Array, rows = BAND): number {
  let sum = 0;
  let n = 0;
  for (let y = rows.top; y < rows.bottom; y += 1) {
    for (let x = 0; x < PREVIEW.width * 3; x += 1) {
      const i = y * PREVIEW.width * 3 + x;
      sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
      n += 1;
    }
  }
  return sum / n;
}

/**
 * Issue 14, item 3: a pilot who owns a lesson exports it with the tabs overlaid, in Chromium
 * against the real server: the framing editor and its preview, a WebM recorded in the browser,
 * checked with ffprobe (length, size, sound) and compared, frame for frame, with the preview at
 * the same time of the lesson.
 */
describe('export video with tabs', () => {
  let server: TestServer;
  let browser: Browser;
  let work: string;
  let video: string;
  let shortVideo: string;

  beforeAll(async () => {
    work = mediaDir();
    video = makeVideo(work, 'export.mp4', SECONDS, { sound: 'tone' });
    shortVideo = makeVideo(work, 'short.mp4', SHORT_SECONDS, { sound: 'tone' });
    // Four lessons for one pilot: more than the sign-up grant.
    server = await startServerWithWeb({
      PILOT_EMAILS: 'pia@example.test',
      SIGNUP_CREATOR_CREDITS: '10',
    });
    browser = await sharedChromium();
  });
  afterAll(async () => {
    await browser.close();
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  async function pilotLesson(
    colorScheme: 'light' | 'dark' = 'light',
    lesson: { file: string; seconds: number } = { file: video, seconds: SECONDS },
  ) {
    const context = await browser.newContext({
      viewport: DESKTOP,
      acceptDownloads: true,
      colorScheme,
    });
    const page = await context.newPage();
    await signIn(page, server.url, { email: 'pia@example.test', name: 'Pilot Pia' });
    const owner = await userByEmail(server, 'pia@example.test');
    const jobId = await seedLesson(server, owner, {
      ...editLesson(),
      video: lesson.file,
      duration: lesson.seconds,
    });
    await openLesson(page, server.url, jobId);
    return { context, page, jobId };
  }
  const openExport = async (page: Page) => {
    await page.getByRole('button', { name: 'Share' }).click();
    await page.getByRole('button', { name: 'Export video with tabs' }).click();
    const dialog = page.getByRole('dialog', { name: 'Export video with tabs' });
    await dialog.waitFor();
    return dialog;
  };
  const previewPixels = (page: Page) =>
    page.evaluate(() => {
      const c = document.querySelector<HTMLCanvasElement>('.lp-export-preview');
      const ctx = c?.getContext('2d');
      if (!c || !ctx) throw new Error('no preview');
      const rgba = ctx.getImageData(0, 0, c.width, c.height).data;
      const rgb: number[] = [];
      for (let i = 0; i < rgba.length; i += 4)
        rgb.push(rgba[i] ?? 0, rgba[i + 1] ?? 0, rgba[i + 2] ?? 0);
      return rgb;
    });

  it(
    'records a WebM the length of the lesson, with sound, showing what the preview shows',
    async () => {
      const { context, page } = await pilotLesson();
      try {
        await seekTo(page, AT);
        const dialog = await openExport(page);
        await screenshot(page, 'export-dialog-light-1440');
        // The preview follows the framing: moving the tab changes the picture.
        const atPreview = await previewPixels(page);
        await dialog.getByLabel('Tab position').fill('1600');
        await expect
          .poll(async () => (await previewPixels(page)).join(',') !== atPreview.join(','))
          .toBe(true);
        await dialog.getByRole('button', { name: 'Reset framing' }).click();
        await expect
          .poll(async () => (await previewPixels(page)).join(','))
          .toBe(atPreview.join(','));
        // A framing of the user's own (video zoomed and moved, tab and logo moved): the server
        // must place everything where the preview shows it.
        await dialog.getByLabel('Video zoom').fill('1.5');
        await dialog.getByLabel('Video left/right').fill('240');
        await dialog.getByLabel('Tab position').fill('2400');
        await dialog.getByLabel('Logo up/down').fill('400');
        await expect
          .poll(async () => (await previewPixels(page)).join(',') !== atPreview.join(','))
          .toBe(true);
        const framedPreview = await previewPixels(page);

        await dialog.getByLabel('WebM', { exact: true }).check();
        const started = Date.now();
        const [download] = await Promise.all([
          page.waitForEvent('download', { timeout: 120_000 + SECONDS * 15_000 }),
          dialog.getByRole('button', { name: 'Export' }).click(),
        ]);
        const file = path.join(work, download.suggestedFilename());
        await download.saveAs(file);
        console.info(
          `WebM export of a ${String(SECONDS)} s lesson: ${((Date.now() - started) / 1000).toFixed(1)} s`,
        );
        expect(download.suggestedFilename()).toMatch(/-tabs\.webm$/);
        const done = dialog.getByText(/Done: .*-tabs\.webm is downloading\./);
        await done.waitFor();
        console.info(
          `made ${String(await done.getAttribute('data-method'))} at ${String(await done.getAttribute('data-speed'))}x the lesson's speed`,
        );

        const probe = probeMedia(file);
        expect(
          Math.abs(probe.duration - SECONDS),
          `duration ${String(probe.duration)}`,
        ).toBeLessThan(0.1);
        expect(probe.video).toMatchObject({ width: 1536, height: 2728 });
        expect(probe.audio).not.toBeNull();

        mkdirSync(SCREENSHOT_DIR, { recursive: true });
        // The middle frame at full size, to look at (is every fret number readable?).
        execFileSync(findFfmpeg(), [
          ...['-v', 'error', '-y', '-i', file, '-ss', String(AT), '-frames:v', '1'],
          path.join(SCREENSHOT_DIR, 'export-frame-1536x2728.png'),
        ]);
        // The tab in the middle of the video is the tab the preview drew for that time.
        const recorded = rgbFrame(file, AT, PREVIEW.width, PREVIEW.height);
        const elsewhere = rgbFrame(file, EARLIER, PREVIEW.width, PREVIEW.height);
        const preview = Uint8Array.from(framedPreview);
        const same = bandDifference(recorded, preview);
        const other = bandDifference(elsewhere, preview);
        console.info(
          `tab band difference: same time ${same.toFixed(1)}, ${String(AT - EARLIER)} s earlier ${other.toFixed(1)}`,
        );
        expect(same).toBeLessThan(other);
        expect(same).toBeLessThan(20);
        // The whole picture too: the server framed the video where the preview shows it.
        const whole = bandDifference(recorded, preview, { top: 0, bottom: PREVIEW.height });
        console.info(`whole frame difference: ${whole.toFixed(1)}`);
        expect(whole).toBeLessThan(12);
        expect(await done.getAttribute('data-method')).toBe('on the server');
      } finally {
        await context.close();
      }
    },
    240_000 + SECONDS * 20_000,
  );

  it('shows the framing editor in the dark scheme', async () => {
    const { context, page } = await pilotLesson('dark');
    try {
      await seekTo(page, 2);
      await openExport(page);
      await screenshot(page, 'export-dialog-dark-1440');
    } finally {
      await context.close();
    }
  });

  it(
    'MP4: renders the tab, the server puts it over the video; downloads <lesson>-tabs.mp4',
    async () => {
      const { context, page } = await pilotLesson('light', {
        file: shortVideo,
        seconds: SHORT_SECONDS,
      });
      try {
        const dialog = await openExport(page);
        await dialog.getByLabel('MP4 (plays everywhere)').check();
        const started = Date.now();
        const stages = new Set<string>();
        const watch = setInterval(() => {
          void dialog
            .locator('.lp-export-progress p')
            .textContent({ timeout: 100 })
            .then((t) => {
              const stage = (t ?? '').replace(/….*/, '');
              if (!stages.has(stage)) {
                console.info(`${stage} from ${((Date.now() - started) / 1000).toFixed(1)} s`);
              }
              stages.add(stage);
            })
            .catch(() => undefined);
        }, 100);
        const [download] = await Promise.all([
          page.waitForEvent('download', { timeout: 240_000 + SHORT_SECONDS * 20_000 }),
          dialog.getByRole('button', { name: 'Export' }).click(),
        ]);
        clearInterval(watch);
        expect(download.suggestedFilename()).toMatch(/-tabs\.mp4$/);
        const file = path.join(work, 'converted.mp4');
        await download.saveAs(file);
        console.info(
          `MP4 export of a ${String(SHORT_SECONDS)} s lesson: ${((Date.now() - started) / 1000).toFixed(1)} s; stages seen: ${[...stages].join(' -> ')}`,
        );
        const probe = probeMedia(file);
        expect(probe.video).toMatchObject({ codec: 'h264', width: 1536, height: 2728 });
        expect(probe.audio).toMatchObject({ codec: 'aac' });
        expect(
          Math.abs(probe.duration - SHORT_SECONDS),
          `duration ${String(probe.duration)}`,
        ).toBeLessThan(0.1);
        expect([...stages]).toEqual(expect.arrayContaining(['Recording', 'Converting']));
      } finally {
        await context.close();
      }
    },
    300_000 + SHORT_SECONDS * 25_000,
  );

  it('MP4: a conversion that fails says so and downloads the WebM after the pause', async () => {
    const { context, page } = await pilotLesson('light', {
      file: shortVideo,
      seconds: SHORT_SECONDS,
    });
    try {
      // The recording arrives damaged: the server's converter cannot read it.
      await page.route('**/api/storage/object**', async (route) => {
        if (route.request().method() === 'PUT') {
          await route.continue({ postData: Buffer.from('this is not a WebM recording') });
        } else {
          await route.continue();
        }
      });
      const dialog = await openExport(page);
      await dialog.getByLabel('MP4 (plays everywhere)').check();
      const downloaded = page.waitForEvent('download', { timeout: 240_000 });
      await dialog.getByRole('button', { name: 'Export' }).click();
      const alert = dialog.getByText(
        'MP4 conversion failed: Conversion failed. Downloading WebM instead...',
      );
      await alert.waitFor({ timeout: 240_000 });
      const shown = Date.now();
      const download = await downloaded;
      // After the spec's 10 s pause, not before.
      expect(Date.now() - shown).toBeGreaterThan(9_000);
      expect(download.suggestedFilename()).toMatch(/-tabs\.webm$/);
      const file = path.join(work, 'fallback.webm');
      await download.saveAs(file);
      expect(probeMedia(file).video).toMatchObject({ width: 1536, height: 2728 });
    } finally {
      await context.close();
    }
  }, 300_000);
});
