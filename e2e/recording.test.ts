import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/a11y.js';
import { startApp, type RunningApp } from './support/app.js';
import { signIn } from './support/auth.js';
import {
  holdStatusStream,
  launchChromium,
  pageReport,
  screenshot,
  watchPage,
} from './support/browser.js';
import { holdClock } from './support/clock.js';
import { DESKTOP } from './support/shots.js';

const FAKE_CAMERA = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'];

/**
 * Installs the page clock (flowing with real time until `holdClock`), so that the recorder's timer
 * and its 30 s stop can later be held and moved only by the test (the camera and the recorder
 * itself still run on real time).
 */
async function installClock(page: Page) {
  await page.clock.install();
  await page.reload();
}

/** Lets real time pass on the test's side (the page clock may be held meanwhile). */
function realSeconds(seconds: number) {
  return new Promise((resolve) => setTimeout(resolve, seconds * 1000));
}

/**
 * Waits until `locator` is on the page, polled from the test side (no animation frames); on
 * failure, says what the page showed and logged.
 */
async function shows(locator: Locator) {
  try {
    await expect.poll(() => locator.count(), { timeout: 60_000, interval: 100 }).toBeGreaterThan(0);
  } catch (error) {
    throw new Error(`${String(locator)} did not show.\n${await pageReport(locator.page())}`, {
      cause: error,
    });
  }
}

/**
 * A click event dispatched on `locator` once it is there (React handles it as a click). While the
 * page clock is held, animation frames are held too, and Playwright's click waits for the element
 * to be stable over two frames.
 */
async function tap(locator: Locator) {
  await shows(locator);
  await locator.dispatchEvent('click');
}

async function openRecorder(page: Page) {
  await page.getByRole('tab', { name: 'Record Video' }).click();
  await page.getByRole('button', { name: 'Start Camera' }).click();
  await page.getByRole('button', { name: 'Start Recording' }).waitFor();
  // The live preview plays the camera.
  await expect
    .poll(() => page.getByLabel('Camera preview').evaluate((v: HTMLVideoElement) => v.videoWidth), {
      timeout: 60_000,
    })
    .toBeGreaterThan(0);
}

