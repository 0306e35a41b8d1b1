import type { Page } from 'playwright-core';
import { screenshot } from './browser.js';

export const DESKTOP = { width: 1440, height: 900 } as const;
export const PHONE = { width: 390, height: 844 } as const;

/**
 * Full-page screenshots of the page as it is, 1440 px wide then 390 px wide (the app switches to
 * its small-screen behaviour there), saved as `<name>-1440.png` and `<name>-390.png`. The
 * viewport is restored afterwards.
 */
export async function shootBoth(page: Page, name: string): Promise<void> {
  const before = page.viewportSize() ?? DESKTOP;
  // screenshot() scrolls to the top first.
  await page.setViewportSize(DESKTOP);
  await settle(page);
  await screenshot(page, `${name}-1440`);
  await page.setViewportSize(PHONE);
  await settle(page);
  await screenshot(page, `${name}-390`);
  await page.setViewportSize(before);
  await settle(page);
}

/**
 * Waits until the page has taken the new viewport width and its fonts are loaded. Evaluated
 * once rather than polled on animation frames, because a page with an installed clock
 * (page.clock) has fake animation frames too; the screenshot itself forces layout.
 */
async function settle(page: Page): Promise<void> {
  const want = page.viewportSize()?.width;
  const width = await page.evaluate(async () => {
    await document.fonts.ready;
    return window.innerWidth;
  });
  if (want !== undefined && width !== want) {
    throw new Error(`The page is ${String(width)} px wide after a resize to ${String(want)} px.`);
  }
}
