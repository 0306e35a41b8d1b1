import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousA11yViolations } from './support/a11y.js';
import { signIn } from './support/auth.js';
import { screenshot, sharedChromium } from './support/browser.js';
import { holdClock } from './support/clock.js';
import {
  completeLikeWorker,
  finishedLesson,
  open,
  queuedJob,
  rate,
  setProgress,
  startServerWithWeb,
  userByEmail,
  type TestServer,
  type TestUser,
} from './support/lessons.js';
import { jpegFrame, makeVideo, mediaDir } from './support/media.js';
import { DESKTOP, shootBoth } from './support/shots.js';

const NAMES = [
  'Blues shuffle in A',
  'Travis picking etude',
  'Minor pentatonic lick',
  'Open G slide riff',
  'DADGAD lullaby',
  'Funk rhythm in E9',
  'Bossa nova comping',
  'Hammer-on workout',
  'Sweet bends solo',
  'Folk strum in G',
  'Drop D chug',
  'Arpeggio study no. 2',
  'Surf lead melody',
  'Country chicken pickin',
];

async function expectAccessible(page: Page) {
  expect(await seriousA11yViolations(page)).toEqual([]);
}

/**
 * Screens that need lessons in every state: Explore, My videos, the processing, failure and
 * success screens of a job opened by id, and Credits. Lessons are set up on the real server the
 * way the worker leaves them (see support/lessons.ts).
 */
