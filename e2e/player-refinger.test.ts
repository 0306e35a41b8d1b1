import { rmSync } from 'node:fs';
import { openStringPitch, TUNING_PRESETS } from '@riffscribe/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, waitForLesson, type RunningApp } from './support/app.js';
import { signIn } from './support/auth.js';
import { screenshot, sharedChromium } from './support/browser.js';
import { stringLineY, timeX } from './support/editor.js';
import { makeVideo, mediaDir } from './support/media.js';
import { seekTo } from './support/player.js';
import { DESKTOP } from './support/shots.js';

const STANDARD = TUNING_PRESETS[0].pitches; // E2 A2 D3 G3 B3 E4

/**
 * Issue 19, re-fingering a selection in Chromium on a lesson the real pipeline wrote (`npm start`
 * defaults, embedded worker, the fingering model in the API process). makeVideo's sound is an A
 * minor arpeggio, one tone every 0.5 s: A3, C4, E4, A4, E4, C4, repeating every 3 s. The second
 * cycle's first four tones (3.0-4.5 s) are selected with a drag and moved to the hand position
 * at fret 5: the strings and frets change, the pitches do not; undo, redo, save, reload.
 */
describe('re-finger a selection on a processed lesson', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let dir: string;

  /** Middle of each selected tone and its pitch. */
  const PHRASE: [number, number][] = [
    [3.25, 57],
    [3.75, 60],
    [4.25, 64],
    [4.75, 69],
  ];
  /** Middle of the context's tones (outside the selection) and their pitches. */
  const CONTEXT: [number, number][] = [
    [2.25, 64],
    [2.75, 60],
    [5.25, 64],
    [5.75, 60],
  ];

  /** String and fret of the sounding note with `pitch` at `time`, read from the player's chips. */
  async function placeAt(time: number, pitch: number): Promise<[number, number]> {
    await seekTo(page, time);
    let found: [number, number] | null = null;
    await expect
      .poll(
        async () => {
          const chips = page.getByTestId('sounding-note');
          for (let i = 0; i < (await chips.count()); i += 1) {
            const string = Number(await chips.nth(i).getAttribute('data-string'));
            const fret = Number(await chips.nth(i).getAttribute('data-fret'));
            if (openStringPitch(STANDARD, string) + fret === pitch) {
              found = [string, fret];
              return true;
            }
          }
          return false;
        },
        { message: `pitch ${String(pitch)} at ${String(time)} s` },
      )
      .toBe(true);
    return found!;
  }
  const places = async (tones: [number, number][]) => {
    const out: [number, number][] = [];
    for (const [t, p] of tones) out.push(await placeAt(t, p));
    return out;
  };

  beforeAll(async () => {
    app = await startApp();
    browser = await sharedChromium();
    dir = mediaDir();
    page = await browser.newPage({ viewport: DESKTOP, colorScheme: 'dark' });
  });
  afterAll(async () => {
    await browser.close();
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  let before: [number, number][];
  let contextBefore: [number, number][];
  let after: [number, number][];

  it('processes a clip and opens it in edit mode', { timeout: 240_000 }, async () => {
    const video = makeVideo(dir, 'arpeggio.mp4', 9);
    await signIn(page, app.url, { email: 'finn@example.test', name: 'Finn Fingers' });
    await page.getByLabel('Choose a video file').setInputFiles(video);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'GO!' }).click();
    await page.getByRole('heading', { name: 'Processing Your Video' }).waitFor();
    await waitForLesson(page, 200_000);
    await page.getByRole('button', { name: 'Start playing' }).click();
    await page.locator('.lp[data-mode="edit"]').waitFor();
    await page.waitForFunction(() => {
      const v = document.querySelector<HTMLVideoElement>('.lp video');
      return v !== null && v.readyState >= 3;
    });
    before = await places(PHRASE);
    contextBefore = await places(CONTEXT);
    // The pipeline plays the phrase low on the neck: at least one note below fret 5.
    expect(
      before.some(([, f]) => f > 0 && f < 5),
      JSON.stringify(before),
    ).toBe(true);
  });

  it('selects the phrase with a drag and refuses a constraint no fingering meets', async () => {
    await seekTo(page, 0);
    const top = (await stringLineY(page, 1)) - 10;
    const bottom = (await stringLineY(page, 6)) + 10;
    await page.mouse.move(await timeX(page, 2.9), top);
    await page.mouse.down();
    await page.mouse.move(await timeX(page, 3.9), bottom, { steps: 5 });
    await page.mouse.move(await timeX(page, 4.9), bottom, { steps: 5 });
    await page.mouse.up();
    await expect
      .poll(() => page.getByTestId('edit-summary').textContent())
      .toBe('4 notes selected');
    // F opens the re-finger panel.
    await page.keyboard.press('f');
    const panel = page.getByTestId('refinger-panel');
    await panel.waitFor();
    await panel.getByRole('radio', { name: 'Strings' }).check();
    for (let s = 2; s <= 6; s += 1) {
      await panel.getByRole('checkbox', { name: new RegExp(`^String ${String(s)} `) }).uncheck();
    }
    await panel.getByRole('checkbox', { name: /^String 1 / }).check();
    await panel.getByRole('button', { name: 'Apply' }).click();
    await expect
      .poll(() => panel.getByRole('alert').textContent())
      .toMatch(/The A3 at 3\.\d\d s cannot be played on string 1\. Nothing was changed\./);
    expect(await page.locator('.lp').getAttribute('data-dirty')).toBe('false');
  });

  it('re-fingers the phrase to the hand position at fret 5, keeping every pitch', async () => {
    const panel = page.getByTestId('refinger-panel');
    await panel.getByRole('radio', { name: 'Hand position' }).check();
    await panel.getByRole('spinbutton', { name: 'Hand position (fret)' }).fill('5');
    await screenshot(page, 'player-refinger-panel-1440');
    const answer = page.waitForResponse((r) => r.url().includes('/api/refinger'));
    await panel.getByRole('button', { name: 'Apply' }).click();
    expect((await answer).status()).toBe(200);
    await panel.waitFor({ state: 'detached' });
    await page.locator('.lp[data-dirty="true"]').waitFor();
    await screenshot(page, 'player-refinger-1440');
    // placeAt finds each note by its pitch: every pitch is still there, now in the position.
    after = await places(PHRASE);
    for (const [string, fret] of after) {
      expect(
        fret === 0 || (fret >= 5 && fret <= 8),
        `string ${String(string)} fret ${String(fret)}`,
      ).toBe(true);
    }
    expect(after).not.toEqual(before);
    // The neighbours stay where they were.
    expect(await places(CONTEXT)).toEqual(contextBefore);
  });

  it('undoes and redoes the re-fingering as one step', async () => {
    await page.keyboard.press('Control+z');
    expect(await places(PHRASE)).toEqual(before);
    await page.keyboard.press('Control+Shift+z');
    expect(await places(PHRASE)).toEqual(after);
  });

  it('saves, and the re-fingered phrase is there after a reload', async () => {
    const save = page.getByRole('button', { name: 'Save' });
    if (await save.isEnabled()) await save.click();
    await page.locator('.lp[data-dirty="false"]').waitFor();
    await page.reload();
    const intro = page.getByRole('button', { name: 'Start playing' });
    await Promise.race([intro.waitFor(), page.locator('.lp[data-mode="edit"]').waitFor()]);
    if (await intro.isVisible()) await intro.click();
    await page.locator('.lp[data-mode="edit"]').waitFor();
    await page.waitForFunction(() => {
      const v = document.querySelector<HTMLVideoElement>('.lp video');
      return v !== null && v.readyState >= 3;
    });
    expect(await places(PHRASE)).toEqual(after);
    expect(await places(CONTEXT)).toEqual(contextBefore);
  });

  it('lists the re-finger key in the keyboard help', async () => {
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    expect(
      await help
        .getByText("Re-finger the selection: a hand position, strings, or one note's string")
        .count(),
    ).toBe(1);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
  });
});
