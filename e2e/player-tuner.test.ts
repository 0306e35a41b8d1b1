import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../apps/server/test/support/test-server.js';
import { launchChromium, screenshot } from './support/browser.js';
import { techniqueLesson } from './support/lesson-data.js';
import { openLesson } from './support/player.js';
import { signIn } from './support/auth.js';
import { seedLesson, startServerWithWeb, userByEmail } from './support/lessons.js';
import { makeToneWav, makeVideo, mediaDir } from './support/media.js';

/** 125 Hz: the nearest string of the lesson (standard tuning, capo 2) is string 5, B2 (123.47 Hz). */
const TONE_HZ = 125;
const EXPECTED_CENTS = 1200 * Math.log2(TONE_HZ / 123.4708);

/** The tuner with Chromium's fake microphone playing a known tone from a WAV file. */
describe('tuner with a fake microphone', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let jobId: string;
  let work: string;

  beforeAll(async () => {
    work = mediaDir();
    const wav = makeToneWav(work, TONE_HZ, 20);
    server = await startServerWithWeb();
    browser = await launchChromium([
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${wav}`,
    ]);
    page = await browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: 'dark' });
    await signIn(page, server.url, { email: 'tuner@example.test', name: 'Tuner Player' });
    jobId = await seedLesson(server, await userByEmail(server, 'tuner@example.test'), {
      ...techniqueLesson(),
      video: makeVideo(work, 'lesson.mp4', 12, { sound: 'tone', portrait: true }),
      duration: 12,
    });
    await openLesson(page, server.url, jobId);
  });

  afterAll(async () => {
    await browser.close();
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('hears the tone, names the nearest string with the capo and shows the cents', async () => {
    await page.getByRole('button', { name: 'Tuner' }).click();
    const reading = page.getByTestId('tuner-cents');
    await reading.waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('tuner-string').getAttribute('data-string')).toBe('5');
    expect(await page.getByTestId('tuner-string').textContent()).toContain('B2');
    // The reading settles within a few analysis frames of the tone's start (its first frames may
    // hold a partial window, later on a busy machine): wait for it to come within 4 cents, then
    // read the number and the meter at one moment.
    await page.waitForFunction(
      ([expected]) => {
        const cents = Number(
          document.querySelector('[data-testid="tuner-cents"]')?.getAttribute('data-cents'),
        );
        return Math.abs(cents - (expected ?? 0)) < 4;
      },
      [EXPECTED_CENTS],
      { timeout: 15_000 },
    );
    const { cents, meter } = await page.evaluate(() => ({
      cents: Number(
        document.querySelector('[data-testid="tuner-cents"]')?.getAttribute('data-cents'),
      ),
      meter: document.querySelector('[role="meter"]')?.getAttribute('aria-valuenow'),
    }));
    expect(cents).toBeGreaterThan(EXPECTED_CENTS - 4);
    expect(cents).toBeLessThan(EXPECTED_CENTS + 4);
    expect(meter).toBe(String(Math.round(cents)));
    // The viewport only: a whole-page capture resizes the window for a moment.
    await screenshot(page, 'player-tuner-1440', { of: page.getByTestId('tuner') });
    await page.getByRole('button', { name: 'Close' }).click();
    expect(await page.getByTestId('tuner').isVisible()).toBe(false);
  });

  it('a window made narrow covers the player and gives it back as it was', async () => {
    await page.getByRole('button', { name: 'Tuner' }).click();
    await page.getByTestId('tuner-cents').waitFor();
    await page.setViewportSize({ width: 800, height: 900 });
    await page.getByText('Desktop Experience Required').waitFor();
    expect(await page.getByTestId('tuner').isVisible()).toBe(false);
    await page.setViewportSize({ width: 1440, height: 900 });
    // The same player, with its dialog still open: nothing was unmounted.
    await page.getByTestId('tuner-cents').waitFor();
    await page.getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('tuner').waitFor({ state: 'hidden' });
  });
});
