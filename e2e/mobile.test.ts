import { rmSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/a11y.js';
import { startApp, type RunningApp } from './support/app.js';
import { signIn } from './support/auth.js';
import { sharedChromium } from './support/browser.js';
import { makeVideo, mediaDir } from './support/media.js';
import { DESKTOP, PHONE, shootBoth } from './support/shots.js';

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/** Small screens and mobile user agents: file mode only, and no player. */
describe('small screens', () => {
  let app: RunningApp;
  let browser: Browser;
  let jobId: string;
  let dir: string;

  beforeAll(async () => {
    app = await startApp();
    dir = mediaDir();
    browser = await sharedChromium();
    // A job of the user's own, submitted from a desktop.
    const page = await browser.newPage({ viewport: DESKTOP });
    await signIn(page, app.url, { email: 'mo@example.test', name: 'Mo' });
    await page.getByLabel('Choose a video file').setInputFiles(makeVideo(dir, 'riff.mp4', 3));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'GO!' }).click();
    await page.getByRole('heading', { name: 'Processing Your Video' }).waitFor();
    jobId = new URL(page.url()).searchParams.get('jobId') ?? '';
    await page.close();
  }, 120_000);
  afterAll(async () => {
    await browser.close();
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function phone(): Promise<BrowserContext> {
    return browser.newContext({
      viewport: PHONE,
      userAgent: IPHONE_UA,
      isMobile: true,
      hasTouch: true,
      colorScheme: 'dark',
    });
  }

  it('hides Record Video on a phone and under 1024 px on a desktop', async () => {
    const context = await phone();
    const page = await context.newPage();
    await signIn(page, app.url, { email: 'mo@example.test', name: 'Mo' });
    await page.getByLabel('Choose a video file').waitFor({ state: 'attached' });
    expect(await page.getByRole('tab', { name: 'Record Video' }).count()).toBe(0);
    expect(await page.getByRole('tablist').count()).toBe(0);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await context.close();

    const narrow = await browser.newPage({ viewport: { width: 1000, height: 800 } });
    await signIn(narrow, app.url, { email: 'mo@example.test', name: 'Mo' });
    await narrow.getByLabel('Choose a video file').waitFor({ state: 'attached' });
    expect(await narrow.getByRole('tab', { name: 'Record Video' }).count()).toBe(0);
    await narrow.setViewportSize({ width: 1024, height: 800 });
    await narrow.getByRole('tab', { name: 'Record Video' }).waitFor();
    await narrow.close();
  });

  it('opens a job on a phone as Desktop Experience Required, with no status call', async () => {
    const context = await phone();
    const page = await context.newPage();
    await signIn(page, app.url, { email: 'mo@example.test', name: 'Mo' });
    await page.getByText('2 creator · 10 view').waitFor();
    const calls: string[] = [];
    page.on('request', (r) => {
      const { pathname } = new URL(r.url());
      if (pathname.startsWith('/api/')) calls.push(pathname);
    });
    await page.goto(`${app.url}/?jobId=${jobId}`);
    await page.getByRole('heading', { name: 'Desktop Experience Required' }).waitFor();
    await page.getByText(/works only on full-size screens like laptops or desktops/).waitFor();
    await page.getByText(/No view credits were used/).waitFor();
    await page.getByText('2 creator · 10 view').waitFor();
    for (const forbidden of ['/api/check-status', '/api/job', '/api/notes', '/api/job-load']) {
      expect(calls).not.toContain(forbidden);
    }
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shootBoth(page, 'desktop-required-phone');
    await page.getByRole('button', { name: 'Go Back' }).click();
    await page.getByRole('heading', { name: 'Upload your playing' }).waitFor();
    expect(new URL(page.url()).searchParams.get('jobId')).toBeNull();
    await context.close();
  });
});
