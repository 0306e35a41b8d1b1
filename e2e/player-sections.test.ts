import type { SectionsResponse } from '@riffscribe/core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../apps/server/test/support/test-server.js';
import { seriousA11yViolations } from './support/a11y.js';
import { screenshot } from './support/browser.js';
import { editLesson, waitForFrets } from './support/editor.js';
import { openLesson, seekTo } from './support/player.js';
import { seedLesson, shareToExplore, userByEmail } from './support/lessons.js';
import { makeVideo } from './support/media.js';
import { signIn } from './support/auth.js';
import { endPlayerSession, startPlayerSession } from './support/session.js';

/**
 * Issue 40 part 3, sections in Chromium against the real server: a loop saved as a named section,
 * renamed, still there after a reload; Shift+← / Shift+→ moving the loop between sections; the
 * sections the bars suggest (the server's steady grid for a lesson without beats: a bar every
 * 2 s, so a 20 s lesson has bars 1–4, 5–8 and 9–10) saved as the user's own; and another user of
 * the same shared lesson seeing none of them.
 */
describe('sections in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let jobId: string;
  let work: string;
  let owner: TestUser;

  const lp = () => page.locator('.lp');
  const loopIs = (loop: string) =>
    page.waitForFunction(
      (l) => document.querySelector('.lp')?.getAttribute('data-loop') === l,
      loop,
    );
  const openSections = async () => {
    const dialog = page.getByRole('dialog', { name: 'Sections' });
    if (!(await dialog.isVisible()))
      await page.getByRole('button', { name: 'Sections', exact: true }).click();
    await dialog.waitFor();
    return dialog;
  };
  const closeSections = async () => {
    const dialog = page.getByRole('dialog', { name: 'Sections' });
    if (await dialog.isVisible())
      await page.getByRole('button', { name: 'Sections', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    // The player's keys go to the page, not to the button that has the focus.
    await page.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
    });
  };
  /** The names in the user's list, as the panel shows them. */
  const names = async () =>
    (await openSections())
      .getByRole('list', { name: 'Your sections' })
      .locator('.lp-section-name')
      .allTextContents();
  /** The user's sections as the server holds them. */
  const saved = async (user: TestUser) => {
    const res = await server.request('GET', `/api/job-sections?jobId=${jobId}`, {
      token: user.token,
    });
    return ((await res.json()) as SectionsResponse).sections;
  };

  beforeAll(async () => {
    ({ work, server, browser, context, page, owner } = await startPlayerSession({
      email: 'sec@example.test',
      name: 'Sam Sections',
    }));
    const lesson = editLesson();
    jobId = await seedLesson(server, owner, {
      ...lesson,
      results: { ...lesson.results, duration: 20 },
      video: makeVideo(work, 'sections.mp4', 20, { sound: 'tone', portrait: true }),
      duration: 20,
    });
    await shareToExplore(server, owner, jobId);
    await openLesson(page, server.url, jobId);
    await waitForFrets(page, ['5', '7']);
  });

  afterAll(async () => {
    await endPlayerSession({ work, server, browser, context, page, owner });
  });

  it('saves the loop as a named section, renames it, and finds it after a reload', async () => {
    const dialog = await openSections();
    await dialog
      .getByText('No sections yet. Set a loop (L) and save it, or use the suggested ones.')
      .waitFor();
    const save = dialog.getByRole('button', { name: 'Save loop as section' });
    expect(await save.isDisabled()).toBe(true);
    expect(await dialog.getByRole('status').textContent()).toBe('Set a loop first (L).');
    await closeSections();

    await seekTo(page, 2);
    await page.keyboard.press('l');
    await loopIs('2.00-4.00');
    await openSections();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Intro riff');
    await save.click();
    const row = dialog.getByRole('button', { name: /^Intro riff/ });
    await row.waitFor();
    expect(await row.textContent()).toBe('Intro riff0:02.0–0:04.0');
    expect(await row.getAttribute('aria-pressed')).toBe('true');

    await dialog.getByRole('button', { name: 'Rename Intro riff' }).click();
    const field = dialog.getByRole('textbox', { name: 'New name for Intro riff' });
    await field.fill('  Main riff ');
    await field.press('Enter');
    await dialog.getByRole('button', { name: /^Main riff/ }).waitFor();
    // Enter renamed it and left the loop and the panel alone.
    expect(await dialog.isVisible()).toBe(true);
    expect(await lp().getAttribute('data-loop')).toBe('2.00-4.00');
    // Left at once, before the save's short wait: the page sends it as it goes (pagehide).
    await page.reload();
    await expect
      .poll(async () => (await saved(owner)).map((s) => [s.name, s.start, s.end]))
      .toEqual([['Main riff', 2, 4]]);

    await openLesson(page, server.url, jobId);
    await waitForFrets(page, ['5', '7']);
    expect(await names()).toEqual(['Main riff']);
    // Not looped after a reload until chosen: a click loops it and goes to its start.
    await seekTo(page, 9);
    await (await openSections()).getByRole('button', { name: /^Main riff/ }).click();
    await loopIs('2.00-4.00');
    await expect
      .poll(() => page.locator('.lp video').evaluate((v: HTMLVideoElement) => v.currentTime))
      .toBeCloseTo(2, 1);
    await closeSections();
  });

  it('Shift+→ and Shift+← move the loop between the sections (dark and light)', async () => {
    // A second section from a loop at 10 s, under the default name.
    await seekTo(page, 10);
    await page.keyboard.press('Escape');
    await page.keyboard.press('l');
    await loopIs('10.00-12.00');
    const dialog = await openSections();
    expect(await dialog.getByRole('textbox', { name: 'Name' }).getAttribute('placeholder')).toBe(
      'Section 2',
    );
    await dialog.getByRole('button', { name: 'Save loop as section' }).click();
    await dialog.getByRole('button', { name: /^Section 2/ }).waitFor();
    expect(await names()).toEqual(['Main riff', 'Section 2']);
    await closeSections();

    await page.keyboard.press('Escape');
    await seekTo(page, 0.5);
    await page.keyboard.press('Shift+ArrowRight');
    await loopIs('2.00-4.00');
    await page.keyboard.press('Shift+ArrowRight');
    await loopIs('10.00-12.00');
    await expect
      .poll(() => page.locator('.lp video').evaluate((v: HTMLVideoElement) => v.currentTime))
      .toBeCloseTo(10, 1);
    // The last one: nothing after it.
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowLeft');
    await loopIs('2.00-4.00');
    await page.keyboard.press('Shift+ArrowLeft');
    expect(await lp().getAttribute('data-loop')).toBe('2.00-4.00');

    const open = await openSections();
    expect(
      await open.getByRole('button', { name: /^Main riff/ }).getAttribute('aria-pressed'),
    ).toBe('true');
    expect(await seriousA11yViolations(page, '.lp-toolbar .lp-popover:has(.lp-sections)')).toEqual(
      [],
    );
    for (const colorScheme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme });
      await waitForFrets(page, ['5', '7']);
      await screenshot(page, `player-sections-${colorScheme}-1440`);
    }
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(async () => (await saved(owner)).length).toBe(2);
    await closeSections();
  });

  it('offers sections from the bars while there are none, saved with one click', async () => {
    const dialog = await openSections();
    for (const name of ['Main riff', 'Section 2']) {
      await dialog.getByRole('button', { name: `Delete ${name}` }).click();
    }
    await dialog
      .getByText('No sections yet. Set a loop (L) and save it, or use the suggested ones.')
      .waitFor();
    const suggested = dialog.getByRole('list', { name: 'Suggested sections' });
    expect(await suggested.locator('.lp-section-name').allTextContents()).toEqual([
      'Bars 1–4',
      'Bars 5–8',
      'Bars 9–10',
    ]);
    await expect.poll(async () => (await saved(owner)).length).toBe(0);
    await screenshot(page, 'player-sections-suggested-dark-1440');

    await dialog.getByRole('button', { name: 'Use suggested sections' }).click();
    await dialog.getByRole('list', { name: 'Your sections' }).waitFor();
    expect(await suggested.count()).toBe(0);
    expect(await names()).toEqual(['Bars 1–4', 'Bars 5–8', 'Bars 9–10']);
    // Now the user's own: renamed and deleted like any other.
    await dialog.getByRole('button', { name: 'Rename Bars 1–4' }).click();
    await dialog.getByRole('textbox', { name: 'New name for Bars 1–4' }).fill('Verse');
    await dialog.getByRole('textbox', { name: 'New name for Bars 1–4' }).press('Enter');
    await dialog.getByRole('button', { name: 'Delete Bars 9–10' }).click();
    expect(await names()).toEqual(['Verse', 'Bars 5–8']);
    await expect
      .poll(async () => (await saved(owner)).map((s) => [s.name, s.start, s.end]))
      .toEqual([
        ['Verse', 0, 8],
        ['Bars 5–8', 8, 16],
      ]);
    await closeSections();
    await page.keyboard.press('Shift+ArrowRight');
    await loopIs('8.00-16.00');
  });

  it('shows another user of the shared lesson none of the owner’s sections', async () => {
    await signIn(page, server.url, { email: 'sec2@example.test', name: 'Other Player' });
    const other = await userByEmail(server, 'sec2@example.test');
    await page.goto(`${server.url}/lesson/${jobId}`);
    await page.getByRole('button', { name: 'Continue' }).click();
    await openLesson(page, server.url, jobId);
    await waitForFrets(page, ['5', '7']);
    const dialog = await openSections();
    await dialog
      .getByText('No sections yet. Set a loop (L) and save it, or use the suggested ones.')
      .waitFor();
    expect(await dialog.getByRole('list', { name: 'Your sections' }).count()).toBe(0);
    expect(await saved(other)).toEqual([]);
    await closeSections();
    await page.keyboard.press('Shift+ArrowRight');
    expect(await lp().getAttribute('data-loop')).toBe('');
    // Theirs, kept apart from the owner's; a save that fails says so and is kept to try again.
    const outage = 'The service is briefly unavailable. Please try again in a moment.';
    await page.route('**/api/job-sections?*', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 503, json: { error: outage } })
        : route.fallback(),
    );
    const panel = await openSections();
    await panel.getByRole('button', { name: 'Use suggested sections' }).click();
    const alert = panel.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(`Your sections are not saved yet: ${outage} Try again`);
    expect(await saved(other)).toEqual([]);
    await page.unroute('**/api/job-sections?*');
    await alert.getByRole('button', { name: 'Try again' }).click();
    await alert.waitFor({ state: 'detached' });
    await expect.poll(async () => (await saved(other)).length).toBe(3);
    expect((await saved(owner)).map((s) => s.name)).toEqual(['Verse', 'Bars 5–8']);
  });
});
