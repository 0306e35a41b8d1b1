import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from './support/auth.js';
import { screenshot, sharedChromium } from './support/browser.js';
import { editLesson } from './support/editor.js';
import {
  queuedJob,
  seedLesson,
  startServerWithWeb,
  userByEmail,
  type TestServer,
} from './support/lessons.js';
import { makeVideo, mediaDir, probeMedia } from './support/media.js';
import { openLesson } from './support/player.js';
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
  let work: string;

  beforeAll(async () => {
    work = mediaDir();
    server = await startServerWithWeb({ ADMIN_EMAILS: 'ada@example.test' });
    browser = await sharedChromium();
  });
  afterAll(async () => {
    await browser.close();
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('approves an upgrade, grants credits, retries a failed job; others are refused', async () => {
    // Fred, a free user, asks for Pro on the Credits page.
    const fredContext = await browser.newContext({ viewport: DESKTOP, acceptDownloads: true });
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
      // Issue 37: a balance can also be set, lowered to 0 here, with its reason.
      await page.getByLabel('Credits to grant for fred@example.test').fill('0');
      await page.getByLabel('Reason for fred@example.test').fill('Credits given by mistake');
      await page
        .locator('tr', { hasText: 'fred@example.test' })
        .getByRole('button', { name: 'Set balance' })
        .click();
      await page.getByText('Set view credits to 0.').waitFor();
      await expect
        .poll(() =>
          page.locator('tr', { hasText: 'fred@example.test' }).locator('td').nth(3).innerText(),
        )
        .toBe('0');
      await screenshot(page, 'admin-set-balance-1440');

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

    // And he exports one of his lessons, no longer locked (the WebM; e2e/player-export.test.ts
    // covers the MP4 conversion).
    // One second: the export's own tests (and their lengths) are in e2e/player-export.test.ts.
    const video = makeVideo(work, 'fred.mp4', 1, { sound: 'tone' });
    const lesson = await seedLesson(server, fred, { ...editLesson(), video, duration: 1 });
    await openLesson(fredPage, server.url, lesson);
    await fredPage.getByRole('button', { name: 'Share' }).click();
    await fredPage.getByRole('button', { name: 'Export video with tabs' }).click();
    const dialog = fredPage.getByRole('dialog', { name: 'Export video with tabs' });
    await dialog.getByLabel('WebM', { exact: true }).check();
    const [download] = await Promise.all([
      fredPage.waitForEvent('download', { timeout: 240_000 }),
      dialog.getByRole('button', { name: 'Export' }).click(),
    ]);
    const file = path.join(work, `fred-${download.suggestedFilename()}`);
    await download.saveAs(file);
    const probe = probeMedia(file);
    expect(probe.video).toMatchObject({ width: 1536, height: 2728 });
    expect(probe.audio).not.toBeNull();
    expect(Math.abs(probe.duration - 1)).toBeLessThan(0.1);
    await fredContext.close();
  }, 420_000);
});