/** Recording with Chromium's fake camera and microphone. */
describe('Record Video', () => {
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    app = await startApp();
    browser = await launchChromium(FAKE_CAMERA);
  });
  afterAll(async () => {
    await browser.close();
    await app.stop();
  });

  it('records, previews, re-records, uses the take and submits it', async () => {
    const page = watchPage(await browser.newPage({ viewport: DESKTOP, colorScheme: 'dark' }));
    await signIn(page, app.url, { email: 'rec@example.test', name: 'Rec' });
    await installClock(page);
    await page.getByRole('tab', { name: 'Record Video' }).click();
    await page.getByRole('button', { name: 'Start Camera' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'record-idle-1440');

    await openRecorder(page);
    // Scrolled so that the top of the camera's picture is under the sticky header (a laptop
    // screen, a scroll to the buttons): starting to record brings the timer back into sight.
    await page.evaluate(() => {
      const stage = document.querySelector('.recorder-stage');
      const header = document.querySelector('header');
      if (!stage || !header) return;
      const under = stage.getBoundingClientRect().top - header.getBoundingClientRect().bottom;
      window.scrollTo({ top: window.scrollY + under + 30, behavior: 'instant' });
    });
    await page.getByRole('button', { name: 'Cancel' }).waitFor();
    await holdClock(page);
    // By keyboard: a pointer click would scroll the page itself.
    await page.getByRole('button', { name: 'Start Recording' }).focus();
    await page.keyboard.press('Enter');
    await page.clock.runFor(1_000);
    await shows(page.getByRole('timer').filter({ hasText: 'REC 00:01' }));
    // The timer is in sight, not under the sticky header.
    await expect
      .poll(() =>
        page.evaluate(() => {
          const timer = document.querySelector('[role="timer"]');
          const header = document.querySelector('header');
          if (!timer || !header) return -1;
          return timer.getBoundingClientRect().top - header.getBoundingClientRect().bottom;
        }),
      )
      .toBeGreaterThanOrEqual(0);
    // Real time too: the fake clock's second is not a second of video.
    await page.waitForTimeout(600);
    await screenshot(page, 'record-recording-1440', { of: page.locator('.recorder') });
    await tap(page.getByRole('button', { name: 'Stop Recording' }));
    await shows(page.getByLabel('Recording preview'));
    await shows(page.getByRole('button', { name: 'Use This Recording' }));
    // Stopped: nothing waits on the clock now, and axe-core needs its timers.
    await page.clock.resume();
    // The preview knows the take's length (MediaRecorder writes none: the app writes it into
    // the WebM) and shows a frame of it, not 0:00 on black.
    await expect
      .poll(() =>
        page
          .getByLabel('Recording preview')
          .evaluate((v: HTMLVideoElement) => [
            Number.isFinite(v.duration) && v.duration > 0,
            v.currentTime > 0,
          ]),
      )
      .toEqual([true, true]);
    expect(await seriousA11yViolations(page)).toEqual([]);
    // Of the recorder, not the full page: Chromium draws a full page by resizing the viewport for a
    // moment, which the page sees as a narrow window (recording hidden) and drops the take.
    await screenshot(page, 'record-preview-1440', { of: page.locator('.recorder') });

    // A window made narrow for a moment hides recording (under 1024 px) but keeps the take.
    await page.setViewportSize({ width: 900, height: DESKTOP.height });
    await page.getByRole('tab', { name: 'Record Video' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Use This Recording' }).isVisible()).toBe(false);
    await page.setViewportSize(DESKTOP);
    await shows(page.getByLabel('Recording preview'));
    await page.getByRole('button', { name: 'Use This Recording' }).waitFor();

    await tap(page.getByRole('button', { name: 'Re-record' }));
    await holdClock(page);
    await tap(page.getByRole('button', { name: 'Start Recording' }));
    await page.clock.runFor(2_000);
    await shows(page.getByRole('timer').filter({ hasText: 'REC 00:02' }));
    // This take is the one submitted, so it must hold real footage: the camera records on real
    // time, which the held page clock does not move. Two real seconds, at least.
    await realSeconds(2);
    await tap(page.getByRole('button', { name: 'Stop Recording' }));
    await tap(page.getByRole('button', { name: 'Use This Recording' }));
    await shows(page.getByRole('heading', { name: 'Guitar Setup' }));
    await page.clock.resume();

    const chosen = page.locator('.selected-video');
    expect(await chosen.locator('.selected-video-name').textContent()).toMatch(
      /^recording-[\d-]+\.webm$/,
    );
    await chosen.getByText(/recorded/).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    // The processing screen is checked below: keep the live stream from moving past it at once.
    await holdStatusStream(page);
    await page.getByRole('button', { name: 'GO!' }).click();
    await page.getByRole('heading', { name: 'Processing Your Video' }).waitFor();
    await page.getByText(/^recording-[\d-]+\.webm$/).waitFor();
    await page.close();
  });

  it('warns from 20 s and stops by itself at 30 s for ordinary users', async () => {
    const page = watchPage(await browser.newPage({ viewport: DESKTOP, colorScheme: 'dark' }));
    await signIn(page, app.url, { email: 'rec@example.test', name: 'Rec' });
    await installClock(page);
    await openRecorder(page);
    await holdClock(page);
    await tap(page.getByRole('button', { name: 'Start Recording' }));
    // The recorder's clock moves only here: the warnings and the stop come at exactly these
    // times, however busy the machine is.
    await page.clock.runFor(18_000);
    await shows(page.getByRole('timer').filter({ hasText: 'REC 00:18' }));
    expect(await page.getByText(/s remaining$/).count()).toBe(0);
    await page.clock.runFor(2_500);
    await shows(page.getByText(/^(10|9)s remaining$/));
    await page.clock.runFor(5_000);
    await shows(page.getByText(/^[45]s remaining$/));
    // Recording exists only on wide screens: one picture, at 1440 px.
    await screenshot(page, 'record-countdown-1440', { of: page.locator('.recorder') });
    await page.clock.runFor(5_000);
    // The take arrives with the recorder's stop event, after runFor returns.
    await shows(page.getByRole('button', { name: 'Use This Recording' }));
    expect(await page.getByRole('button', { name: 'Stop Recording' }).count()).toBe(0);
    await tap(page.getByRole('button', { name: 'Use This Recording' }));
    await shows(page.getByRole('heading', { name: 'Guitar Setup' }));
    await shows(page.locator('.selected-video').getByText(/· 30\.0 s/));
    await page.clock.resume();
    await page.close();
  });
});

describe('Record Video without camera permission', () => {
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    app = await startApp();
    browser = await launchChromium([
      '--use-fake-device-for-media-stream',
      '--deny-permission-prompts',
    ]);
  });
  afterAll(async () => {
    await browser.close();
    await app.stop();
  });

  it('says the camera could not be used', async () => {
    const page = await browser.newPage({ viewport: DESKTOP, colorScheme: 'dark' });
    await signIn(page, app.url, { email: 'nocam@example.test', name: 'No Cam' });
    await page.getByRole('tab', { name: 'Record Video' }).click();
    await page.getByRole('button', { name: 'Start Camera' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Unable to access camera. Please ensure camera permissions are granted.' })
      .waitFor();
    await page.getByRole('button', { name: 'Start Camera' }).waitFor();
    await screenshot(page, 'record-denied-1440');
    await page.close();
  });
});
