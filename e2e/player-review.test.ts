import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { NoteEvent } from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../apps/server/test/support/test-server.js';
import { positionPoint } from '../apps/web/src/features/player/fretboard/geometry.js';
import { screenshot } from './support/browser.js';
import { editLesson, waitForFrets } from './support/editor.js';
import { openLesson, seekTo } from './support/player.js';
import { seedLesson, shareToExplore } from './support/lessons.js';
import { makeVideo } from './support/media.js';
import { signIn } from './support/auth.js';
import { endPlayerSession, startPlayerSession } from './support/session.js';

/**
 * Issue 11, the review queue in Chromium against the real server: doubtful notes (the engine's
 * confidence under 0.5) counted, D selects the next one and loops 2 s around it, the fretboard
 * offers the note's other places and a click moves it there, A accepts a note; the counter drops
 * each time. Also: the keyboard help opens at its top.
 */
describe('review queue in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let jobId: string;
  let work: string;
  let owner: TestUser;

  const counter = () => page.getByTestId('doubtful-count').textContent();
  /** Pixels of the timeline in either scheme's doubt colour (#ff6fae dark, #c2126b light). */
  const doubtPixels = (p: Page) =>
    p.getByTestId('timeline').evaluate((canvas: HTMLCanvasElement) => {
      const ctx = canvas.getContext('2d')!;
      const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      const near = (i: number, [r, g, b]: number[]) =>
        Math.abs(data[i]! - r!) + Math.abs(data[i + 1]! - g!) + Math.abs(data[i + 2]! - b!) < 30;
      let n = 0;
      for (let i = 0; i < data.length; i += 4) {
        if (near(i, [0xff, 0x6f, 0xae]) || near(i, [0xc2, 0x12, 0x6b])) n += 1;
      }
      return n;
    });
  const fretboard = () => page.getByTestId('fretboard');

  beforeAll(async () => {
    ({ work, server, browser, context, page, owner } = await startPlayerSession({
      email: 'rev@example.test',
      name: 'Rhea Reviewer',
    }));
    const lesson = editLesson();
    // The AI's confidences: the notes at 0.5 s (G string 5), 1.5 s (D 9) and 3.0 s (A 14) are
    // doubtful; the last two notes carry none (as if checked already).
    const confidence = [0.2, 0.9, 0.3, 0.95, 0.4];
    const notes: NoteEvent[] = lesson.notes.map((n, i) => {
      const c = confidence[i];
      return c === undefined ? n : { ...n, confidence: c };
    });
    jobId = await seedLesson(server, owner, {
      ...lesson,
      notes,
      video: makeVideo(work, 'review.mp4', 10, { sound: 'tone', portrait: true }),
      duration: 10,
    });
    await openLesson(page, server.url, jobId);
    await page.locator('.lp[data-mode="edit"]').waitFor();
    await waitForFrets(page, ['5', '7', '9', '10', '14', '15', '17']);
    await seekTo(page, 0);
  });

  afterAll(async () => {
    await endPlayerSession({ work, server, browser, context, page, owner });
  });

  it('counts the doubtful notes and marks them on the tab (dark and light)', async () => {
    expect(await counter()).toBe('3 doubtful notes left');
    await expect.poll(() => doubtPixels(page)).toBeGreaterThan(20);
    // The browser's own scheme is light: ask for the dark one before its screenshot.
    await page.emulateMedia({ colorScheme: 'dark' });
    await waitForFrets(page, ['5', '7', '9']);
    await screenshot(page, 'player-review-dark-1440');
    await page.emulateMedia({ colorScheme: 'light' });
    await waitForFrets(page, ['5', '7', '9']);
    await screenshot(page, 'player-review-light-1440');
    await page.emulateMedia({ colorScheme: 'dark' });
  });

  it('D selects the next doubtful note, loops 2 s around it and shows its other places', async () => {
    await page.keyboard.press('d');
    await page.waitForFunction(
      () => document.querySelector('.lp')?.getAttribute('data-loop') === '0.00-2.00',
    );
    expect(await page.getByTestId('edit-summary').textContent()).toBe('1 note selected');
    // C4 on the G string's 5th fret: also B 1, D 10, A 15, low E 20.
    expect(await fretboard().getAttribute('data-current')).toBe('3:5');
    expect(await fretboard().getAttribute('data-choices')).toBe('2:1 4:10 5:15 6:20');
  });

  it('a click on another place on the fretboard moves the note there; the counter drops', async () => {
    const box = (await fretboard().boundingBox())!;
    const at = positionPoint({ string: 4, fret: 10 }, 0, { width: box.width, height: box.height });
    await page.mouse.click(box.x + at.x, box.y + at.y);
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="fretboard"]')?.getAttribute('data-current') ===
        '4:10',
    );
    expect(await counter()).toBe('2 doubtful notes left');
    await screenshot(page, 'player-review-moved-1440');
    // Undo brings the note and its doubt back; redo moves it again.
    await page.keyboard.press('Control+z');
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="doubtful-count"]')?.textContent ===
        '3 doubtful notes left',
    );
    await page.keyboard.press('Control+Shift+z');
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="doubtful-count"]')?.textContent ===
        '2 doubtful notes left',
    );
  });

  it('D goes on to the next doubtful note, A accepts it, and the queue empties', async () => {
    await page.keyboard.press('d');
    await page.waitForFunction(
      () => document.querySelector('.lp')?.getAttribute('data-loop') === '0.70-2.70',
    );
    expect(await fretboard().getAttribute('data-current')).toBe('4:9');
    await page.keyboard.press('a');
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="doubtful-count"]')?.textContent ===
        '1 doubtful note left',
    );
    await page.keyboard.press('d');
    await page.waitForFunction(
      () => document.querySelector('.lp')?.getAttribute('data-loop') === '2.20-4.20',
    );
    expect(await fretboard().getAttribute('data-current')).toBe('5:14');
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="doubtful-count"]')?.textContent ===
        'No doubtful notes',
    );
    expect(await page.getByRole('button', { name: 'Next doubtful' }).isDisabled()).toBe(true);
  });

  it('saves the checked notes without a confidence', async () => {
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('.lp[data-dirty="false"]').waitFor();
    const res = await server.request('GET', `/api/notes?jobId=${jobId}&edit_version=true`, {
      token: owner.token,
    });
    const saved = ((await res.json()) as { events: NoteEvent[] }).events;
    // Only the two sure notes keep the AI's confidence.
    expect(saved.filter((n) => n.confidence !== undefined).map((n) => n.confidence)).toEqual([
      0.9, 0.95,
    ]);
    expect(saved.some((n) => n.string === 4 && n.fret === 10)).toBe(true);
  });

  it('opens the keyboard help at its top, the title focused, the review keys listed', async () => {
    await page.setViewportSize({ width: 1440, height: 600 });
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    const state = await help.evaluate((d) => {
      const title = d.querySelector('h2')!;
      const body = d.querySelector('.dialog-body')!;
      const r = title.getBoundingClientRect();
      const box = d.getBoundingClientRect();
      return {
        focused: document.activeElement === title,
        scrolled: d.scrollTop + body.scrollTop,
        titleVisible: r.top >= box.top && r.bottom <= box.bottom,
        overflows: d.scrollHeight > d.clientHeight || body.scrollHeight > body.clientHeight,
      };
    });
    expect(state).toEqual({ focused: true, scrolled: 0, titleVisible: true, overflows: true });
    expect(
      await help
        .getByText('Next doubtful note: select it, loop 2 s around it (Shift: previous)')
        .count(),
    ).toBe(1);
    await screenshot(page, 'player-review-help-1440x600');
    // Still keyboard-driven: Tab reaches Close, Escape closes.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Close');
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('shows the marks to the owner only: a viewer of the shared lesson sees the plain tab (issue 37)', async () => {
    await shareToExplore(server, owner, jobId);
    const other = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const viewer = await other.newPage();
    try {
      await signIn(viewer, server.url, { email: 'vee@example.test', name: 'Vee Viewer' });
      await viewer.goto(`${server.url}/lesson/${jobId}`);
      await viewer.getByRole('button', { name: 'Continue' }).click();
      await viewer.locator('.lp[data-mode="view"]').waitFor();
      await seekTo(viewer, 0);
      // The tab is drawn (fret numbers on it), without a doubt mark.
      await viewer.waitForFunction(() => {
        const el = document.querySelector<Element & { drawnText?: () => unknown[] }>(
          '[data-testid="timeline"]',
        );
        return (el?.drawnText?.().length ?? 0) > 0;
      });
      expect(await doubtPixels(viewer)).toBe(0);
      expect(await viewer.getByTestId('doubtful-count').count()).toBe(0);
    } finally {
      await other.close();
    }
  });
});
