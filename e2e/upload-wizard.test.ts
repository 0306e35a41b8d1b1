import { randomBytes } from 'node:crypto';
import { rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/a11y.js';
import { startApp, waitForLesson, type RunningApp } from './support/app.js';
import { signIn } from './support/auth.js';
import { holdStatusStream, launchChromium, screenshot } from './support/browser.js';
import { makeAudio, makeSparseFile, makeVideo, mediaDir } from './support/media.js';
import { DESKTOP, shootBoth } from './support/shots.js';

const SUBMIT_STATUSES = [
  'Initiating upload...',
  'Uploading...',
  'Upload complete! Creating thumbnail...',
  'Upload complete! Submitting for processing...',
];

/** Records every status line and upload-progress value the wizard shows. */
async function recordSubmitStatus(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { statuses: string[]; progress: number[] };
    w.statuses = [];
    w.progress = [];
    new MutationObserver(() => {
      const text = document.querySelector('.submit-message')?.textContent;
      if (text && w.statuses.at(-1) !== text) w.statuses.push(text);
      const bar = document.querySelector('[aria-label="Upload progress"]');
      if (bar) w.progress.push(Number(bar.getAttribute('aria-valuenow')));
    }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
  });
}

async function expectAccessible(page: Page) {
  expect(await seriousA11yViolations(page)).toEqual([]);
}

async function toPlayingStyle(page: Page, file: string) {
  await page.getByLabel('Choose a video file').setInputFiles(file);
  await page.getByRole('heading', { name: 'Guitar Setup' }).waitFor();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Playing Style' }).waitFor();
}

