import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../apps/server/test/support/test-server.js';
import { screenshot } from './support/browser.js';
import { editLesson, waitForFrets } from './support/editor.js';
import { openLesson, seekTo } from './support/player.js';
import { seedLesson, userByEmail } from './support/lessons.js';
import { makeVideo } from './support/media.js';
import { signIn } from './support/auth.js';
import { endPlayerSession, startPlayerSession } from './support/session.js';

interface Scheduled {
  time: number;
  accent: boolean;
  kind: 'beat' | 'count';
  at: number;
  speed: number;
}

/**
 * Issue 40, practice mode in Chromium against the real server: the metronome on the lesson's
 * beats (the server's steady grid for a lesson without one: a beat every 0.5 s, four a bar), a
 * one-bar count-in before a loop's repeat, the speed trainer stepping 0.5 -> 0.6 -> 0.7 over
 * passes, and the left-handed view mirroring the fretboard and the video, remembered after a
 * reload for its user only. The clicks are read as the player schedules them on the audio clock
 * (window.__RIFFSCRIBE_CLICKS__).
 */
describe('practice mode in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let jobId: string;
  let work: string;
  let owner: TestUser;

  const clicks = () =>
    page.evaluate(
      () => (window as unknown as { __RIFFSCRIBE_CLICKS__: Scheduled[] }).__RIFFSCRIBE_CLICKS__,
    );
  const resetClicks = () =>
    page.evaluate(() => {
      (window as unknown as { __RIFFSCRIBE_CLICKS__: Scheduled[] }).__RIFFSCRIBE_CLICKS__ = [];
    });
  const openPractice = async () => {
    const dialog = page.getByRole('dialog', { name: 'Practice' });
    if (!(await dialog.isVisible())) await page.getByRole('button', { name: 'Practice' }).click();
    await dialog.waitFor();
    return dialog;
  };
  /** Per column of the fretboard canvas, the mean brightness (its layout, text aside). */
  const columns = () =>
    page.getByTestId('fretboard').evaluate((canvas: HTMLCanvasElement) => {
      const ctx = canvas.getContext('2d')!;
      const { data, width, height } = ctx.getImageData(0, 0, canvas.width, canvas.height);
      const out: number[] = [];
      for (let x = 0; x < width; x += 1) {
        let sum = 0;
        for (let y = 0; y < height; y += 1) {
          const i = (y * width + x) * 4;
          sum += data[i]! + data[i + 1]! + data[i + 2]!;
        }
        out.push(sum / height);
      }
      return out;
    });
  const correlation = (a: number[], b: number[]) => {
    const n = Math.min(a.length, b.length);
    const ma = a.slice(0, n).reduce((s, v) => s + v, 0) / n;
    const mb = b.slice(0, n).reduce((s, v) => s + v, 0) / n;
    let ab = 0;
    let aa = 0;
    let bb = 0;
    for (let i = 0; i < n; i += 1) {
      ab += (a[i]! - ma) * (b[i]! - mb);
      aa += (a[i]! - ma) ** 2;
      bb += (b[i]! - mb) ** 2;
    }
    return ab / Math.sqrt(aa * bb);
  };

  beforeAll(async () => {
    ({ work, server, browser, context, page, owner } = await startPlayerSession({
      email: 'prac@example.test',
      name: 'Pat Practice',
    }));
    jobId = await seedLesson(server, owner, {
      ...editLesson(),
      video: makeVideo(work, 'practice.mp4', 10, { sound: 'tone', portrait: true }),
      duration: 10,
    });
    await openLesson(page, server.url, jobId);
    await waitForFrets(page, ['5', '7']);
    await resetClicks();
  });

  afterAll(async () => {
    await endPlayerSession({ work, server, browser, context, page, owner });
  });

  it('shows the practice tools, each with a name and a key (dark and light)', async () => {
    const dialog = await openPractice();
    for (const name of [/Metronome/, /Count-in/, /Left-handed view/]) {
      expect(await dialog.getByRole('checkbox', { name }).count()).toBe(1);
    }
    for (const name of ['Click volume', 'Start %', 'Target %', 'Step %', 'Passes per step']) {
      expect(await dialog.getByLabel(name).count()).toBe(1);
    }
    expect(await dialog.getByRole('button', { name: /Start training/ }).isDisabled()).toBe(true);
    expect(await dialog.getByRole('status').textContent()).toBe('Set a loop first (L).');
    for (const colorScheme of ['dark', 'light'] as const) {
      await page.emulateMedia({ colorScheme });
      await waitForFrets(page, ['5', '7']);
      await screenshot(page, `player-practice-${colorScheme}-1440`);
    }
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.keyboard.press('Escape');
  });

  it('K: the metronome clicks on the beats, the bar’s first accented', async () => {
    await seekTo(page, 0.2);
    await page.keyboard.press('k');
    await page.keyboard.press(' ');
    await page.waitForFunction(
      () => (document.querySelector<HTMLVideoElement>('.lp video')?.currentTime ?? 0) > 2.3,
    );
    await page.keyboard.press(' ');
    await page.keyboard.press('k');
    const beats = (await clicks()).filter((c) => c.kind === 'beat');
    // Every beat from the first after 0.2 s, in order: 0.5, 1.0, 1.5, ... (a slow machine may have
    // scheduled one more before the pause).
    beats.forEach((c, i) => {
      expect(c.time).toBeCloseTo(0.5 * (i + 1), 2);
    });
    expect(beats.length).toBeGreaterThanOrEqual(4);
    // On the audio clock a beat apart at 1x; the bar's first (2.0 s: the server's grid) accented.
    for (let i = 1; i < beats.length; i += 1) {
      expect(beats[i]!.at - beats[i - 1]!.at).toBeCloseTo(0.5, 1);
    }
    expect(beats.find((c) => Math.abs(c.time - 2) < 0.01)?.accent).toBe(true);
    expect(beats.find((c) => Math.abs(c.time - 1.5) < 0.01)?.accent).toBe(false);
  });

  it('I: a bar of count-in before the loop plays again, the video waiting meanwhile', async () => {
    await resetClicks();
    await seekTo(page, 1);
    await page.keyboard.press('l');
    await page.waitForFunction(
      () => document.querySelector('.lp')?.getAttribute('data-loop') === '1.00-3.00',
    );
    await page.keyboard.press('i');
    await page.keyboard.press(' ');
    // The count-in before play, then the loop's first pass, its end, the count-in again.
    await page.waitForFunction(
      () =>
        (
          window as unknown as { __RIFFSCRIBE_CLICKS__: { kind: string }[] }
        ).__RIFFSCRIBE_CLICKS__.filter((c) => c.kind === 'count').length >= 8,
      undefined,
      { timeout: 15_000 },
    );
    expect(await page.locator('.lp').getAttribute('data-counting')).toBe('true');
    const paused = await page.locator('.lp video').evaluate((v: HTMLVideoElement) => ({
      paused: v.paused,
      time: v.currentTime,
    }));
    expect(paused.paused).toBe(true);
    expect(paused.time).toBeCloseTo(1, 1);
    await page.waitForFunction(
      () => document.querySelector('.lp')?.getAttribute('data-counting') === 'false',
    );
    await page.keyboard.press(' ');
    await page.keyboard.press('i');
    const counts = (await clicks()).filter((c) => c.kind === 'count');
    // Two bars of four, each before 1.0 s at the beat period, the first of each accented.
    expect(counts.length).toBeGreaterThanOrEqual(8);
    counts.slice(0, 8).forEach((c, i) => {
      expect(c.time).toBeCloseTo([-1, -0.5, 0, 0.5][i % 4] ?? NaN, 2);
    });
    expect(counts.slice(0, 8).map((c) => c.accent)).toEqual([
      true,
      false,
      false,
      false,
      true,
      false,
      false,
      false,
    ]);
    for (const bar of [counts.slice(0, 4), counts.slice(4, 8)]) {
      for (let i = 1; i < bar.length; i += 1) {
        expect(bar[i]!.at - bar[i - 1]!.at).toBeCloseTo(0.5, 2);
      }
    }
  });

  it('T: the speed trainer plays the loop at 0.5, then 0.6, then 0.7', async () => {
    const dialog = await openPractice();
    await dialog.getByLabel('Start %').fill('50');
    await dialog.getByLabel('Target %').fill('70');
    await dialog.getByLabel('Step %').fill('10');
    await dialog.getByLabel('Passes per step').fill('1');
    for (const [label, value] of [
      ['Start %', '50'],
      ['Target %', '70'],
      ['Step %', '10'],
      ['Passes per step', '1'],
    ] as const) {
      expect(await dialog.getByLabel(label).inputValue(), label).toBe(value);
    }
    await seekTo(page, 1);
    if ((await page.locator('.lp').getAttribute('data-loop')) !== '1.00-3.00') {
      await page.evaluate(() => {
        (document.activeElement as HTMLElement | null)?.blur();
      });
      await page.keyboard.press('l');
    }
    // The button (T does the same); Escape would also clear the loop, so the panel is closed by
    // its own button.
    await dialog.getByRole('button', { name: /Start training/ }).click();
    expect(await dialog.getByRole('status').textContent()).toBe('Speed 50 % · pass 1 of 1');
    await page.getByRole('button', { name: 'Practice' }).click();
    await page.waitForFunction(
      () => document.querySelector('.lp')?.getAttribute('data-speed') === '0.5',
    );
    expect(await page.getByTestId('trainer-speed').textContent()).toBe(' 50 %');
    // Space on the page, not on the Practice button that has the focus.
    await page.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
    });
    await page.keyboard.press(' ');
    await page.waitForFunction(
      () => !document.querySelector<HTMLVideoElement>('.lp video')?.paused,
    );
    for (const speed of ['0.6', '0.7']) {
      await page.waitForFunction(
        (s) => document.querySelector('.lp')?.getAttribute('data-speed') === s,
        speed,
        { timeout: 15_000 },
      );
      expect(
        await page.locator('.lp video').evaluate((v: HTMLVideoElement) => v.playbackRate),
      ).toBe(Number(speed));
    }
    await page.keyboard.press(' ');
    await page.keyboard.press('t');
    expect(await page.getByTestId('trainer-speed').count()).toBe(0);
  });

  it('G: the left-handed view mirrors the fretboard and the video, for this user only', async () => {
    await page.keyboard.press('Escape');
    await seekTo(page, 0.6);
    const plain = await columns();
    await page.keyboard.press('g');
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid="fretboard"]')?.getAttribute('data-mirrored') ===
        'true',
    );
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
    const mirrored = await columns();
    // The layout reversed (text is drawn readable, so not pixel for pixel).
    const reversed = correlation(plain, [...mirrored].reverse());
    expect(reversed).toBeGreaterThan(0.9);
    expect(reversed - correlation(plain, mirrored)).toBeGreaterThan(0.15);
    const transform = await page
      .locator('.lp-video-frame')
      .evaluate((el) => getComputedStyle(el).transform);
    expect(transform).toBe('matrix(-1, 0, 0, 1, 0, 0)');
    await screenshot(page, 'player-left-handed-dark-1440');

    // Remembered after a reload...
    await openLesson(page, server.url, jobId);
    await page.waitForFunction(
      () => document.querySelector('.lp')?.getAttribute('data-left-handed') === 'true',
    );
    // ...and not for another user of this browser (same storage, another account).
    await signIn(page, server.url, { email: 'prac2@example.test', name: 'Other Player' });
    const second = await userByEmail(server, 'prac2@example.test');
    const theirs = await seedLesson(server, second, {
      ...editLesson(),
      video: makeVideo(work, 'theirs.mp4', 4, { sound: 'tone', portrait: true }),
      duration: 4,
    });
    await openLesson(page, server.url, theirs);
    expect(await page.locator('.lp').getAttribute('data-left-handed')).toBe('false');
  });
});
