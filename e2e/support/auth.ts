import type { Page } from 'playwright-core';

/**
 * Signs in through the server's OIDC flow and the built-in development provider's page
 * (e-mail + name), starting from `path`, and waits until the browser is back on the app.
 */
export async function signIn(
  page: Page,
  appUrl: string,
  who: { email: string; name: string },
  path = '/',
): Promise<void> {
  await page.goto(`${appUrl}/api/auth/login?returnTo=${encodeURIComponent(path)}`);
  await page.getByRole('heading', { name: /development sign-in/i }).waitFor();
  await page.getByLabel(/e-mail/i).fill(who.email);
  await page.getByLabel(/name/i).fill(who.name);
  await Promise.all([
    page.waitForURL((u) => u.origin === appUrl && !u.pathname.startsWith('/oidc')),
    page.getByRole('button', { name: /sign in/i }).click(),
  ]);
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}