describe('upload wizard against the built server', () => {
  let app: RunningApp;
  let browser: Browser;
  let dir: string;
  let ok: string;
  let long: string;
  let silent: string;
  let audio: string;
  let big: string;
  let broken: string;

  beforeAll(async () => {
    app = await startApp({ ADMIN_EMAILS: 'boss@example.test' });
    browser = await launchChromium();
    dir = mediaDir();
    ok = makeVideo(dir, 'my-riff.mp4', 4);
    long = makeVideo(dir, 'long-take.mp4', 35);
    silent = makeVideo(dir, 'silent-take.mp4', 3, { sound: 'none' });
    audio = makeAudio(dir, 'take.mp3');
    big = makeSparseFile(dir, 'huge.mp4', 110 * 1024 * 1024);
    broken = path.join(dir, 'broken.mp4');
    writeFileSync(broken, randomBytes(64 * 1024));
  }, 180_000);

  afterAll(async () => {
    await browser.close();
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('shows each validation message of the upload step', async () => {
    const page = await browser.newPage({ viewport: DESKTOP, colorScheme: 'dark' });
    await signIn(page, app.url, { email: 'ada@example.test', name: 'Ada Lovelace' });
    await page.getByRole('heading', { name: 'Upload your playing' }).waitFor();
    await page.getByRole('tab', { name: 'Upload File' }).waitFor();
    await page.getByRole('tab', { name: 'Record Video' }).waitFor();
    await expectAccessible(page);
    await shootBoth(page, 'wizard-upload');

    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Please select a file to upload.', { exact: true }).waitFor();

    const input = page.getByLabel('Choose a video file');
    const cases: [string, string][] = [
      [
        audio,
        'Invalid file type. Please upload a video file (e.g., MP4, MOV, AVI, MKV). Audio files are not supported.',
      ],
      [big, 'File is too large (110.0MB). Maximum is 100MB.'],
      [long, 'Video is too long (35s). Maximum length is 30 seconds.'],
      [broken, 'Invalid or unsupported video file.'],
    ];
    for (const [file, message] of cases) {
      await input.setInputFiles(file);
      await page.getByRole('alert').filter({ hasText: message }).waitFor();
      expect(await page.getByRole('heading', { name: 'Guitar Setup' }).count()).toBe(0);
    }
    await expectAccessible(page);
    await shootBoth(page, 'wizard-invalid');
    await page.close();
  });

  it('uploads a real video through Guitar Setup and Playing Style and starts processing', async () => {
    const page = await browser.newPage({ viewport: DESKTOP, colorScheme: 'dark' });
    await recordSubmitStatus(page);
    await signIn(page, app.url, { email: 'ada@example.test', name: 'Ada Lovelace' });
    await page.getByText('3 creator · 10 view').waitFor();

    await page.getByLabel('Choose a video file').setInputFiles(ok);
    await page.getByRole('heading', { name: 'Guitar Setup' }).waitFor();
    await page.getByText('my-riff.mp4', { exact: true }).waitFor();
    await page.getByRole('radio', { name: /Electric/ }).check();
    await page.getByLabel('Tuning').selectOption('drop-d');
    await page.getByLabel('Capo').selectOption('2');
    await page.getByLabel('Hand position').selectOption({ label: 'Open position' });
    await expectAccessible(page);
    await shootBoth(page, 'wizard-setup');

    // Back returns one step and keeps the choices.
    await page.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('tab', { name: 'Upload File' }).waitFor();
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await page.getByRole('radio', { name: /Electric/ }).isChecked()).toBe(true);
    expect(await page.getByLabel('Hand position').inputValue()).toBe('open');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Playing Style' }).waitFor();
    await page.getByRole('radio', { name: /Solo/ }).check();
    await expectAccessible(page);
    await shootBoth(page, 'wizard-style');

    // The default message is checked below: keep the live stream from replacing it at once.
    await holdStatusStream(page);
    const processCall = page.waitForRequest((r) => r.url().endsWith('/api/process-video'));
    await page.getByRole('button', { name: 'GO!' }).click();
    const sent = (await processCall).postDataJSON() as Record<string, unknown>;
    expect(sent).toMatchObject({
      email: 'ada@example.test',
      fileName: 'my-riff.mp4',
      fileType: 'video/mp4',
      fileSize: statSync(ok).size,
    });
    expect(sent.config).toEqual({
      stem_type: 'solo',
      capo: 2,
      tuning: [38, 45, 50, 55, 59, 64],
      tuning_name: 'Drop D',
      guitar_type: 'electric',
      visible_frets: 23,
      pixels_per_second: 240,
      output_resolution: '1536x2728',
      fps: 30,
      clip_duration: null,
      neck_real_width: 466,
      neck_real_height: 42,
      skip_video_generation: false,
      amplitude_threshold: 0.4,
      onset_threshold: 0.7,
      frame_threshold: 0.3,
      minimum_note_length: 5,
      metadata: { duration: expect.closeTo(4, 0) as number },
      hand_position: 'open',
    });

    await page.getByRole('heading', { name: 'Processing Your Video' }).waitFor();
    await page.getByText('my-riff.mp4', { exact: true }).waitFor();
    await page.getByText('Your video is being processed by our AI.').waitFor();
    const jobId = new URL(page.url()).searchParams.get('jobId');
    expect(jobId).toMatch(/^[0-9a-f-]{36}$/);
    await page.getByText(jobId!, { exact: true }).waitFor();
    await page.getByText('2 creator · 10 view').waitFor();

    const seen = await page.evaluate(() => {
      const w = window as unknown as { statuses: string[]; progress: number[] };
      return { statuses: w.statuses, progress: w.progress };
    });
    expect(seen.statuses).toEqual(SUBMIT_STATUSES);
    expect(Math.max(...seen.progress)).toBe(100);
    // The thumbnail made in the browser was sent and is no longer kept.
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.goto(`${app.url}/my-videos`);
    await page.locator('.video-row img').first().waitFor();
    await page.close();
  });

  it('a start the server refuses shows the failure screen with its error', async () => {
    const page = await browser.newPage({ viewport: DESKTOP, colorScheme: 'dark' });
    await signIn(page, app.url, { email: 'cy@example.test', name: 'Cy' });
    await toPlayingStyle(page, silent);
    // The upload itself goes through; process-video then finds no sound track in the stored file.
    const start = page.waitForResponse((r) => r.url().endsWith('/api/process-video'));
    await page.getByRole('button', { name: 'GO!' }).click();
    expect((await start).status()).toBe(400);
    await page.getByRole('heading', { name: 'Processing Unsuccessful' }).waitFor();
    const fact = (label: string) =>
      page
        .locator('.fact')
        .filter({ has: page.getByText(label, { exact: true }) })
        .locator('dd');
    // Issue 37: it says what is wrong with the video, and which request support can look up.
    expect(await fact('Error message').textContent()).toBe(
      'This video has no sound track. Record or export it with sound and upload it again.',
    );
    expect(await fact('Request ID').textContent()).toBe((await start).headers()['x-request-id']);
    expect(await fact('Job ID').textContent()).toBe('—');
    expect(await fact('E-mail').textContent()).toBe('cy@example.test');
    expect(new URL(page.url()).searchParams.get('jobId')).toBeNull();
    await expectAccessible(page);
    await shootBoth(page, 'start-failed');
    await page.getByRole('button', { name: 'Try a Different File' }).click();
    await page.getByRole('heading', { name: 'Upload your playing' }).waitFor();
    await page.getByRole('tab', { name: 'Upload File' }).waitFor();
    await page.close();
  });

  it('a session that ended meanwhile: "Error: ..." in red before the start; GO! works again', async () => {
    const page = await browser.newPage({ viewport: DESKTOP, colorScheme: 'dark' });
    await signIn(page, app.url, { email: 'eve@example.test', name: 'Eve' });
    await toPlayingStyle(page, ok);
    // Signed out elsewhere, and the short-lived access token has run out since.
    await page.evaluate(() =>
      fetch('/api/auth/logout', { method: 'POST', headers: { 'x-requested-with': 'riffscribe' } }),
    );
    await page.clock.install();
    await page.clock.fastForward('30:00');
    await page.getByRole('button', { name: 'GO!' }).click();
    const error = page.getByRole('alert').filter({ hasText: /^Error: / });
    await error.waitFor();
    expect(await error.textContent()).toBe(
      'Error: Please sign in with the identity provider to continue.',
    );
    const color = await error.evaluate((el) => getComputedStyle(el).color);
    const [r, g, b] = (color.match(/\d+/g) ?? []).map(Number);
    expect(r).toBeGreaterThan(200);
    expect(g).toBeLessThan(150);
    expect(b).toBeLessThan(150);
    expect(await page.getByRole('button', { name: 'GO!' }).isEnabled()).toBe(true);
    expect(await page.getByRole('heading', { name: 'Playing Style' }).count()).toBe(1);
    await expectAccessible(page);
    await shootBoth(page, 'wizard-error');
    await page.close();
  });

  it('pilots and admins have no size or length limit', async () => {
    const page = await browser.newPage({ viewport: DESKTOP, colorScheme: 'dark' });
    await signIn(page, app.url, { email: 'boss@example.test', name: 'The Boss' });
    await page.getByLabel('Choose a video file').setInputFiles(big);
    // Not refused for its size: the browser then finds it is no video.
    await page.getByText('Invalid or unsupported video file.').waitFor();
    await page.getByLabel('Choose a video file').setInputFiles(long);
    await page.getByRole('heading', { name: 'Guitar Setup' }).waitFor();
    await page.getByText('long-take.mp4', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Choose different file' }).click();
    await page.getByRole('tab', { name: 'Upload File' }).waitFor();
    await page.close();
  });

  it('a tuning of one’s own: six open strings go with the job, and the player names them', async () => {
    const page = await browser.newPage({ viewport: DESKTOP, colorScheme: 'dark' });
    await signIn(page, app.url, { email: 'tuner@example.test', name: 'Open Tuner' });
    await page.getByLabel('Choose a video file').setInputFiles(ok);
    await page.getByRole('heading', { name: 'Guitar Setup' }).waitFor();
    await page.getByLabel('Tuning').selectOption('custom');
    // Open C: C2 G2 C3 G3 C4 E4, low string first.
    const strings = ['C2', 'G2', 'C3', 'G3', 'C4', 'E4'];
    for (const [k, note] of strings.entries()) {
      await page.getByLabel(`String ${String(6 - k)} open note`).selectOption({ label: note });
    }
    await page.getByRole('option', { name: 'Custom (C G C G C E)' }).waitFor({ state: 'attached' });
    await expectAccessible(page);
    await shootBoth(page, 'wizard-setup-custom-tuning');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Playing Style' }).waitFor();
    const processCall = page.waitForRequest((r) => r.url().endsWith('/api/process-video'));
    await page.getByRole('button', { name: 'GO!' }).click();
    const sent = (await processCall).postDataJSON() as { config: Record<string, unknown> };
    expect(sent.config).toMatchObject({ tuning: [36, 43, 48, 55, 60, 64], tuning_name: 'Custom' });
    // The lesson opens with the staff named from that tuning, high string on top.
    await waitForLesson(page);
    await expect
      .poll(() => page.getByTestId('string-names').locator('span').allTextContents())
      .toEqual(['e', 'C', 'G', 'C', 'G', 'C']);
    await page.close();
  });

  it('light mode', async () => {
    const page = await browser.newPage({ viewport: DESKTOP, colorScheme: 'light' });
    await signIn(page, app.url, { email: 'ada@example.test', name: 'Ada Lovelace' });
    await page.getByRole('heading', { name: 'Upload your playing' }).waitFor();
    await expectAccessible(page);
    await screenshot(page, 'wizard-upload-light-1440');
    await page.getByLabel('Choose a video file').setInputFiles(ok);
    await page.getByRole('heading', { name: 'Guitar Setup' }).waitFor();
    await expectAccessible(page);
    await shootBoth(page, 'wizard-setup-light');
    await page.close();
  });
});

describe('out of creator credits', () => {
  let app: RunningApp;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    app = await startApp({ SIGNUP_CREATOR_CREDITS: '0' });
    browser = await launchChromium();
    dir = mediaDir();
  });
  afterAll(async () => {
    await browser.close();
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('GO! opens the out-of-credits dialog instead of uploading', async () => {
    const page = await browser.newPage({ viewport: DESKTOP, colorScheme: 'dark' });
    await signIn(page, app.url, { email: 'dee@example.test', name: 'Dee' });
    await page.getByText('0 creator · 10 view').waitFor();
    await toPlayingStyle(page, makeVideo(dir, 'riff.mp4', 2));
    let uploadAsked = false;
    page.on('request', (r) => {
      if (r.url().includes('/api/generate-signed-upload-url')) uploadAsked = true;
    });
    await page.getByRole('button', { name: 'GO!' }).click();
    const dialog = page.getByRole('dialog', { name: 'Out of credits' });
    await dialog.waitFor();
    await dialog
      .getByText('Unfortunately you are out of creator credits. Get more to continue.')
      .waitFor();
    expect(await dialog.getByRole('link', { name: 'Get more credits' }).getAttribute('href')).toBe(
      '/credits',
    );
    expect(uploadAsked).toBe(false);
    await expectAccessible(page);
    await shootBoth(page, 'out-of-credits');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('button', { name: 'GO!' }).click();
    await dialog.getByRole('link', { name: 'Get more credits' }).click();
    await page.waitForURL(`${app.url}/credits`);
    await page.getByRole('heading', { name: 'Credits and Pro' }).waitFor();
    await page.close();
  });
});
