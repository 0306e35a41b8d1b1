import { randomUUID } from 'node:crypto';
import { MESSAGES, type SignedUploadResponse } from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UploadsRepository } from '../../src/repositories/uploads.repository.js';
import { UploadSweeper } from '../../src/storage/upload-sweeper.js';
import { tinyVideo } from '../support/media.js';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const quiet = { info: () => undefined, warn: () => undefined };

async function link(server: TestServer, user: TestUser, bytes: Buffer) {
  return server.request('POST', '/api/generate-signed-upload-url', {
    token: user.token,
    json: { fileName: 'take.mp4', fileType: 'video/mp4', fileSize: bytes.length },
  });
}

async function upload(server: TestServer, user: TestUser, bytes: Buffer) {
  const res = await link(server, user, bytes);
  expect(res.status).toBe(200);
  const signed = (await res.json()) as SignedUploadResponse;
  const put = await fetch(signed.signedUrl, {
    method: 'PUT',
    headers: signed.headers,
    body: new Uint8Array(bytes),
  });
  return { key: signed.gcsFilePath, put };
}

function processVideo(server: TestServer, user: TestUser, key: string, bytes: Buffer) {
  return server.request('POST', '/api/process-video', {
    token: user.token,
    json: {
      gcsFilePath: key,
      fileName: 'take.mp4',
      fileSize: bytes.length,
      fileType: 'video/mp4',
      config: {},
    },
  });
}

/**
 * Issue 13, defect 2: storage only for users who could submit, uploads rate-limited per user,
 * and files never submitted (or that nothing refers to) swept away. Real server, PGlite or
 * PostgreSQL, local storage.
 */
describe('upload limits and the upload sweeper', () => {
  let server: TestServer;
  const video = tinyVideo();

  beforeAll(async () => {
    server = await startTestServer({
      env: { SIGNUP_CREATOR_CREDITS: '1', UPLOAD_RATE_LIMIT_PER_MINUTE: '3' },
    });
  });
  afterAll(() => server.close());

  it('refuses an upload link to a user without creator credits, as process-video would', async () => {
    const user = await server.createUser();
    const { key, put } = await upload(server, user, video);
    expect(put.status).toBe(204);
    expect((await processVideo(server, user, key, video)).status).toBe(200);
    // The credit is spent: no more room in storage.
    const refused = await link(server, user, video);
    expect(refused.status).toBe(402);
    expect(await refused.json()).toEqual({ error: MESSAGES.outOfCredits('creator') });
    const links = await server.ctx.database.db
      .selectFrom('uploads')
      .select('key')
      .where('owner_uid', '=', user.uid)
      .execute();
    expect(links).toEqual([{ key }]);
  });

  it('limits uploads per user and per minute', async () => {
    const [user, other] = [await server.createUser(), await server.createUser()];
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await upload(server, user, video)).put.status);
    expect(statuses).toEqual([204, 204, 204, 429]);
    const refused = await upload(server, user, video);
    const { error } = (await refused.put.json()) as { error: string };
    expect(error).toMatch(/^Too many requests\. Please wait \d+ seconds and try again\.$/);
    expect(await server.ctx.store.head(refused.key)).toBeNull();
    // Someone else's budget is their own.
    expect((await upload(server, other, video)).put.status).toBe(204);
  });

  it('deletes unsubmitted uploads after an hour and orphaned files at once', async () => {
    const user = await server.createUser();
    const store = server.ctx.store;
    const waiting = await upload(server, user, video);
    const submittedUser = await server.createUser();
    const submitted = await upload(server, submittedUser, video);
    expect((await processVideo(server, submittedUser, submitted.key, video)).status).toBe(200);
    // A file no link and no job refers to (a crash, a deleted account).
    const orphan = `uploads/${user.uid}/${randomUUID()}`;
    await store.put(orphan, video, 'video/mp4');

    let now = new Date(Date.now() + 30 * 60 * 1000);
    const sweeper = new UploadSweeper({
      uploads: new UploadsRepository(server.ctx.database.db),
      store,
      now: () => now,
      log: quiet,
    });
    expect(await sweeper.sweep()).toEqual({ unsubmitted: [], orphaned: [orphan] });
    expect(await store.head(orphan)).toBeNull();
    expect(await store.head(waiting.key)).not.toBeNull();
    expect(await store.head(submitted.key)).not.toBeNull();

    now = new Date(Date.now() + 61 * 60 * 1000);
    const second = await sweeper.sweep();
    expect(second.unsubmitted).toContain(waiting.key);
    expect(second.unsubmitted).not.toContain(submitted.key);
    expect(await store.head(waiting.key)).toBeNull();
    // The submitted upload is the job's: it stays.
    expect(await store.head(submitted.key)).not.toBeNull();
    // The link is gone: submitting it now is refused with a clear message.
    const late = await processVideo(server, user, waiting.key, video);
    expect(late.status).toBe(404);
    expect(await late.json()).toEqual({
      error: 'The uploaded file was not found. Please upload it again.',
    });
  });

  it('sweeps by itself, periodically', async () => {
    const user = await server.createUser();
    const orphan = `uploads/${user.uid}/${randomUUID()}`;
    await server.ctx.store.put(orphan, video, 'video/mp4');
    const sweeper = new UploadSweeper({
      uploads: new UploadsRepository(server.ctx.database.db),
      store: server.ctx.store,
      log: quiet,
    });
    sweeper.start(0.2);
    try {
      const deadline = Date.now() + 10_000;
      while ((await server.ctx.store.head(orphan)) !== null && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await sweeper.stop();
    }
    expect(await server.ctx.store.head(orphan)).toBeNull();
  });
});
