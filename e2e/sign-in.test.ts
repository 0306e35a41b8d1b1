import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from './support/app.js';
import { screenshot, sharedChromium } from './support/browser.js';

/** A person signs in through the built-in development provider in a real browser. */
describe('sign-in in Chromium on embedded defaults', () => {
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    app = await startApp({ ADMIN_EMAILS: 'boss@example.test' });
    browser = await sharedChromium();
  });
  afterAll(async () => {
    await browser.close();
    await app.stop();
  });

  it('signs in, shows handle and credits, signs out', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(app.url);
    await page.getByRole('heading', { name: 'You just play, we do the rest' }).waitFor();
    await page.getByRole('heading', { name: 'Sign in to continue' }).waitFor();
    expect(await page.getByText('Use your account to upload videos and view jobs.').count()).toBe(
      1,
    );
    await screenshot(page, 'signed-out-1440');

    await page.getByRole('link', { name: 'Continue with sign-in' }).click();
    await page.getByRole('heading', { name: /development sign-in/i }).waitFor();
    await screenshot(page, 'dev-provider-1440');
    await page.getByLabel(/e-mail/i).fill('ada@example.test');
    await page.getByLabel(/name/i).fill('Ada Lovelace');
    await Promise.all([
      page.waitForURL((u) => u.origin === app.url && !u.pathname.startsWith('/oidc')),
      page.getByRole('button', { name: /sign in/i }).click(),
    ]);

    await page.getByRole('heading', { name: 'Upload your playing' }).waitFor();
    await page.getByText('@ada', { exact: true }).waitFor();
    await page.getByText('3 creator · 10 view').waitFor();
    await screenshot(page, 'signed-in-1440');

    // The session survives a reload: the access token is renewed through the cookie.
    await page.reload();
    await page.getByText('@ada', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to continue' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in to continue' }).waitFor();
  });

  it('signs in from another address than PUBLIC_URL (127.0.0.1 for localhost)', async () => {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const other = app.url.replace('localhost', '127.0.0.1');
    await page.goto(other);
    await page.getByRole('link', { name: 'Continue with sign-in' }).click();
    await page.getByRole('heading', { name: /development sign-in/i }).waitFor();
    await page.getByLabel(/e-mail/i).fill('elsewhere@example.test');
    await page.getByLabel(/name/i).fill('Else Where');
    await Promise.all([
      page.waitForURL((u) => u.origin === app.url && !u.pathname.startsWith('/oidc')),
      page.getByRole('button', { name: /sign in/i }).click(),
    ]);
    // Signed in, at the public URL, with no "Sign-in failed" page on the way.
    await page.getByText('@elsewhere', { exact: true }).waitFor();
    expect(await page.getByText(/Sign-in failed/).count()).toBe(0);
    await page.close();
  });

  it('rejects a bad e-mail on the development sign-in page', async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/api/auth/login?returnTo=/`);
    await page.getByLabel(/e-mail/i).fill('not-an-email');
    await page.getByLabel(/name/i).fill('X');
    // The browser's own type=email check would stop the form first; the server must check too.
    await page.locator('form').evaluate((form: HTMLFormElement) => {
      form.noValidate = true;
    });
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.getByText('Please enter a valid e-mail address, like player@example.com.').waitFor();
    expect(new URL(page.url()).pathname.startsWith('/oidc')).toBe(true);
  });
});
