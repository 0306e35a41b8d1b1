import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type LaunchOptions, type Page } from 'playwright-core';
import { ROOT } from './app.js';

export const SCREENSHOT_DIR = path.join(ROOT, 'e2e/screenshots');

/** Debian's Chromium, headless, with the flags this machine's closed network needs. */
export function launchChromium(
  extraArgs: string[] = [],
  options: LaunchOptions = {},
): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...extraArgs,
    ],
    ...options,
  });
}

/** Saves a full-page screenshot under e2e/screenshots/<name>.png (looked at by a person). */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // A full-page picture of a scrolled page draws a sticky header mid-page.
  await page.evaluate(() => {
    window.scrollTo({ top: 0, behavior: 'instant' });
  });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
