import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/a11y.js';
import { startApp, type RunningApp } from './support/app.js';
import { signIn } from './support/auth.js';
import { launchChromium, screenshot } from './support/browser.js';
import { DESKTOP } from './support/shots.js';

const FAKE_CAMERA = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'];

async function openRecorder(page: Page) {
  await page.getByRole('tab', { name: 'Record Video' }).click();
  await page.getByRole('button', { name: 'Start Camera' }).click();
  await page.getByRole('button', { name: 'Start Recording' }).waitFor();
  // The live preview plays the camera.
  await expect
    .poll(() => page.getByLabel('Camera preview').evaluate((v: HTMLVideoElement) => v.videoWidth))
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
    const page = await browser.newPage({ viewport: DESKTOP, colorScheme: 'dark' });
    await signIn(page, app.url, { email: 'rec@example.test', name: 'Rec' });
    await page.getByRole('tab', { name: 'Record Video' }).click();
    await page.getByRole('button', { name: 'Start Camera' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'record-idle-1440');

    await openRecorder(page);
    await page.getByRole('button', { name: 'Cancel' }).waitFor();
    await page.getByRole('button', { name: 'Start Recording' }).click();
    await page.getByRole('timer').filter({ hasText: 'REC 00:01' }).waitFor();
    await screenshot(page, 'record-recording-1440');
    await page.getByRole('button', { name: 'Stop Recording' }).click();
    await page.getByLabel('Recording preview').waitFor();
    await page.getByRole('button', { name: 'Use This Recording' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'record-preview-1440');

    await page.getByRole('button', { name: 'Re-record' }).click();
    await page.getByRole('button', { name: 'Start Recording' }).click();
    await page.getByRole('timer').filter({ hasText: 'REC 00:02' }).waitFor();
    await page.getByRole('button', { name: 'Stop Recording' }).click();
    await page.getByRole('button', { name: 'Use This Recording' }).click();

    await page.getByRole('heading', { name: 'Guitar Setup' }).waitFor();
    const chosen = page.locator('.selected-video');
    expect(await chosen.locator('.selected-video-name').textContent()).toMatch(
      /^recording-[\d-]+\.webm$/,
    );
    await chosen.getByText(/recorded/).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'GO!' }).click();
    await page.getByRole('heading', { name: 'Processing Your Video' }).waitFor();
    await page.getByText(/^recording-[\d-]+\.webm$/).waitFor();
    await page.close();
  });

  it('warns from 20 s and stops by itself at 30 s for ordinary users', async () => {
    const page = await browser.newPage({ viewport: DESKTOP, colorScheme: 'dark' });
    await signIn(page, app.url, { email: 'rec@example.test', name: 'Rec' });
    await page.clock.install();
    await page.reload();
    await openRecorder(page);
    await page.getByRole('button', { name: 'Start Recording' }).click();
    // The installed clock also flows with real time, so a loaded machine may add a second or
    // two between the steps: each check leaves that much room.
    await page.clock.runFor(18_000);
    expect(await page.getByText(/s remaining$/).count()).toBe(0);
    await page.clock.runFor(2_500);
    await page.getByText(/^(10|9|8)s remaining$/).waitFor();
    await page.clock.runFor(5_000);
    await page.getByText(/^[3-5]s remaining$/).waitFor();
    // Recording exists only on wide screens: one picture, at 1440 px.
    await screenshot(page, 'record-countdown-1440');
    await page.clock.runFor(5_000);
    // The take arrives with the recorder's stop event, after runFor returns; a locator's
    // waitFor re-checks on animation frames, which the installed clock holds, so poll instead,
    // giving the browser time to hand over a 30 s take on a busy machine.
    await expect
      .poll(() => page.getByRole('button', { name: 'Use This Recording' }).count(), {
        timeout: 20_000,
        interval: 200,
      })
      .toBe(1);
    expect(await page.getByRole('button', { name: 'Stop Recording' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Use This Recording' }).click();
    await page.getByRole('heading', { name: 'Guitar Setup' }).waitFor();
    await page
      .locator('.selected-video')
      .getByText(/· 30\.0 s/)
      .waitFor();
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
