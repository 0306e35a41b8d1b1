import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AUTO_SAVE_MS, MESSAGES, SAVED_NOTICE_MS, type NoteEvent } from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../apps/server/test/support/test-server.js';
import { holdClock } from './support/clock.js';
import { clickText, editLesson, waitForFrets } from './support/editor.js';
import { openLesson, seekTo } from './support/player.js';
import { seedLesson } from './support/lessons.js';
import { makeVideo } from './support/media.js';
import { endPlayerSession, startPlayerSession } from './support/session.js';

/**
 * Issue 11, saving: auto-save every 30 s on a clock the test holds, and a save that fails because
 * the server is down, after which a reload offers the edits back from local storage.
 */
describe('tab editor saving in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let jobId: string;
  let work: string;
  let owner: TestUser;

  const editedFrets = async () => {
    const res = await server.request('GET', `/api/notes?jobId=${jobId}&edit_version=true`, {
      token: owner.token,
    });
    return ((await res.json()) as { events: NoteEvent[] }).events.map((n) => n.fret);
  };

  beforeAll(async () => {
    ({ work, server, browser, context, page, owner } = await startPlayerSession({
      email: 'sam@example.test',
      name: 'Sam Saver',
    }));
    jobId = await seedLesson(server, owner, {
      ...editLesson(),
      video: makeVideo(work, 'save.mp4', 10, { sound: 'tone', portrait: true }),
      duration: 10,
    });
  });

  afterAll(async () => {
    await endPlayerSession({ work, server, browser, context, page, owner });
  });

  it('auto-saves every 30 s while there are edits, on the page clock', async () => {
    // The page's timers run on a clock the test holds. It flows as real time until paused; the
    // 30 s timer starts when the page opens, some real seconds before the test pauses it, so the
    // test learns its phase from the first save (the page notes the clock time of each save).
    await page.addInitScript(() => {
      const saves: number[] = [];
      (window as unknown as { editSaves: number[] }).editSaves = saves;
      const real = window.fetch.bind(window);
      window.fetch = (input, init) => {
        if (typeof input === 'string' && input.startsWith('/api/edit-notes'))
          saves.push(Date.now());
        return real(input, init);
      };
    });
    await page.clock.install();
    await openLesson(page, server.url, jobId);
    await seekTo(page, 0);
    await page.locator('.lp[data-mode="edit"]').waitFor();
    await clickText(page, '5');
    await page.keyboard.press('8');
    await waitForFrets(page, ['8'], ['5']);
    await page.locator('.lp[data-dirty="true"]').waitFor();
    const saves = () =>
      page.evaluate(() => (window as unknown as { editSaves: number[] }).editSaves);
    await holdClock(page);
    // Any 30 s of page time holds one tick of the timer: it saves the edit (perhaps already
    // before the clock was held).
    await page.clock.runFor(AUTO_SAVE_MS);
    await page.locator('.lp[data-dirty="false"]').waitFor();
    expect(await editedFrets()).toContain(8);
    const once = await saves();
    expect(once).toHaveLength(1);
    const first = once[0] ?? 0;
    // A second edit (time stands still) waits for the timer's next tick after it, not a second less.
    await clickText(page, '9');
    await page.keyboard.press('2');
    await page.locator('.lp[data-dirty="true"]').waitFor();
    const edited = await page.evaluate(() => Date.now());
    const tick = first + AUTO_SAVE_MS * Math.ceil((edited - first + 1) / AUTO_SAVE_MS);
    await page.clock.runFor(tick - 1_000 - edited);
    expect(await page.locator('.lp').getAttribute('data-dirty')).toBe('true');
    expect(await editedFrets()).toContain(9);
    expect(await saves()).toHaveLength(1);
    await page.clock.runFor(1_500);
    await page.getByRole('status').filter({ hasText: MESSAGES.changesSaved }).waitFor();
    await page.locator('.lp[data-dirty="false"]').waitFor();
    expect(await editedFrets()).toContain(2);
    expect(await saves()).toEqual([first, tick]);
    // The saved notice goes after 3 s; then time flows again for the next test.
    await page.clock.runFor(SAVED_NOTICE_MS + 100);
    await page.getByRole('status').filter({ hasText: MESSAGES.changesSaved }).waitFor({
      state: 'detached',
    });
    await page.clock.resume();
  });

  it('keeps the edits when saving fails (server stopped) and offers them back after a reload', async () => {
    await clickText(page, '7');
    await page.keyboard.press('1');
    await page.keyboard.press('9');
    await waitForFrets(page, ['19'], ['7']);
    const draft = await page.evaluate(
      (id) => localStorage.getItem(`riffscribe:draft:${id}`),
      jobId,
    );
    expect(draft).toContain('"fret":19');
    // The server stops answering: the save fails (and is only logged).
    const http = server.app.server;
    const port = Number(new URL(server.url).port);
    const stopped = new Promise((resolve) => http.close(resolve));
    http.closeAllConnections();
    await stopped;
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Save' }).waitFor(); // no longer 'Saving…'
    expect(await page.locator('.lp').getAttribute('data-dirty')).toBe('true');
    expect(await page.getByRole('status').filter({ hasText: MESSAGES.changesSaved }).count()).toBe(
      0,
    );
    // Back up, on the same port and database; the saved version still has 7.
    await new Promise<void>((resolve) => {
      http.listen({ port, host: '127.0.0.1' }, resolve);
    });
    expect(await editedFrets()).toContain(7);
    await page.reload();
    await page.getByTestId('draft-banner').waitFor();
    await seekTo(page, 0);
    await waitForFrets(page, ['7', '8'], ['19']);
    await page.getByRole('button', { name: 'Restore edits' }).click();
    await waitForFrets(page, ['19', '8'], ['7']);
    await page.locator('.lp[data-dirty="true"]').waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.lp[data-dirty="false"]').waitFor();
    expect(await editedFrets()).toContain(19);
    expect(
      await page.evaluate((id) => localStorage.getItem(`riffscribe:draft:${id}`), jobId),
    ).toBeNull();
  });
});
