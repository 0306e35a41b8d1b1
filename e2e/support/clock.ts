import type { Page } from 'playwright-core';

/**
 * Holds the page's clock (installed with page.clock.install, which flows as real time until it is
 * paused) half a second past the page's own time: from then on the page's timers and animation
 * frames move only when the test moves them (runFor). The page's time, not the test's: runFor may
 * have moved it ahead of the test's.
 */
export async function holdClock(page: Page): Promise<void> {
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 500);
}
