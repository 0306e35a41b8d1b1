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
  // A seek set before the metadata (just after a reload) goes nowhere, and the player may replace
  // its video element (recovery): so the seek is set once the metadata is there, always (the
  // player follows a seek), and then polled for, set again if it did not take, until the video
  // is paused, not seeking and at the time asked for (or the clip's end), instead of waiting
  // for one 'seeked' event that may never come.
  const videoReady = () => {
    const v = document.querySelector<HTMLVideoElement>('.lp video');
    return v !== null && v.readyState >= 1;
  };
  await page.waitForFunction(videoReady);
  await page.locator('.lp video').evaluate((v: HTMLVideoElement, t: number) => {
    v.pause();
    v.currentTime = t;
  }, time);
  await page.waitForFunction(
    (t) => {
      const v = document.querySelector<HTMLVideoElement>('.lp video');
      if (v === null || v.readyState < 1) return false;
      if (!v.paused) v.pause();
      const target = Number.isFinite(v.duration) ? Math.min(t, v.duration) : t;
      if (v.seeking) return false;
      if (Math.abs(v.currentTime - target) > 0.01) {
        v.currentTime = target;
        return false;
      }
      return v.readyState >= 2;
    },
    time,
    { polling: 50 },
  );
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
  );
}

/** Wheels the timeline (pointer over it) until its zoom is `target` px/s, 10 or 600 (the ends). */
export async function zoomTimeline(page: Page, target: 10 | 600): Promise<void> {
  const box = (await page.getByTestId('timeline').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  for (let k = 0; k < 40; k += 1) {
    if ((await page.getByTestId('timeline').getAttribute('data-zoom')) === String(target)) return;
    await page.mouse.wheel(0, target === 600 ? -400 : 400);
  }
  throw new Error(`zoom did not reach ${String(target)}`);
}

/** Switches the tab area to the tab or the notation view; the notation once drawn. */
export async function showView(page: Page, view: 'Tab' | 'Notation'): Promise<void> {
  await page
    .getByRole('group', { name: 'Tab view mode' })
    .getByRole('button', { name: view })
    .click();
  if (view === 'Notation') {
    await page.locator('.lp-notation[data-state="ready"]').waitFor({ timeout: 60_000 });
    await page.locator('.lp-notation svg').first().waitFor();
  }
}
