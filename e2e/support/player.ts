import type { Page } from 'playwright-core';

/** The lesson video's state, read in the page. */
export function videoState(page: Page) {
  return page.locator('.lp video').evaluate((v: HTMLVideoElement) => ({
    time: v.currentTime,
    paused: v.paused,
    rate: v.playbackRate,
    muted: v.muted,
    preservesPitch: v.preservesPitch,
  }));
}

/** Opens a lesson and waits until its video can play; closes the intro if it shows. */
export async function openLesson(page: Page, url: string, jobId: string): Promise<void> {
  await page.goto(`${url}/lesson/${jobId}`);
  await page.locator('.lp video').waitFor({ state: 'attached' });
  await page.waitForFunction(() => {
    const v = document.querySelector<HTMLVideoElement>('.lp video');
    return v !== null && v.readyState >= 3;
  });
  const intro = page.getByRole('button', { name: 'Start playing' });
  if (await intro.isVisible()) await intro.click();
}

/** Pauses and moves the video to `time` seconds, then waits for the frame to be drawn. */
export async function seekTo(page: Page, time: number): Promise<void> {
  await page.locator('.lp video').evaluate(async (v: HTMLVideoElement, t: number) => {
    v.pause();
    v.currentTime = t;
    await new Promise((r) => {
      v.addEventListener('seeked', r, { once: true });
    });
  }, time);
  await page.waitForFunction(() => {
    const v = document.querySelector<HTMLVideoElement>('.lp video');
    return v !== null && v.readyState >= 2 && !v.seeking;
  });
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
  );
}
