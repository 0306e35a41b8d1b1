import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/a11y.js';
import { startApp, type RunningApp } from './support/app.js';
import { screenshot, sharedChromium } from './support/browser.js';
import { DESKTOP, shootBoth } from './support/shots.js';

/** The landing page a visitor sees first, signed out, on a desktop and on a phone. */
describe('landing page', () => {
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    app = await startApp();
    browser = await sharedChromium();
  });
  afterAll(async () => {
    await browser.close();
    await app.stop();
  });

  it('shows the headline, the three steps, the anchors and the sign-in prompt', async () => {
    const page = await browser.newPage({ viewport: DESKTOP, colorScheme: 'dark' });
    // A visitor's pages log nothing: no 401 for the token call a signed-out browser need not make.
    const logged: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') logged.push(m.text());
    });
    const tokenCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/auth/token')) tokenCalls.push(r.url());
    });
    await page.goto(app.url);
    await page.getByRole('heading', { name: 'You just play, we do the rest', level: 1 }).waitFor();
    for (const step of ['Upload Video', 'AI Processing', 'Get Results']) {
      await page.getByRole('heading', { name: step, exact: true }).waitFor();
    }
    expect(await page.locator('#upload').count()).toBe(1);
    expect(await page.locator('#how-it-works').count()).toBe(1);
    expect(await page.locator('a[href="#upload"]').count()).toBeGreaterThan(0);
    expect(await page.locator('a[href="#how-it-works"]').count()).toBeGreaterThan(0);
    await page.getByRole('heading', { name: 'Sign in to continue' }).waitFor();
    await page.getByText('Use your account to upload videos and view jobs.').waitFor();
    const cont = page.getByRole('link', { name: 'Continue with sign-in' });
    expect(await cont.getAttribute('href')).toMatch(/^\/api\/auth\/login\?returnTo=/);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, 'landing-dark-1440');

    await page.getByRole('link', { name: 'Explore Available Lessons' }).click();
    await page.waitForURL(`${app.url}/explore`);
    await page.getByRole('heading', { name: 'Available lessons' }).waitFor();
    // A fresh installation has nothing shared yet.
    await page.getByRole('heading', { name: 'No shared lessons yet' }).waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await shootBoth(page, 'explore-empty');
    expect(logged).toEqual([]);
    expect(tokenCalls).toEqual([]);
    await page.close();
  });

  it('looks right in light mode and at 390 px wide', async () => {
    const light = await browser.newPage({
      viewport: { width: 1440, height: 900 },
      colorScheme: 'light',
    });
    await light.goto(app.url);
    await light.getByRole('heading', { name: 'Sign in to continue' }).waitFor();
    expect(await seriousA11yViolations(light)).toEqual([]);
    await screenshot(light, 'landing-light-1440');
    await light.close();

    for (const colorScheme of ['dark', 'light'] as const) {
      const phone = await browser.newPage({
        viewport: { width: 390, height: 844 },
        colorScheme,
        isMobile: true,
        hasTouch: true,
      });
      await phone.goto(app.url);
      await phone.getByRole('heading', { name: 'Sign in to continue' }).waitFor();
      // Nothing may stick out sideways on a phone.
      const overflow = await phone.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBe(0);
      expect(await seriousA11yViolations(phone)).toEqual([]);
      await screenshot(phone, `landing-${colorScheme}-390`);
      await phone.close();
    }
  });
});
