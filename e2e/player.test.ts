import { readFileSync, rmSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MESSAGES } from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../apps/server/test/support/test-server.js';
import { launchChromium, screenshot } from './support/browser.js';
import { techniqueLesson } from './support/lesson-data.js';
import { openLesson, seekTo, videoState } from './support/player.js';
import { signIn } from './support/auth.js';
import { seedLesson, startServerWithWeb, userByEmail } from './support/lessons.js';
import { makeToneWav, makeVideo, mediaDir } from './support/media.js';
import { STAFF_GUTTER } from '../apps/web/src/features/player/timeline/scale.js';

/**
 * The tab player in Chromium, on a lesson stored through the server's own code (a real ffmpeg
 * video, engine-format notes with every technique, capo 2, a guitar stem).
 */
describe('tab player in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let jobId: string;
  let work: string;
  let owner: TestUser;
  let lesson: ReturnType<typeof techniqueLesson>;

  /** The fretboard's lit "string:neck fret" list, once it equals `lit`. */
  const waitLit = (lit: string) =>
    page.waitForFunction(
      (want) =>
        document.querySelector('[data-testid="fretboard"]')?.getAttribute('data-lit') === want,
      lit,
    );
  /** How many notes the player has handed to the synth so far. */
  const synthVoices = async () =>
    Number(await page.locator('.lp').getAttribute('data-synth-voices'));

  beforeAll(async () => {
    work = mediaDir();
    server = await startServerWithWeb();
    browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
    context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      colorScheme: 'dark',
    });
    page = await context.newPage();
    await signIn(page, server.url, { email: 'ada@example.test', name: 'Ada Lovelace' });
    owner = await userByEmail(server, 'ada@example.test');
    lesson = techniqueLesson();
    const stem = readFileSync(makeToneWav(work, 196, 9));
    jobId = await seedLesson(server, owner, {
      ...lesson,
      video: makeVideo(work, 'lesson.mp4', 12, { sound: 'tone', portrait: true }),
      duration: 12,
      stem,
    });
  });

  afterAll(async () => {
    await context.close();
    await browser.close();
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('shows the lesson: intro once per session, header, badges, timeline and fretboard', async () => {
    await page.goto(`${server.url}/lesson/${jobId}`);
    await page.getByRole('heading', { name: 'Your lesson is ready' }).waitFor();
    await page.getByRole('button', { name: 'Start playing' }).click();
    await page.getByRole('heading', { name: 'riff' }).waitFor();
    expect(await page.getByText('by @ada').count()).toBe(1);
    expect(await page.getByTestId('badge-capo').textContent()).toBe('Capo 2');
    expect(await page.getByTestId('badge-tuning').textContent()).toBe('Standard');
    expect(await page.getByTestId('badge-key').textContent()).toBe('B minor');
    await page.getByText('1 open').waitFor();
    await page.reload();
    await page.locator('.lp video').waitFor({ state: 'attached' });
    await page.getByTestId('timeline').waitFor();
    expect(await page.getByRole('heading', { name: 'Your lesson is ready' }).isVisible()).toBe(
      false,
    );
    await openLesson(page, server.url, jobId);
  });

  it('plays and pauses from the button and from Space', async () => {
    await seekTo(page, 0);
    await page.getByRole('button', { name: 'Play', exact: true }).click();
    // Playing: the video's clock moves (however long a busy machine takes to start it).
    await page.waitForFunction(() => {
      const v = document.querySelector<HTMLVideoElement>('.lp video');
      return v !== null && !v.paused && v.currentTime > 0.3;
    });
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    const paused = await videoState(page);
    expect(paused.paused).toBe(true);
    await page.keyboard.press('Space');
    expect((await videoState(page)).paused).toBe(false);
    await page.keyboard.press('Space');
    expect((await videoState(page)).paused).toBe(true);
  });

  it('seeks by a click on the timeline, by the arrows and by the slider', async () => {
    await seekTo(page, 0);
    const box = (await page.getByTestId('timeline').boundingBox())!;
    // At zoom 100 px/s with the playhead at the start, 300 px right of the string names is 3 s.
    await page.mouse.click(box.x + STAFF_GUTTER + 300, box.y + box.height / 2);
    expect((await videoState(page)).time).toBeCloseTo(3, 1);
    await page.keyboard.press('ArrowRight');
    expect((await videoState(page)).time).toBeCloseTo(3.5, 1);
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    expect((await videoState(page)).time).toBeCloseTo(2.5, 1);
    await page.getByRole('slider', { name: 'Seek' }).evaluate((input: HTMLInputElement) => {
      // The prototype's setter, so React sees a change as from a person moving the slider.
      const value = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!;
      value.set!.call(input, '7.25');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect((await videoState(page)).time).toBeCloseTo(7.25, 1);
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="time-readout"]')?.textContent.startsWith('0:07.2'),
    );
  });

  it('changes speed from the menu and with Up/Down, keeping the pitch', async () => {
    await page.getByRole('button', { name: 'Speed' }).click();
    await page.getByRole('menuitemradio', { name: '0.5x' }).click();
    expect(await videoState(page)).toMatchObject({ rate: 0.5, preservesPitch: true });
    await page.keyboard.press('ArrowUp');
    expect((await videoState(page)).rate).toBe(0.75);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect((await videoState(page)).rate).toBe(0.25);
    for (let k = 0; k < 3; k += 1) await page.keyboard.press('ArrowUp');
    expect((await videoState(page)).rate).toBe(1);
  });

  it('sets a 2 s loop with L, clears it with L and Escape, and loops playback', async () => {
    await seekTo(page, 1);
    await page.keyboard.press('l');
    expect(await page.locator('.lp').getAttribute('data-loop')).toBe('1.00-3.00');
    await page.keyboard.press('L');
    expect(await page.locator('.lp').getAttribute('data-loop')).toBe('');
    await page.keyboard.press('l');
    await page.keyboard.press('Escape');
    expect(await page.locator('.lp').getAttribute('data-loop')).toBe('');
    await page.getByRole('button', { name: 'Loop', exact: true }).click();
    expect(await page.locator('.lp').getAttribute('data-loop')).toBe('1.00-3.00');
    await page.keyboard.press('Space');
    // Every frame's video time until playback has gone round the loop twice: however slowly a
    // busy machine plays, the readings must stay inside 1-3 s and jump back from the end.
    const seen = await page.evaluate(
      () =>
        new Promise<number[]>((resolve) => {
          const v = document.querySelector<HTMLVideoElement>('.lp video')!;
          const times: number[] = [];
          let wraps = 0;
          const frame = () => {
            const t = v.currentTime;
            const last = times.at(-1);
            if (last !== undefined && t < last - 1) wraps += 1;
            times.push(t);
            if (wraps >= 2) resolve(times);
            else requestAnimationFrame(frame);
          };
          requestAnimationFrame(frame);
        }),
    );
    await page.keyboard.press('Space');
    // The player wraps on its animation frame, so a reading may pass the end by one frame's
    // worth of playback; a frame held back by a busy machine is allowed for (without the loop
    // playback would run on to 12 s).
    expect(Math.max(...seen)).toBeLessThan(3.5);
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(0.99);
    await page.getByRole('button', { name: 'Loop on', exact: true }).click();
    expect(await page.locator('.lp').getAttribute('data-loop')).toBe('');
  });

  it('lights the right string and fret at a known time (capo 2)', async () => {
    // 2.0-3.2 s: string 3, tab fret 7 with capo 2, so the 9th fret of the neck.
    await seekTo(page, 2.5);
    await waitLit('3:9');
    const chip = page.getByTestId('sounding-note');
    expect(await chip.count()).toBe(1);
    expect(await chip.getAttribute('data-string')).toBe('3');
    expect(await chip.getAttribute('data-fret')).toBe('7');
    await page.getByText('bend full + release').waitFor();
    await seekTo(page, 1.2);
    await page.waitForFunction(() => {
      const lit = document.querySelector('[data-testid="fretboard"]')?.getAttribute('data-lit');
      return lit === '3:7 2:7' || lit === '2:7 3:7';
    });
    await seekTo(page, 1.8);
    await waitLit('');
  });

  it('switches the audio source: original, synth, guitar stem', async () => {
    expect((await videoState(page)).muted).toBe(false);
    await page.getByRole('button', { name: 'Audio source' }).click();
    await page.getByRole('menuitemradio', { name: 'Synth' }).click();
    expect((await videoState(page)).muted).toBe(true);
    await seekTo(page, 1.9);
    const before = await synthVoices();
    await page.keyboard.press('Space');
    await page.locator('.lp[data-synth="running"]').waitFor();
    // Playing over the 2.0 s note hands it to the synth: the count goes up, not just the context.
    await expect.poll(synthVoices, { timeout: 3000 }).toBeGreaterThan(before);
    await page.keyboard.press('Space');

    await page.getByRole('button', { name: 'Audio source' }).click();
    await page.getByRole('menuitemradio', { name: 'Guitar' }).click();
    await seekTo(page, 2);
    await page.keyboard.press('Space');
    // The stem plays from the video's time scaled by the spec's ratio: it starts near 2 * 1.4286
    // and runs on from there.
    await page.waitForFunction(() => {
      const a = document.querySelector<HTMLAudioElement>('.lp audio');
      return a !== null && !a.paused && a.currentTime > 2 * 1.4286 + 0.05;
    });
    const stem = await page.locator('.lp audio').evaluate((a: HTMLAudioElement) => ({
      paused: a.paused,
      rate: a.playbackRate,
      time: a.currentTime,
    }));
    await page.keyboard.press('Space');
    expect(stem.paused).toBe(false);
    expect(stem.rate).toBeCloseTo(1.4286, 4);
    expect((await videoState(page)).muted).toBe(true);

    await page.getByRole('button', { name: 'Audio source' }).click();
    await page.getByRole('menuitemradio', { name: 'Original' }).click();
    expect((await videoState(page)).muted).toBe(false);
    expect(await page.locator('.lp audio').evaluate((a: HTMLAudioElement) => a.paused)).toBe(true);
  });

  it('shows each fullscreen mode and leaves it', async () => {
    const visible = async () => ({
      video: await page.locator('.lp-video').isVisible(),
      tabs: await page.getByTestId('timeline').isVisible(),
      fretboard: await page.getByTestId('fretboard').isVisible(),
    });
    const choose = async (name: string) => {
      await page.getByRole('button', { name: 'Fullscreen' }).click();
      await page.getByRole('menuitemradio', { name }).click();
    };
    await choose('Tabs');
    expect(await page.locator('.lp').getAttribute('data-fullscreen')).toBe('tabs');
    expect(await visible()).toEqual({ video: false, tabs: true, fretboard: false });
    await choose('Fretboard');
    expect(await visible()).toEqual({ video: false, tabs: false, fretboard: true });
    await choose('Video');
    expect(await visible()).toEqual({ video: true, tabs: false, fretboard: false });
    await choose('All');
    expect(await visible()).toEqual({ video: true, tabs: true, fretboard: true });
    await choose('Exit fullscreen');
    expect(await page.locator('.lp').getAttribute('data-fullscreen')).toBe('none');
  });

  it('shows capoed chord names', async () => {
    await seekTo(page, 1);
    await page.getByRole('button', { name: 'Chord display' }).click();
    await page.getByRole('menuitemradio', { name: /Capoed/ }).click();
    await page.locator('.lp-sounding-chord', { hasText: 'Am' }).waitFor();
    await page.getByRole('button', { name: 'Chord display' }).click();
    await page.getByRole('menuitemradio', { name: 'Original' }).click();
    await page.locator('.lp-sounding-chord', { hasText: 'Bm' }).waitFor();
  });

  it('shows the saved edit, and the AI tabs after Tabs source: Original (AI)', async () => {
    // The owner saves an edit through the API: the 2.0 s bend moves from tab fret 7 to 5.
    const edited = lesson.notes.map((n) =>
      n.time === 2 && n.string === 3 ? { ...n, fret: 5, bend_to_fret: 7, release_to_fret: 5 } : n,
    );
    expect(edited.filter((n) => n.fret === 5 && n.string === 3 && n.time === 2)).toHaveLength(1);
    const saved = await server.request('POST', `/api/edit-notes?jobId=${jobId}`, {
      token: owner.token,
      json: { events: edited },
    });
    expect(saved.status).toBe(200);
    await openLesson(page, server.url, jobId);
    await page.locator('.lp[data-tabs-version="edited"]').waitFor();
    await seekTo(page, 2.5);
    await waitLit('3:7'); // tab fret 5 + capo 2
    await page.getByRole('button', { name: 'Tabs source' }).click();
    await page.getByRole('menuitemradio', { name: 'Original (AI)' }).click();
    await page.locator('.lp[data-tabs-version="original"]').waitFor();
    await waitLit('3:9'); // tab fret 7 + capo 2
    expect(await page.getByTestId('sounding-note').getAttribute('data-fret')).toBe('7');
  });

  it('says which lesson failed to load, and sends a phone back home without loading it', async () => {
    const other = await context.newPage();
    await other.goto(`${server.url}/lesson/no-such-lesson`);
    await other.getByRole('heading', { name: MESSAGES.failedToLoadJob }).waitFor();
    // Under the spec's heading, what the server said about the missing lesson.
    expect((await other.getByRole('alert').locator('p').textContent())?.trim()).toMatch(/\w/);
    expect(await other.getByRole('link', { name: 'Back' }).getAttribute('href')).toBe('/');
    await screenshot(other, 'player-load-failed-1440');
    await other.close();

    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
    });
    const small = await phone.newPage();
    const calls: string[] = [];
    small.on('request', (r) => {
      const { pathname } = new URL(r.url());
      if (pathname.startsWith('/api/')) calls.push(pathname);
    });
    await small.goto(`${server.url}/lesson/${jobId}`);
    await small.getByRole('heading', { name: 'Desktop Experience Required' }).waitFor();
    expect(calls).not.toContain('/api/notes');
    await small.getByRole('button', { name: 'Go Back' }).click();
    await small.waitForURL(`${server.url}/`);
    await phone.close();
  });

  it('looks right at 1440 and 1920 px', async () => {
    await seekTo(page, 1.9);
    await screenshot(page, 'player-techniques-1440');
    await page.mouse.move(10, 10);
    const box = (await page.getByTestId('timeline').boundingBox())!;
    await page.mouse.move(box.x + 200, box.y + 100);
    for (let k = 0; k < 6; k += 1) await page.mouse.wheel(0, -100);
    // Issue 37: past the slider's 200, the zoom still says where it is.
    await expect
      .poll(async () => Number(await page.getByTestId('zoom-value').textContent()))
      .toBeGreaterThan(200);
    expect(
      await page.getByRole('slider', { name: 'Zoom', exact: true }).getAttribute('aria-valuetext'),
    ).toBe(`${String(await page.getByTestId('zoom-value').textContent())} pixels per second`);
    await seekTo(page, 3.3);
    await screenshot(page, 'player-techniques-zoomed-1440');
    const wide = await context.newPage();
    await wide.setViewportSize({ width: 1920, height: 1080 });
    await openLesson(wide, server.url, jobId);
    // Issue 37: the browser tab names the lesson.
    await expect.poll(() => wide.title()).toMatch(/^.+ · Riffscribe$/);
    expect(await wide.title()).not.toContain('You just play');
    await seekTo(wide, 5.2);
    await screenshot(wide, 'player-techniques-1920');
    await wide.close();
    // The same session in the light colour scheme.
    await page.emulateMedia({ colorScheme: 'light' });
    await seekTo(page, 2.3);
    await screenshot(page, 'player-techniques-light-1440');
    await page.emulateMedia({ colorScheme: 'dark' });
  });
});
