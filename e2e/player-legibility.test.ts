import { rmSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer, TestUser } from '../apps/server/test/support/test-server.js';
import { launchChromium, screenshot } from './support/browser.js';
import { denseLesson } from './support/lesson-data.js';
import { openLesson, seekTo } from './support/player.js';
import { signIn } from './support/auth.js';
import { seedLesson, startServerWithWeb, userByEmail } from './support/lessons.js';
import { makeVideo, mediaDir } from './support/media.js';

interface Legibility {
  text: string;
  kind: string;
  /** The text's strongest contrast against the colour behind it, WCAG ratio. */
  contrast: number;
  /** How many of its pixels reach 4.5:1. */
  inkPixels: number;
}

/**
 * Reads the timeline canvas's pixels where the player says it drew each fret number and chord
 * name: the colour behind the text is the box's most common colour, the text's colour the pixel
 * furthest from it in luminance; their WCAG contrast ratio must reach 4.5:1.
 */
function measureLegibility(page: Page): Promise<Legibility[]> {
  return page.getByTestId('timeline').evaluate((canvas: HTMLCanvasElement) => {
    type Drawn = {
      kind: string;
      text: string;
      left: number;
      top: number;
      width: number;
      height: number;
    };
    const el = canvas as HTMLCanvasElement & { drawnText?: () => Drawn[] };
    const boxes = el.drawnText?.() ?? [];
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2d context');
    const scale = canvas.width / canvas.getBoundingClientRect().width;
    const channel = (c: number) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    const lum = (r: number, g: number, b: number) =>
      0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    const ratio = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    return boxes.map((box) => {
      const x = Math.round(box.left * scale);
      const y = Math.round(box.top * scale);
      const w = Math.max(1, Math.round(box.width * scale));
      const h = Math.max(1, Math.round(box.height * scale));
      const data = ctx.getImageData(x, y, w, h).data;
      const counts = new Map<number, number>();
      for (let k = 0; k < data.length; k += 4) {
        const key = (data[k]! << 16) | (data[k + 1]! << 8) | data[k + 2]!;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      let bg = 0;
      let most = -1;
      for (const [key, n] of counts) {
        if (n > most) {
          most = n;
          bg = key;
        }
      }
      const bgLum = lum((bg >> 16) & 255, (bg >> 8) & 255, bg & 255);
      let contrast = 1;
      let inkPixels = 0;
      for (let k = 0; k < data.length; k += 4) {
        const c = ratio(lum(data[k]!, data[k + 1]!, data[k + 2]!), bgLum);
        if (c > contrast) contrast = c;
        if (c >= 4.5) inkPixels += 1;
      }
      return { text: box.text, kind: box.kind, contrast, inkPixels };
    });
  });
}

/**
 * Issue 11: the tab must be readable in both colour schemes. Every fret number and chord name on
 * screen reaches a contrast of 4.5:1 against what is behind it, sounding notes included (they are
 * highlighted on top of that), and the staff names its strings from the tuning.
 */
describe('tab legibility in Chromium, light and dark', () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let jobId: string;
  let owner: TestUser;
  let work: string;

  beforeAll(async () => {
    work = mediaDir();
    server = await startServerWithWeb();
    browser = await launchChromium(['--autoplay-policy=no-user-gesture-required']);
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, server.url, { email: 'lee@example.test', name: 'Lee Reader' });
    const lesson = denseLesson(160);
    owner = await userByEmail(server, 'lee@example.test');
    jobId = await seedLesson(server, owner, {
      ...lesson,
      video: makeVideo(work, 'dense.mp4', lesson.duration, { sound: 'tone', portrait: true }),
    });
    await page.close();
  });

  afterAll(async () => {
    await context.close();
    await browser.close();
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`every fret number and chord name reaches 4.5:1 (${scheme})`, async () => {
      const page = await context.newPage();
      await page.emulateMedia({ colorScheme: scheme });
      await openLesson(page, server.url, jobId);
      // Paused mid-phrase, with notes sounding under the playhead.
      await seekTo(page, 6.1);
      await page.waitForFunction(() => {
        const el = document.querySelector<HTMLCanvasElement & { drawnText?: () => unknown[] }>(
          '[data-testid="timeline"]',
        );
        return (el?.drawnText?.().length ?? 0) > 0;
      });
      await screenshot(page, `player-legibility-${scheme}-1440`);
      const measured = await measureLegibility(page);
      const frets = measured.filter((m) => m.kind === 'fret');
      const chords = measured.filter((m) => m.kind === 'chord');
      expect(frets.length).toBeGreaterThan(20);
      expect(chords.length).toBeGreaterThan(3);
      const weak = measured.filter((m) => m.contrast < 4.5 || m.inkPixels < 4);
      expect(weak).toEqual([]);
      console.log(
        `${scheme}: ${String(frets.length)} fret numbers, ${String(chords.length)} chord names, lowest contrast ${Math.min(...measured.map((m) => m.contrast)).toFixed(2)}:1`,
      );
      expect(await page.getByTestId('string-names').textContent()).toBe('eBGDAE');
      await page.close();
    });
  }

  it('asks for no file that is not there, runs the synth without a CSP error, lists sounding notes in string order, and refreshes the credits after a view', async () => {
    const page = await context.newPage();
    const missing: string[] = [];
    const errors: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 404) missing.push(r.url());
    });
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    await openLesson(page, server.url, jobId);
    await page.getByRole('button', { name: 'Audio source' }).click();
    await page.getByRole('menuitemradio', { name: 'Synth' }).click();
    await seekTo(page, 2);
    await page.keyboard.press('Space');
    await page.locator('.lp[data-synth="running"]').waitFor();
    await page.keyboard.press('Space');
    expect(missing).toEqual([]);
    expect(errors.filter((e) => /Content.Security.Policy/i.test(e))).toEqual([]);

    // Several notes sounding at once are listed high e first.
    let most = 0;
    for (const t of [4.1, 4.6, 5.3, 7.2, 9.6]) {
      await seekTo(page, t);
      const strings = await page
        .getByTestId('sounding-note')
        .evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-string'))));
      expect(strings).toEqual([...strings].sort((a, b) => a - b));
      most = Math.max(most, strings.length);
    }
    // The order was checked on a real chord, not only on single notes.
    expect(most).toBeGreaterThan(1);
    await page.close();

    // Another user opens the shared lesson: the view credit it spends shows in the header at once.
    const shared = await server.request('PATCH', `/api/job?id=${jobId}`, {
      token: owner.token,
      json: { sharedToExplore: true },
    });
    expect(shared.status).toBe(200);
    const other = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const viewer = await other.newPage();
    await signIn(viewer, server.url, { email: 'vic@example.test', name: 'Vic Viewer' });
    await viewer.goto(`${server.url}/lesson/${jobId}`);
    const header = viewer.getByText(/\d+ creator · \d+ view/);
    const before = await header.textContent();
    await viewer.getByRole('button', { name: 'Continue' }).click();
    await viewer.locator('.lp video').waitFor({ state: 'attached' });
    const left = Number(/(\d+) view/.exec(before ?? '')?.[1]) - 1;
    await viewer
      .getByText(new RegExp(`\\b${String(left)} view`))
      .first()
      .waitFor();
    await other.close();
  });
});
