import { rmSync } from 'node:fs';
import { openStringPitch, TUNING_PRESETS } from '@riffscribe/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seekTo, videoState } from './support/player.js';
import { seriousA11yViolations } from './support/a11y.js';
import { startApp, waitForLesson, type RunningApp } from './support/app.js';
import { signIn } from './support/auth.js';
import { screenshot, sharedChromium } from './support/browser.js';
import { makeVideo, mediaDir } from './support/media.js';
import { DESKTOP } from './support/shots.js';
import { STAFF_GUTTER } from '../apps/web/src/features/player/timeline/scale.js';

const STANDARD = TUNING_PRESETS[0].pitches; // Standard: E2 A2 D3 G3 B3 E4

/**
 * The player on a lesson the real pipeline wrote (`npm start` defaults, embedded worker): the
 * video goes through the upload wizard, the success state opens the tab player, and the notes it
 * shows are the ones in the clip. makeVideo's sound is an A minor arpeggio, one tone every 0.5 s:
 * A3, C4, E4, A4, E4, C4, repeating every 3 s.
 */
describe('tab player on a lesson processed by the real pipeline', () => {
  let app: RunningApp;
  let browser: Browser;
  let page: Page;
  let dir: string;

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

  /** MIDI pitches of the notes the player lists as sounding now (standard tuning, no capo). */
  async function soundingPitches(): Promise<number[]> {
    const chips = page.getByTestId('sounding-note');
    const out: number[] = [];
    for (let i = 0; i < (await chips.count()); i += 1) {
      const chip = chips.nth(i);
      const string = Number(await chip.getAttribute('data-string'));
      const fret = Number(await chip.getAttribute('data-fret'));
      out.push(openStringPitch(STANDARD, string) + fret);
    }
    return out;
  }

  it(
    'opens the processed lesson in the player from the success state',
    { timeout: 240_000 },
    async () => {
      const video = makeVideo(dir, 'arpeggio.mp4', 9);
      await signIn(page, app.url, { email: 'lee@example.test', name: 'Lee Ritenour' });
      await page.getByLabel('Choose a video file').setInputFiles(video);
      await page.getByRole('button', { name: 'Continue' }).click();
      await page.getByRole('button', { name: 'GO!' }).click();
      await page.getByRole('heading', { name: 'Processing Your Video' }).waitFor();
      // The page polls every 10 s, then waits 2 s before it shows the lesson.
      await waitForLesson(page, 200_000);
      expect(new URL(page.url()).pathname).toMatch(/^\/lesson\/[\w-]+$/);
      await page.getByRole('button', { name: 'Start playing' }).click();
      await page.getByRole('heading', { name: 'arpeggio' }).waitFor();
      await page.waitForFunction(() => {
        const v = document.querySelector<HTMLVideoElement>('.lp video');
        return v !== null && v.readyState >= 3;
      });
      expect(await seriousA11yViolations(page)).toEqual([]);
    },
  );

  it('lights the notes of the clip while they sound', async () => {
    // Mid-way through each tone of the first two cycles.
    const expected: [number, number][] = [
      [0.25, 57],
      [0.75, 60],
      [1.25, 64],
      [1.75, 69],
      [3.25, 57],
      [4.25, 64],
    ];
    for (const [time, pitch] of expected) {
      await seekTo(page, time);
      await expect.poll(soundingPitches, { message: `at ${String(time)} s` }).toContain(pitch);
      const lit = await page.getByTestId('fretboard').getAttribute('data-lit');
      expect(lit, `fretboard at ${String(time)} s`).not.toBe('');
    }
    await seekTo(page, 1.3);
    await screenshot(page, 'player-pipeline-1440');
  });

  it('plays and pauses the processed video', async () => {
    await seekTo(page, 0);
    await page.keyboard.press('Space');
    await expect.poll(async () => (await videoState(page)).time).toBeGreaterThan(0.5);
    await page.keyboard.press('Space');
    expect((await videoState(page)).paused).toBe(true);
  });

  it('seeks by a click and the arrows, changes speed, loops, and switches to the synth', async () => {
    await seekTo(page, 0);
    const box = await page.getByTestId('timeline').boundingBox();
    if (!box) throw new Error('no timeline');
    // Zoom 100 px/s with the playhead at the start: 300 px right of the string names is 3 s. The
    // owner is in edit mode, where a click on a note selects it: click the time ruler instead.
    await page.mouse.click(box.x + STAFF_GUTTER + 300, box.y + box.height - 4);
    expect((await videoState(page)).time).toBeCloseTo(3, 1);
    await page.keyboard.press('ArrowRight');
    expect((await videoState(page)).time).toBeCloseTo(3.5, 1);
    await page.keyboard.press('ArrowDown');
    expect(await videoState(page)).toMatchObject({ rate: 0.75, preservesPitch: true });
    await page.keyboard.press('ArrowUp');
    expect((await videoState(page)).rate).toBe(1);
    await page.keyboard.press('l');
    expect(await page.locator('.lp').getAttribute('data-loop')).toBe('3.50-5.50');
    await page.keyboard.press('Escape');
    expect(await page.locator('.lp').getAttribute('data-loop')).toBe('');

    await page.getByRole('button', { name: 'Audio source' }).click();
    await page.getByRole('menuitemradio', { name: 'Synth' }).click();
    expect((await videoState(page)).muted).toBe(true);
    const synthVoices = async () =>
      Number(await page.locator('.lp').getAttribute('data-synth-voices'));
    const before = await synthVoices();
    await page.keyboard.press('Space');
    await page.locator('.lp[data-synth="running"]').waitFor();
    // The clip has a note every 0.5 s: playing hands the transcribed notes to the synth.
    await expect.poll(synthVoices, { timeout: 3000 }).toBeGreaterThan(before);
    await page.keyboard.press('Space');
    await page.getByRole('button', { name: 'Audio source' }).click();
    await page.getByRole('menuitemradio', { name: 'Original' }).click();
    expect((await videoState(page)).muted).toBe(false);

    await page.getByRole('button', { name: 'Fullscreen' }).click();
    await page.getByRole('menuitemradio', { name: 'Tabs' }).click();
    expect(await page.locator('.lp').getAttribute('data-fullscreen')).toBe('tabs');
    await page.getByRole('button', { name: 'Fullscreen' }).click();
    await page.getByRole('menuitemradio', { name: 'Exit fullscreen' }).click();
    expect(await page.locator('.lp').getAttribute('data-fullscreen')).toBe('none');
  });
});
