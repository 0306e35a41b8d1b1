import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MESSAGES, type BeatsResponse } from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../apps/server/test/support/test-server.js';
import { screenshot } from './support/browser.js';
import { editLesson, stringLineY, timeX } from './support/editor.js';
import { seedLesson } from './support/lessons.js';
import { makeVideo } from './support/media.js';
import { openLesson, seekTo, showView } from './support/player.js';
import { endPlayerSession, startPlayerSession } from './support/session.js';

/**
 * Issue 15: bar lines on the tab, corrected in the editor against the real server: drag a bar
 * line by its number, undo and redo it, tap a bar in at the playhead (M), change the time
 * signature, save, reload: the corrected bars come back, the engine's stay as they were.
 */
describe('bar lines in the editor', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let owner: TestUser;
  let jobId: string;
  let work: string;

  /** The bar lines the tab draws, seconds. */
  const barLines = async () =>
    ((await page.getByTestId('timeline').getAttribute('data-bar-lines')) ?? '')
      .split(' ')
      .filter(Boolean)
      .map(Number);
  const beats = async (edited: boolean) => {
    const res = await server.request(
      'GET',
      `/api/beats?jobId=${jobId}&edit_version=${String(edited)}`,
      { token: owner.token },
    );
    expect(res.status).toBe(200);
    return (await res.json()) as BeatsResponse;
  };

  beforeAll(async () => {
    ({ work, server, browser, context, page, owner } = await startPlayerSession({
      email: 'bea@example.test',
      name: 'Bea Bars',
    }));
    jobId = await seedLesson(server, owner, {
      ...editLesson(),
      video: makeVideo(work, 'bars.mp4', 10, { sound: 'tone' }),
      duration: 10,
    });
    await openLesson(page, server.url, jobId);
    await page.locator('.lp[data-mode="edit"]').waitFor();
    await seekTo(page, 0);
  });

  afterAll(async () => {
    await endPlayerSession({ work, server, browser, context, page, owner });
  });

  it('draws the bars of a lesson without beats of its own: 4/4 at 120', async () => {
    expect((await barLines()).slice(0, 5)).toEqual([0, 2, 4, 6, 8]);
    expect((await beats(true)).source).toBe('default');
  });

  it('moves a bar line by dragging its number, one undoable step', async () => {
    const y = (await stringLineY(page, 1)) - 14;
    const from = await timeX(page, 2);
    await page.mouse.move(from + 6, y);
    await page.mouse.down();
    await page.mouse.move(from + 20, y, { steps: 4 });
    await page.mouse.move((await timeX(page, 2.4)) + 6, y, { steps: 4 });
    await page.mouse.up();
    await expect.poll(async () => (await barLines())[1]).toBeCloseTo(2.4, 2);
    // The bars on either side stretch; the next bar line stays.
    expect((await barLines())[2]).toBe(4);
    await screenshot(page, 'player-bars-drag-light-1440');
    await page.keyboard.press('Control+z');
    await expect.poll(async () => (await barLines())[1]).toBe(2);
    await page.keyboard.press('Control+Shift+z');
    await expect.poll(async () => (await barLines())[1]).toBeCloseTo(2.4, 2);
  });

  it('taps a bar in at the playhead with M and changes the time signature', async () => {
    await seekTo(page, 5.1);
    await page.keyboard.press('m');
    await expect
      .poll(async () => (await barLines()).some((t) => Math.abs(t - 5.1) < 0.02))
      .toBe(true);
    await page.getByRole('button', { name: 'Bars…' }).click();
    const panel = page.getByTestId('bars-panel');
    await expect.poll(() => panel.getByTestId('bars-summary').textContent()).toMatch(/^Bar 4 of/);
    await panel.getByLabel('Beats a bar').selectOption('3');
    await panel.getByRole('button', { name: 'Apply from bar 4' }).click();
    await expect.poll(() => panel.getByTestId('bars-summary').textContent()).toContain('3/4');
    await screenshot(page, 'player-bars-panel-light-1440');
    const lines = await barLines();
    // From the tapped bar on, three beats (about 0.5 s each) a bar instead of four.
    const tapped = lines.findIndex((t) => Math.abs(t - 5.1) < 0.02);
    const bar = lines[tapped + 1]! - lines[tapped]!;
    expect(bar).toBeGreaterThan(1.3);
    expect(bar).toBeLessThan(1.6);
    await page.keyboard.press('Escape');
  });

  it('saves the bars with the notes and brings them back after a reload', async () => {
    const before = await barLines();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText(MESSAGES.changesSaved).waitFor();
    const saved = await beats(true);
    expect(saved.source).toBe('edited');
    expect(saved.grid.downbeats.map((d) => +saved.grid.beats[d]!.toFixed(3))).toEqual(before);
    // The AI's version keeps the default bars.
    expect((await beats(false)).source).toBe('default');
    // The AI's version shows its own bars; back on the edited one, the saved bars come back.
    await page.getByRole('button', { name: 'Tabs source' }).click();
    await page.getByRole('menuitemradio', { name: 'Original (AI)' }).click();
    await page.locator('.lp[data-tabs-version="original"]').waitFor();
    await expect.poll(async () => (await barLines()).slice(0, 3)).toEqual([0, 2, 4]);
    await page.getByRole('button', { name: 'Tabs source' }).click();
    await page.getByRole('menuitemradio', { name: 'Edited' }).click();
    await page.locator('.lp[data-mode="edit"]').waitFor();
    await expect.poll(barLines).toEqual(before);
    await page.reload();
    await page.locator('.lp[data-mode="edit"]').waitFor();
    await expect.poll(barLines).toEqual(before);
    // The notation view writes the notes on the same bars: two of 4/4, the bar cut short by the
    // tapped bar line (two beats), then 3/4.
    await showView(page, 'Notation');
    const meters = await page.locator('.lp-notation').getAttribute('data-meters');
    expect((meters ?? '').split(' ').slice(0, 4)).toEqual(['4/4', '4/4', '2/4', '3/4']);
    await showView(page, 'Tab');
    // The same bars in the dark colour scheme (the screenshot is looked at by a person).
    await page.emulateMedia({ colorScheme: 'dark' });
    await seekTo(page, 0);
    await expect.poll(barLines).toEqual(before);
    await screenshot(page, 'player-bars-dark-1440');
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