describe('Explore, My videos, job screens and Credits', () => {
  let server: TestServer;
  let browser: Browser;
  let dir: string;
  let video: string;
  let mia: TestUser;
  let leo: TestUser;
  const shared: { jobId: string; name: string }[] = [];

  beforeAll(async () => {
    server = await startServerWithWeb({ SIGNUP_CREATOR_CREDITS: '10' });
    browser = await sharedChromium();
    dir = mediaDir();
    video = makeVideo(dir, 'lesson.mp4', 8);
    mia = await server.createUser({ email: 'mia@example.test' });
    leo = await server.createUser({ email: 'leo@example.test' });
    const fan = await server.createUser({ email: 'fan@example.test' });
    for (const [i, name] of NAMES.entries()) {
      const owner = i % 2 === 0 ? mia : leo;
      const job = await finishedLesson(server, owner, {
        video,
        thumbnail: jpegFrame(video, (i * 0.53) % 7.5),
        name,
        shared: true,
      });
      shared.push({ jobId: job.jobId, name });
    }
    // 'Sweet bends solo' is the best rated, 'Open G slide riff' the most opened.
    await rate(server, fan, shared[8]!.jobId, 5);
    await rate(server, leo, shared[8]!.jobId, 5);
    await rate(server, fan, shared[2]!.jobId, 3);
    for (const viewer of [fan, leo]) await open(server, viewer, shared[3]!.jobId);
    await open(server, fan, shared[3]!.jobId);
  }, 180_000);

  afterAll(async () => {
    await browser.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('Explore shows shared lessons as cards, sorts and pages', async () => {
    const page = await browser.newPage({ viewport: DESKTOP, colorScheme: 'dark' });
    await page.goto(`${server.url}/explore`);
    await page.getByRole('heading', { name: 'Available lessons' }).waitFor();
    await page.getByText('14 lessons').waitFor();
    const cards = page.locator('.lesson-card');
    expect(await cards.count()).toBe(12);
    // Newest first: the last one made leads.
    await expect.poll(() => cards.first().locator('h2').textContent()).toBe(NAMES[13]);
    const first = cards.first();
    expect(await first.getByText('@leo').count()).toBe(1);
    expect(await first.locator('img').count()).toBe(1);
    await page.getByText('Page 1 of 2').waitFor();
    await expectAccessible(page);
    await shootBoth(page, 'explore');

    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Page 2 of 2').waitFor();
    await expect.poll(() => cards.count()).toBe(2);

    await page.getByLabel('Sort by').selectOption('rating');
    await page.getByText('Page 1 of 2').waitFor();
    const top = cards.first();
    await expect.poll(() => top.locator('h2').textContent()).toBe('Sweet bends solo');
    expect(await top.getByRole('img', { name: 'Rated 5.0 out of 5 by 2 people' }).count()).toBe(1);

    await page.getByLabel('Sort by').selectOption('opens');
    await expect.poll(() => cards.first().locator('h2').textContent()).toBe('Open G slide riff');
    expect(await cards.first().locator('.lesson-card-opens').textContent()).toMatch(
      /^\s*\d+ opens?$/,
    );

    await cards.first().getByRole('link').click();
    await page.waitForURL(`${server.url}/lesson/${shared[3]!.jobId}`);
    await page.close();
  });

  it('My videos lists the jobs with status, progress, rename, share and open', async () => {
    const page = await browser.newPage({ viewport: DESKTOP, colorScheme: 'dark' });
    await signIn(page, server.url, { email: 'ada@example.test', name: 'Ada Lovelace' });
    const ada = await userByEmail(server, 'ada@example.test');
    const thumb = jpegFrame(video, 2);
    const done = await finishedLesson(server, ada, { video, thumbnail: thumb });
    const running = await queuedJob(server, ada, jpegFrame(video, 5));
    await setProgress(server, running.jobId, {
      status: 'processing',
      stage: 'transcribing',
      progress: 45,
      message: 'Listening for notes…',
    });
    const failed = await queuedJob(server, ada);
    await setProgress(server, failed.jobId, {
      status: 'failed',
      stage: 'failed',
      progress: 30,
      error: 'No guitar could be heard in this video.',
    });

    await page.goto(`${server.url}/my-videos`);
    await page.getByRole('heading', { name: 'My videos' }).waitFor();
    const rows = page.locator('.video-row');
    await expect.poll(() => rows.count()).toBe(3);
    const [failedRow, runningRow, doneRow] = [rows.nth(0), rows.nth(1), rows.nth(2)];
    await failedRow.getByText('Failed', { exact: true }).waitFor();
    await failedRow.getByText('No guitar could be heard in this video.').waitFor();
    await runningRow.getByText('Processing', { exact: true }).waitFor();
    expect(await runningRow.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('45');
    await runningRow.getByText('Transcribing · 45%').waitFor();
    await doneRow.getByText('Ready', { exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Buy credits' }).getAttribute('href')).toBe(
      '/credits',
    );
    // Only finished lessons can be shared.
    expect(await runningRow.getByRole('switch').isDisabled()).toBe(true);
    await expectAccessible(page);
    await shootBoth(page, 'my-videos');

    const name = doneRow.getByRole('textbox');
    await name.fill('Sunday practice riff');
    await name.press('Enter');
    await doneRow.getByRole('switch', { name: 'Share to Explore' }).check();
    await expect
      .poll(async () => (await server.services.jobs.jobs.findById(done.jobId))?.sharedToExplore)
      .toBe(true);
    await page.reload();
    await expect
      .poll(() => rows.nth(2).getByRole('textbox').inputValue())
      .toBe('Sunday practice riff');
    expect(await rows.nth(2).getByRole('switch').isChecked()).toBe(true);

    await page.goto(`${server.url}/explore`);
    await page.getByRole('heading', { name: 'Sunday practice riff' }).waitFor();

    await page.goto(`${server.url}/my-videos`);
    await rows.nth(2).getByRole('link', { name: 'Open' }).click();
    // The row opens the job by id; a finished job moves on to its lesson after the success
    // pause, which a busy machine may reach before this looks at the address.
    await page.waitForURL(
      (u) => u.searchParams.get('jobId') === done.jobId || u.pathname === `/lesson/${done.jobId}`,
    );
    await page.getByRole('heading', { name: 'Sunday practice riff' }).waitFor();

    // Delete: not while a lesson is being made; a finished one after a confirmation, for good.
    await page.goto(`${server.url}/my-videos`);
    await expect.poll(() => rows.count()).toBe(3);
    expect(
      await rows
        .nth(1)
        .getByRole('button', { name: /^Delete/ })
        .isDisabled(),
    ).toBe(true);
    await rows.nth(2).getByRole('button', { name: 'Delete Sunday practice riff' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this lesson?' });
    await confirm.getByText(/its links stop working/).waitFor();
    await screenshot(page, 'my-videos-delete-dark-1440');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => rows.count()).toBe(3);
    await rows.nth(2).getByRole('button', { name: 'Delete Sunday practice riff' }).click();
    await confirm.getByRole('button', { name: 'Delete lesson' }).click();
    await expect.poll(() => rows.count()).toBe(2);
    expect(await server.services.jobs.jobs.findById(done.jobId)).toBeNull();
    await page.emulateMedia({ colorScheme: 'light' });
    // The buttons' colour transitions end before the picture is taken.
    await page.waitForTimeout(500);
    await screenshot(page, 'my-videos-after-delete-light-1440');
    await page.goto(`${server.url}/explore`);
    await page.getByRole('heading', { name: 'Available lessons' }).waitFor();
    await page.locator('.lesson-card, .empty-state').first().waitFor();
    expect(await page.getByRole('heading', { name: 'Sunday practice riff' }).count()).toBe(0);
    await page.close();
  });

  it('a job opened by id: loading, processing advancing, success after the pause', async () => {
    const page = await browser.newPage({ viewport: DESKTOP, colorScheme: 'dark' });
    await signIn(page, server.url, { email: 'ada@example.test', name: 'Ada Lovelace' });
    const ada = await userByEmail(server, 'ada@example.test');
    const job = await queuedJob(server, ada, jpegFrame(video, 3));
    await setProgress(server, job.jobId, {
      status: 'processing',
      stage: 'extracting_audio',
      progress: 12,
      message: 'Extracting the audio',
    });

    // Hold the job call for a moment so that the loading overlay can be seen and pictured.
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const jobCall = (u: URL) => u.pathname === '/api/job';
    await page.route(jobCall, async (route) => {
      await held;
      await route.continue();
    });
    // The live status stream drops straight away (it opens, then closes without an end event):
    // the screen goes on with check-status polling every 10 s, as the spec has it, and shows
    // no error. e2e/live-status.test.ts covers the screen following a live stream.
    const streamCalls: string[] = [];
    await page.route(
      (u) => u.pathname === '/api/job-status-stream',
      async (route) => {
        streamCalls.push(route.request().url());
        await route.fulfill({ status: 200, contentType: 'text/event-stream', body: ': gone\n\n' });
      },
    );
    await page.clock.install();
    await page.goto(`${server.url}/?jobId=${job.jobId}`);
    await page.getByText('Loading video…').waitFor();
    await page.getByText('Please wait while we load the lesson.').waitFor();
    await expectAccessible(page);
    await shootBoth(page, 'loading');
    release();

    await page.getByRole('heading', { name: 'Processing Your Video' }).waitFor();
    await page.getByText('Extracting the audio').waitFor();
    await page.getByText('riff.mp4').waitFor();
    await page.getByText(job.requestId).waitFor();
    await page.getByText(job.jobId).waitFor();
    await page.getByText('Analyzing').waitFor();
    await page.getByText('12%').waitFor();
    await page.getByText(/keep this tab open/i).waitFor();
    await page.getByRole('link', { name: 'My videos' }).first().waitFor();
    await expectAccessible(page);
    await shootBoth(page, 'processing');

    // From here the page's clock moves only when the test moves it: the success state's 2 s
    // count starts when the page sees the completion, never some real seconds before a check.
    await holdClock(page);
    await setProgress(server, job.jobId, {
      status: 'processing',
      stage: 'final_video_generation',
      progress: 88,
      message: 'Rendering the lesson video',
    });
    await page.clock.runFor(10_000);
    await page.getByText('Generating new video').waitFor();
    await page.getByText('88%').waitFor();
    await page.getByText('Final video generation').waitFor();

    await completeLikeWorker(server, job.jobId, video);
    await page.clock.runFor(10_000);
    await page.getByText('Processing complete! Your tabs are ready.').waitFor();
    expect(streamCalls.length).toBeGreaterThan(0);
    expect(await page.getByText(/error|failed/i).count()).toBe(0);
    // Desktop: the success state opens 2 s later.
    await page.clock.runFor(1_000);
    expect(await page.getByRole('heading', { name: 'Processing Your Video' }).count()).toBe(1);
    await page.clock.runFor(1_100);
    // The success state is the tab player, on the lesson's own address.
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/lesson/${job.jobId}`);
    await page.clock.resume();
    await expect
      .poll(() => page.getByRole('heading', { name: 'Your lesson is ready' }).count())
      .toBe(1);
    await page.getByRole('button', { name: 'Start playing' }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'riff' }).count()).toBe(1);
    await expectAccessible(page);
    await screenshot(page, 'success-1440');
    await page.close();
  });

  it('a failed job shows the failure screen; reset and the job id entry', async () => {
    const page = await browser.newPage({ viewport: DESKTOP, colorScheme: 'dark' });
    await signIn(page, server.url, { email: 'ada@example.test', name: 'Ada Lovelace' });
    const ada = await userByEmail(server, 'ada@example.test');
    const job = await queuedJob(server, ada);
    await setProgress(server, job.jobId, {
      status: 'failed',
      stage: 'failed',
      progress: 40,
      error: 'No guitar could be heard in this video.',
    });

    await page.goto(`${server.url}/?job_id=${job.jobId}`);
    await page.getByRole('heading', { name: 'Processing Unsuccessful' }).waitFor();
    await page
      .getByText(
        'There was an issue analyzing this video. Please try again later or try a different video.',
        { exact: true },
      )
      .waitFor();
    await page
      .getByText('Please make sure the entrie fretboard is visible in the video.')
      .waitFor();
    await page.getByText('ada@example.test', { exact: true }).waitFor();
    await page.getByText(job.requestId).waitFor();
    await page.getByText('No guitar could be heard in this video.').waitFor();
    await expectAccessible(page);
    await shootBoth(page, 'failed');

    // A real reload: the heading is already there before it, so wait for the new page's load.
    await Promise.all([
      page.waitForEvent('load'),
      page.getByRole('button', { name: 'Refresh Page' }).click(),
    ]);
    await page.getByRole('heading', { name: 'Processing Unsuccessful' }).waitFor();
    await page.getByRole('button', { name: 'Try a Different File' }).click();
    await page.getByRole('heading', { name: 'Upload your playing' }).waitFor();
    expect(new URL(page.url()).search).toBe('');

    // reset=1 returns to the upload state and leaves the address.
    await page.goto(`${server.url}/?jobId=${job.jobId}`);
    await page.getByRole('heading', { name: 'Processing Unsuccessful' }).waitFor();
    await page.goto(`${server.url}/?jobId=${job.jobId}&reset=1`);
    await page.getByRole('heading', { name: 'Upload your playing' }).waitFor();
    await expect.poll(() => new URL(page.url()).search).toBe('');

    const jobIdField = page.getByLabel('Have a Job ID? Open it here');
    await jobIdField.fill('   ');
    await page.getByRole('button', { name: 'Open job' }).click();
    await page.getByText('Please enter a valid Job ID', { exact: true }).waitFor();
    await jobIdField.fill('no-such-job');
    await page.getByRole('button', { name: 'Open job' }).click();
    await page.getByText('Failed to load job. Please check the Job ID.').waitFor();
    await screenshot(page, 'job-id-error-1440');
    await jobIdField.fill(job.jobId);
    await page.getByRole('button', { name: 'Open job' }).click();
    await page.getByRole('heading', { name: 'Processing Unsuccessful' }).waitFor();
    await page.close();
  });

  it('Credits shows balances, the Pro plan, the upgrade request and Contact us', async () => {
    const context = await browser.newContext({ viewport: DESKTOP, colorScheme: 'dark' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    await signIn(page, server.url, { email: 'bea@example.test', name: 'Bea' });
    await page.goto(`${server.url}/credits`);
    await page.getByRole('heading', { name: 'Credits and Pro' }).waitFor();
    await expect.poll(() => page.getByTestId('creator-balance').textContent()).toBe('10');
    expect(await page.getByTestId('view-balance').textContent()).toBe('10');
    for (const benefit of [
      '10 creation credits per month',
      'export of videos with overlaid tabs',
      'share to personal page',
      'priority support',
    ]) {
      await page.getByText(benefit, { exact: true }).waitFor();
    }
    await expectAccessible(page);
    await shootBoth(page, 'credits');

    await page.getByRole('button', { name: 'Request Pro upgrade' }).click();
    await page.getByRole('heading', { name: 'Request Submitted!' }).waitFor();
    await page.getByText(/Upgrade requested on/).waitFor();
    await screenshot(page, 'credits-submitted-1440');
    const status = await server.request('GET', '/api/upgrade-requests', {
      token: (await userByEmail(server, 'bea@example.test')).token,
    });
    const body = (await status.json()) as { request: { message: string; createdAt: string } };
    expect(body.request.message).toBe('User requested an upgrade to Pro plan');

    // Pending on a later visit: 'Request Under Review' with the date it was sent.
    await page.reload();
    await page.getByRole('heading', { name: 'Request Under Review' }).waitFor();
    const sentOn = await page.evaluate(
      (at) => new Intl.DateTimeFormat(undefined, { dateStyle: 'long' }).format(new Date(at)),
      body.request.createdAt,
    );
    await page.getByText(`Upgrade requested on ${sentOn}.`).waitFor();
    expect(await page.getByRole('heading', { name: 'Request Submitted!' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Request Pro upgrade' }).count()).toBe(0);
    await expectAccessible(page);
    await shootBoth(page, 'credits-requested');

    // 'email address copied' shows for about 1.2 s, on the page's own (paused) clock.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1_000);
    await page.getByRole('button', { name: 'Contact us' }).click();
    const notice = page.getByText('email address copied');
    await notice.waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      'support@riffscribe.local',
    );
    await screenshot(page, 'credits-copied-1440');
    await page.clock.runFor(1_100);
    expect(await notice.count()).toBe(1);
    await page.clock.runFor(200);
    // React drops the notice after the timer fires; polled from the test side, because a
    // locator's waitFor re-checks on animation frames, which the paused clock holds.
    await expect.poll(() => notice.count(), { timeout: 30_000 }).toBe(0);
    await context.close();
  });

  it('signed out, My videos and Credits ask to sign in', async () => {
    const page = await browser.newPage({ viewport: DESKTOP, colorScheme: 'light' });
    for (const path of ['/my-videos', '/credits']) {
      await page.goto(`${server.url}${path}`);
      await page.getByRole('heading', { name: 'Sign in to continue' }).waitFor();
      await expectAccessible(page);
    }
    await shootBoth(page, 'credits-signed-out-light');
    await page.close();
  });
});
