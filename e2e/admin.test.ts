import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/auth.js';
import { launchChromium, screenshot } from './support/browser.js';
import { queuedJob, startServerWithWeb, userByEmail, type TestServer } from './support/lessons.js';
import { DESKTOP } from './support/shots.js';

/**
 * Issue 14, item 4: the admin console in Chromium against the real server. A free user asks for
 * Pro; the admin approves it in the console, grants credits with a reason and retries a failed
 * job; the user is a pilot on their next page. Anyone else is refused, in the page and (the
 * access matrix) on the server.
 */
describe('the admin console', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startServerWithWeb({ ADMIN_EMAILS: 'ada@example.test' });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser.close();
    await server.close();
  });

  it('approves an upgrade, grants credits, retries a failed job; others are refused', async () => {
    // Fred, a free user, asks for Pro on the Credits page.
    const fredContext = await browser.newContext({ viewport: DESKTOP });
    const fredPage = await fredContext.newPage();
    await signIn(
      fredPage,
      server.url,
      { email: 'fred@example.test', name: 'Free Fred' },
      '/credits',
    );
    await fredPage.getByRole('button', { name: 'Request Pro upgrade' }).click();
    await fredPage.getByText('Request Submitted!').waitFor();
    // The console is not his.
    await fredPage.goto(`${server.url}/admin`);
    await fredPage.getByText('This page is for administrators only.').waitFor();
    expect(await fredPage.getByRole('link', { name: 'Admin' }).count()).toBe(0);

    // One of Fred's jobs failed.
    const fred = await userByEmail(server, 'fred@example.test');
    const job = await queuedJob(server, fred);
    await server.ctx.database.db
      .updateTable('jobs')
      .set({
        status: 'failed',
        stage: 'failed',
        error: 'decoder gave up',
        completed_at: new Date(),
      })
      .where('id', '=', job.jobId)
      .execute();

    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport: DESKTOP, colorScheme });
      const page = await context.newPage();
      try {
        await signIn(page, server.url, { email: 'ada@example.test', name: 'Ada Admin' });
        await page.getByRole('link', { name: 'Admin' }).click();
        await page.getByRole('heading', { name: 'Admin console' }).waitFor();
        await page.getByRole('button', { name: 'Approve fred@example.test' }).waitFor();
        await page.getByText('decoder gave up').waitFor();
        await page.getByText('Failed (24 h)').waitFor();
        await screenshot(page, `admin-console-${colorScheme}-1440`);
      } finally {
        await context.close();
      }
    }

    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    try {
      await signIn(page, server.url, { email: 'ada@example.test', name: 'Ada Admin' }, '/admin');
      await page.getByRole('button', { name: 'Approve fred@example.test' }).click();
      await page.getByText('No request is waiting.').waitFor();

      // Search by e-mail: Fred is a pilot now; grant him view credits with a reason.
      await page.getByLabel('Search by e-mail').fill('fred@');
      await page
        .getByRole('status')
        .filter({ hasText: /^1 user$/ })
        .waitFor();
      await expect
        .poll(() => page.getByLabel('Role for fred@example.test').inputValue())
        .toBe('pilot');
      const viewBefore = Number(
        await page.locator('tr', { hasText: 'fred@example.test' }).locator('td').nth(3).innerText(),
      );
      await page.getByLabel('Credits to grant for fred@example.test').fill('3');
      await page.getByLabel('Credit kind for fred@example.test').selectOption('view');
      await page.getByLabel('Reason for fred@example.test').fill('Thanks for the bug report');
      await page
        .locator('tr', { hasText: 'fred@example.test' })
        .getByRole('button', { name: 'Grant' })
        .click();
      await page.getByText('Granted 3 view credits.').waitFor();
      await expect
        .poll(async () =>
          Number(
            await page
              .locator('tr', { hasText: 'fred@example.test' })
              .locator('td')
              .nth(3)
              .innerText(),
          ),
        )
        .toBe(viewBefore + 3);

      // The failed job goes back to the queue.
      await page.getByRole('button', { name: `Retry ${job.jobId}` }).click();
      await page.getByText('No failed job.').waitFor();
      const row = await server.ctx.database.db
        .selectFrom('jobs')
        .select('status')
        .where('id', '=', job.jobId)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('queued');
    } finally {
      await context.close();
    }

    // Fred's next page shows his Pro features.
    await fredPage.goto(`${server.url}/credits`);
    await fredPage.getByText('Your account already has Pro features (pilot).').waitFor();
    await fredContext.close();
  });
});
