import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  chromium,
  type Browser,
  type Download,
  type LaunchOptions,
  type Locator,
  type Page,
} from 'playwright-core';
import { inject } from 'vitest';
import { ROOT } from './app.js';

export const SCREENSHOT_DIR = path.join(ROOT, 'e2e/screenshots');

/** Flags every test browser gets: headless, and what this machine's closed network needs. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Debian's Chromium, or CHROMIUM_PATH. */
export const chromiumPath = () => process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, with the flags this machine's closed network needs. */
export function launchChromium(
  extraArgs: string[] = [],
  options: LaunchOptions = {},
): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    ...options,
  });
}

/**
 * The e2e project's shared Chromium (global-browser.ts), or one of this file's own where there is
 * none (a file run outside the project). `close()` on it closes only this file's contexts. Files
 * that need flags of their own, or hand large files to an upload (a remote browser copies each
 * file over its connection), launch their own with launchChromium.
 */
export async function sharedChromium(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  return endpoint ? chromium.connect(endpoint) : launchChromium();
}

/**
 * Saves a screenshot under e2e/screenshots/<name>.png (looked at by a person): the whole page,
 * or with `{ of: locator }` the viewport scrolled to that element. The latter leaves the page's
 * viewport alone: Chromium takes a whole-page picture by resizing the view to the page's height,
 * which a page in the middle of something (a recording) should not be put through.
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { of?: Locator } = {},
): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  if (options.of) {
    await options.of.evaluate((el) => {
      el.scrollIntoView({ block: 'center', behavior: 'instant' });
    });
    await page.screenshot({ path: file });
    return file;
  }
  // A full-page picture of a scrolled page draws a sticky header mid-page.
  await page.evaluate(() => {
    window.scrollTo({ top: 0, behavior: 'instant' });
  });
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** The bytes of a download (read through Playwright, so it works on the shared browser too). */
export async function downloadBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const pageLogs = new WeakMap<Page, string[]>();

/**
 * Keeps the page's console errors and warnings and its uncaught errors, so that a test that
 * fails can say what the page said (`pageReport`).
 */
export function watchPage(page: Page): Page {
  const log: string[] = [];
  pageLogs.set(page, log);
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning')
      log.push(`console.${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => log.push(`pageerror: ${e.message}`));
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) log.push(`navigated: ${f.url()}`);
  });
  return page;
}

/** What the page shows and what it logged (see watchPage), for a failing test's message. */
export async function pageReport(page: Page): Promise<string> {
  const text = await page
    .locator('body')
    .innerText({ timeout: 5_000 })
    .catch((e: unknown) => `(no text: ${String(e)})`);
  const log = pageLogs.get(page) ?? [];
  return `url: ${page.url()}\npage log:\n${log.join('\n') || '(none)'}\npage text:\n${text.replace(/\n{2,}/g, '\n').slice(0, 1500)}`;
}

/**
 * Holds the page's job status stream (GET /api/job-status-stream) unanswered, so that the
 * processing screen stays as it first appears until check-status polling (every 10 s) moves it:
 * for tests that look at that first state. The live stream itself is tested in
 * e2e/live-status.test.ts.
 */
export async function holdStatusStream(page: Page): Promise<void> {
  await page.route(
    (u) => u.pathname === '/api/job-status-stream',
    () => undefined,
  );
}
