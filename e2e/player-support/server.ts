import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ChordEvent, NoteEvent } from '@riffscribe/core';
import type { Page } from 'playwright-core';
import { completeJob, submitUpload } from '../../apps/server/test/support/fixtures.js';
import {
  startTestServer,
  type TestServer,
  type TestUser,
} from '../../apps/server/test/support/test-server.js';
import { jobObjectKey } from '../../apps/server/src/storage/keys.js';
import { ROOT } from '../support/app.js';

/**
 * The real server, started in this process (apps/server/test/support/test-server.ts) so the test
 * can write a finished lesson through the server's own storage and repositories, serving the
 * built web app (WEB_DIST_DIR, default apps/web/dist). A seeded lesson has exact, known notes
 * with every technique, which a check of what is drawn where needs; e2e/player-pipeline.test.ts
 * covers the player on a lesson the real pipeline wrote.
 */
export async function startPlayerServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dist = process.env.WEB_DIST_DIR ?? path.join(ROOT, 'apps/web/dist');
  if (!existsSync(path.join(dist, 'index.html'))) {
    throw new Error('The web app is not built: run `npm run build` first (npm test does).');
  }
  return startTestServer({ env: { SERVE_WEB: 'true', WEB_DIST_DIR: dist, ...env } });
}

/** Signs in through the built-in development provider, as a person does. */
export async function signIn(page: Page, server: TestServer, email: string, name: string) {
  await page.goto(`${server.url}/api/auth/login?returnTo=/`);
  await page.getByLabel(/e-mail/i).fill(email);
  await page.getByLabel(/name/i).fill(name);
  await Promise.all([
    page.waitForURL((u) => u.origin === server.url && !u.pathname.startsWith('/oidc')),
    page.getByRole('button', { name: /sign in/i }).click(),
  ]);
}

/** The signed-in account with this e-mail, with an API token of its own. */
export async function userByEmail(server: TestServer, email: string): Promise<TestUser> {
  const user = await server.services.accounts.users.findByEmail(email);
  if (!user) throw new Error(`No user ${email}: sign in first.`);
  return server.newSession({ ...user, token: '', sid: '' });
}

/**
 * A finished lesson owned by `owner`: the video goes through the real signed-upload and
 * process-video calls, then the results, notes, chords, browser video (and a guitar stem) are
 * stored as the worker stores them and the job is marked completed.
 */
export async function seedLesson(
  server: TestServer,
  owner: TestUser,
  lesson: {
    notes: NoteEvent[];
    chords: ChordEvent[];
    results: object;
    video: Buffer;
    duration: number;
    stem?: Buffer;
  },
): Promise<string> {
  const job = await submitUpload(server, owner, { bytes: lesson.video, duration: lesson.duration });
  await completeJob(server, job.jobId, { notes: lesson.notes, chords: lesson.chords });
  const { store } = server.ctx;
  const files = server.services.jobs.files;
  const put = async (name: string, body: Buffer, contentType: string) => {
    const key = jobObjectKey(job.jobId, name === 'results' ? 'results.json' : name, 'original');
    await store.put(key, body, contentType);
    await files.upsert({
      jobId: job.jobId,
      name,
      version: 'original',
      key,
      contentType,
      size: body.length,
    });
  };
  await put('results', Buffer.from(JSON.stringify(lesson.results)), 'application/json');
  await put('video.mp4', lesson.video, 'video/mp4');
  if (lesson.stem) await put('guitar.wav', lesson.stem, 'audio/wav');
  return job.jobId;
}
