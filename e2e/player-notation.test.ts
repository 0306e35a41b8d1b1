import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { plainNote } from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/auth.js';
import { downloadBytes, screenshot, SCREENSHOT_DIR, sharedChromium } from './support/browser.js';
import { techniqueLesson } from './support/lesson-data.js';
import { seedLesson, startServerWithWeb, userByEmail, type TestServer } from './support/lessons.js';
import { makeVideo, mediaDir } from './support/media.js';
import { openLesson, seekTo, showView } from './support/player.js';
import { DESKTOP } from './support/shots.js';

/**
 * Issue 15: the notation view (standard notation and tab by bars, alphaTab) in the player of a
 * processed lesson, against the real server and web build: switch to it, play and see the cursor
 * follow the video, click a beat to seek, print to PDF.
 */
describe('the notation view', () => {
  let server: TestServer;
  let browser: Browser;
  let work: string;
  let video: string;
  let users = 0;

  beforeAll(async () => {
    work = mediaDir();
    video = makeVideo(work, 'notation.mp4', 12, { sound: 'tone' });
    server = await startServerWithWeb();
    browser = await sharedChromium();
  });
  afterAll(async () => {
    await browser.close();
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  async function lessonPage(
    scheme: 'light' | 'dark',
  ): Promise<{ context: BrowserContext; page: Page; jobId: string }> {
    const context = await browser.newContext({
      viewport: DESKTOP,
      colorScheme: scheme,
      acceptDownloads: true,
    });
    const page = await context.newPage();
    users += 1;
    const email = `nora-${String(users)}@example.test`;
    await signIn(page, server.url, { email, name: 'Nora Notes' });
    const owner = await userByEmail(server, email);
    const jobId = await seedLesson(server, owner, { ...techniqueLesson(), video, duration: 12 });
    await openLesson(page, server.url, jobId);
    return { context, page, jobId };
  }

  const openNotation = (page: Page) => showView(page, 'Notation');

  it('renders, follows the video, seeks on a click and prints', async () => {
    const { context, page } = await lessonPage('light');
    try {
      await openNotation(page);
      await seekTo(page, 0.6);
      await screenshot(page, 'player-notation-light-1440');

      // The cursor follows the video: its beat marker moves right as the time goes on.
      const cursorX = () =>
        page.locator('.at-cursor-beat').evaluate((el) => el.getBoundingClientRect().x);
      const before = await cursorX();
      await seekTo(page, 3.5);
      await expect.poll(cursorX).toBeGreaterThan(before);
      // ...and while it plays (from the start of bar 1: the cursor stays on the first line).
      await seekTo(page, 0.1);
      const atStart = await cursorX();
      await page.getByRole('button', { name: 'Play', exact: true }).click();
      await expect.poll(cursorX, { timeout: 10_000 }).toBeGreaterThan(atStart + 20);
      await page.getByRole('button', { name: 'Pause', exact: true }).click();

      // Click to seek: a click on a later beat moves the video there.
      const time = () =>
        page.evaluate(
          () => document.querySelector<HTMLVideoElement>('.lp video')?.currentTime ?? -1,
        );
      await seekTo(page, 0);
      // On the first line of bars (where the cursor's bar is), three quarters across.
      const surface = await page.locator('.lp-notation .at-surface').first().boundingBox();
      const line = await page.locator('.lp-notation .at-cursor-bar').boundingBox();
      if (!surface || !line) throw new Error('no notation surface or cursor');
      await page.mouse.click(surface.x + surface.width * 0.75, line.y + line.height / 2);
      await expect.poll(time).toBeGreaterThan(1);

      // Print: the whole sheet, drawn apart from the player, alone on the pages. The browser's
      // own print dialog is counted, not opened: a real one in headless Chromium is a print job
      // of its own, and page.pdf below would race it ("Page is already being printed").
      await page.evaluate(() => {
        const counted = window as unknown as { printCalls: number };
        counted.printCalls = 0;
        window.print = () => {
          counted.printCalls += 1;
        };
      });
      await page.locator('.lp-notation').getByRole('button', { name: 'Print' }).click();
      await page.locator('.lp-print-sheet[data-state="ready"]').waitFor({ timeout: 60_000 });
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { printCalls: number }).printCalls))
        .toBe(1);
      const pdf = await page.pdf({ format: 'A4', printBackground: true });
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
      const { writeFileSync } = await import('node:fs');
      writeFileSync(path.join(SCREENSHOT_DIR, 'player-notation-print.pdf'), pdf);
    } finally {
      await context.close();
    }
  });

  it('downloads the tab as Guitar Pro, MusicXML, MIDI and text from the share menu', async () => {
    const { context, page } = await lessonPage('light');
    try {
      const expected: [string, string, (bytes: Buffer) => boolean][] = [
        ['Guitar Pro 7 (.gp)', 'riff.gp', (b) => b.subarray(0, 2).toString() === 'PK'],
        ['MusicXML (.musicxml)', 'riff.musicxml', (b) => b.toString().includes('<fret>')],
        ['MIDI (.mid)', 'riff.mid', (b) => b.subarray(0, 4).toString() === 'MThd'],
        ['Text tab (.txt)', 'riff.txt', (b) => b.toString().includes('e|')],
      ];
      for (const [label, name, looksRight] of expected) {
        await page.getByRole('button', { name: 'Share' }).click();
        const menu = page.getByRole('dialog', { name: 'Share' });
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          menu.getByRole('button', { name: label }).click(),
        ]);
        expect(download.suggestedFilename()).toBe(name);
        expect(looksRight(await downloadBytes(download)), label).toBe(true);
      }
    } finally {
      await context.close();
    }
  });

  it('scrolls to the bar being played, however far down the lesson it is (issue 37)', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    try {
      await signIn(page, server.url, { email: 'long@example.test', name: 'Long Lesson' });
      const owner = await userByEmail(server, 'long@example.test');
      // 28 s of eighth notes at 120 bpm: 14 bars, more lines of notation than the view shows.
      const notes = Array.from({ length: 56 }, (_, i) =>
        plainNote({ time: i * 0.5, end_time: i * 0.5 + 0.4, string: 1 + (i % 6), fret: i % 12 }),
      );
      const longVideo = makeVideo(work, 'long.mp4', 28, { sound: 'tone' });
      const jobId = await seedLesson(server, owner, {
        notes,
        chords: [],
        results: { ...techniqueLesson().results, duration: 28 },
        video: longVideo,
        duration: 28,
      });
      await openLesson(page, server.url, jobId);
      await openNotation(page);
      // The cursor's bar lies inside the scrolled view, at the start and far into the lesson.
      const cursorInView = () =>
        page.evaluate(() => {
          const view = document.querySelector('.lp-notation')!.getBoundingClientRect();
          const bar = document
            .querySelector('.lp-notation .at-cursor-bar')!
            .getBoundingClientRect();
          return bar.height > 0 && bar.top >= view.top - 1 && bar.bottom <= view.bottom + 1;
        });
      await seekTo(page, 1);
      await expect.poll(cursorInView).toBe(true);
      for (const t of [14, 26]) {
        await seekTo(page, t);
        await expect.poll(cursorInView).toBe(true);
      }
      await screenshot(page, 'player-notation-followed-1440');
      await page.emulateMedia({ colorScheme: 'dark' });
      await screenshot(page, 'player-notation-followed-dark-1440');
    } finally {
      await context.close();
    }
  });

  it('reads in the dark colour scheme', async () => {
    const { context, page } = await lessonPage('dark');
    try {
      await openNotation(page);
      await seekTo(page, 0.6);
      await screenshot(page, 'player-notation-dark-1440');
    } finally {
      await context.close();
    }
  });
});
