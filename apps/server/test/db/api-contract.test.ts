import { MESSAGES, type SignedUploadResponse } from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_NOTES, completeJob, createLesson, submitUpload } from '../support/fixtures.js';
import { tinyVideo } from '../support/media.js';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.js';
import { testDatabaseDriver } from '../support/test-database.js';

/** Contract of every /api call of spec section 7 (and explore/my-jobs): success and errors. */
describe(`API contract (${testDatabaseDriver()})`, () => {
  let server: TestServer;
  let owner: TestUser;
  let other: TestUser;
  let pilot: TestUser;

  const json = async (res: Response) => (await res.json()) as Record<string, unknown>;
  const expectError = async (res: Response, status: number, message?: string) => {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = await json(res);
    expect(typeof body.error).toBe('string');
    expect(String(body.error)).not.toMatch(/\bat .+\.(ts|js):\d+/); // no stack traces
    if (message !== undefined) expect(body.error).toBe(message);
  };

  beforeAll(async () => {
    // Enough creator credits for the many lessons these tests make; the grant itself is tested below.
    server = await startTestServer({ env: { SIGNUP_CREATOR_CREDITS: '40' } });
    owner = await server.createUser();
    other = await server.createUser();
    pilot = await server.createUser({ role: 'pilot' });
  });
  afterAll(() => server.close());

  describe('health', () => {
    it('reports database, storage and queue readiness', async () => {
      const res = await server.request('GET', '/api/health');
      expect(res.status).toBe(200);
      expect(await json(res)).toMatchObject({
        status: 'ok',
        database: { ok: true, driver: testDatabaseDriver() },
        storage: { ok: true, driver: 'local' },
        queue: { ok: true },
      });
    });
  });

  describe('me and my-credits', () => {
    it('answer 401 to a signed-out caller', async () => {
      await expectError(await server.request('GET', '/api/me'), 401, MESSAGES.notSignedIn);
      await expectError(await server.request('GET', '/api/my-credits'), 401);
    });
    it('return the role, handle and sign-up balances', async () => {
      const me = await json(await server.request('GET', '/api/me', { token: owner.token }));
      expect(me).toMatchObject({
        uid: owner.uid,
        email: owner.email,
        handle: owner.handle,
        role: 'user',
      });
      const credits = await json(
        await server.request('GET', '/api/my-credits', { token: owner.token }),
      );
      expect(credits).toEqual({ credits: { creatorRemaining: 40, viewRemaining: 10 } });
    });
    it('refuses a malformed bearer header', async () => {
      await expectError(
        await server.request('GET', '/api/me', { headers: { authorization: 'Bearer' } }),
        401,
      );
    });
  });

  describe('generate-signed-upload-url', () => {
    const ask = (user: TestUser | null, body: unknown) =>
      server.request('POST', '/api/generate-signed-upload-url', {
        token: user?.token ?? null,
        json: body,
      });

    it('gives a signed PUT link for a video', async () => {
      const res = await ask(owner, {
        fileName: 'a.mp4',
        fileType: 'video/mp4',
        email: owner.email,
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as SignedUploadResponse;
      expect(body.method).toBe('PUT');
      expect(body.gcsFilePath).toMatch(new RegExp(`^uploads/${owner.uid}/[0-9a-f-]{36}$`));
      expect(body.gcsFilePath).not.toContain('a.mp4');
      expect(body.headers['Content-Type'] ?? body.headers['content-type']).toBe('video/mp4');
      const put = await fetch(body.signedUrl, { method: 'PUT', headers: body.headers, body: 'x' });
      expect(put.ok).toBe(true);
    });
    it('refuses audio and other non-video types with the spec message', async () => {
      await expectError(
        await ask(owner, { fileName: 'a.mp3', fileType: 'audio/mpeg' }),
        400,
        MESSAGES.invalidFileType,
      );
    });
    it('refuses an ordinary user a file over 100MB, not a pilot', async () => {
      const size = 150 * 1024 * 1024;
      await expectError(
        await ask(owner, { fileName: 'big.mp4', fileType: 'video/mp4', fileSize: size }),
        413,
        'File is too large (150.0MB). Maximum is 100MB.',
      );
      expect(
        (await ask(pilot, { fileName: 'big.mp4', fileType: 'video/mp4', fileSize: size })).status,
      ).toBe(200);
    });
    it('refuses a missing file name and a signed-out caller', async () => {
      await expectError(await ask(owner, { fileType: 'video/mp4' }), 400);
      await expectError(await ask(null, { fileName: 'a.mp4', fileType: 'video/mp4' }), 401);
    });
  });

  describe('process-video', () => {
    async function signed(
      user: TestUser,
      bytes: Uint8Array<ArrayBuffer> = new Uint8Array(tinyVideo()),
    ) {
      const res = await server.request('POST', '/api/generate-signed-upload-url', {
        token: user.token,
        json: { fileName: 'take.mp4', fileType: 'video/mp4', fileSize: bytes.length },
      });
      const body = (await res.json()) as SignedUploadResponse;
      return { ...body, bytes };
    }
    const process = (
      user: TestUser | null,
      gcsFilePath: string,
      extra: Record<string, unknown> = {},
    ) =>
      server.request('POST', '/api/process-video', {
        token: user?.token ?? null,
        json: {
          gcsFilePath,
          email: user?.email,
          fileName: 'take.mp4',
          fileSize: 11,
          fileType: 'video/mp4',
          config: { capo: 2, metadata: { duration: 10 } },
          ...extra,
        },
      });

    it('creates a queued job, spends one creator credit, and refuses a second submit', async () => {
      const user = await server.createUser();
      const s = await signed(user);
      await fetch(s.signedUrl, { method: 'PUT', headers: s.headers, body: s.bytes });
      const res = await process(user, s.gcsFilePath);
      expect(res.status).toBe(200);
      const body = await json(res);
      expect(body).toMatchObject({ success: true });
      expect(typeof body.message).toBe('string');
      expect(String(body.requestId)).toMatch(/^req_/);
      expect(String(body.jobId)).toMatch(/^[0-9a-f-]{36}$/);
      const credits = await json(
        await server.request('GET', '/api/my-credits', { token: user.token }),
      );
      expect(credits).toEqual({ credits: { creatorRemaining: 39, viewRemaining: 10 } });
      const status = await json(
        await server.request('GET', `/api/check-status?jobId=${String(body.jobId)}`, {
          token: user.token,
        }),
      );
      expect(status).toMatchObject({
        success: true,
        status: 'queued',
        stage: 'queued',
        progress: 0,
      });
      await expectError(await process(user, s.gcsFilePath), 409);
    });
    it("refuses someone else's upload and an unknown path as not found", async () => {
      const s = await signed(owner);
      await fetch(s.signedUrl, { method: 'PUT', headers: s.headers, body: s.bytes });
      await expectError(await process(other, s.gcsFilePath), 404);
      await expectError(await process(owner, 'uploads/nope/nope'), 404);
    });
    it('refuses an upload that never arrived', async () => {
      const s = await signed(owner);
      await expectError(await process(owner, s.gcsFilePath), 400);
    });
    it('refuses a non-video type, a bad config and a signed-out caller', async () => {
      const s = await signed(owner);
      await fetch(s.signedUrl, { method: 'PUT', headers: s.headers, body: s.bytes });
      await expectError(
        await process(owner, s.gcsFilePath, { fileType: 'audio/wav' }),
        400,
        MESSAGES.invalidFileType,
      );
      await expectError(await process(owner, s.gcsFilePath, { config: { capo: 13 } }), 400);
      await expectError(await process(null, s.gcsFilePath), 401);
    });
    it('refuses an ordinary user a video over 31 s, not a pilot', async () => {
      // The length is read from the file; the browser's declared duration does not matter.
      const long = new Uint8Array(tinyVideo(45));
      const s = await signed(owner, long);
      await fetch(s.signedUrl, { method: 'PUT', headers: s.headers, body: s.bytes });
      await expectError(
        await process(owner, s.gcsFilePath, { config: { metadata: { duration: 10 } } }),
        400,
        MESSAGES.videoTooLong(45),
      );
      // A refused file is deleted from storage.
      expect(await server.ctx.store.head(s.gcsFilePath)).toBeNull();
      const p = await signed(pilot, long);
      await fetch(p.signedUrl, { method: 'PUT', headers: p.headers, body: p.bytes });
      expect(
        (await process(pilot, p.gcsFilePath, { config: { metadata: { duration: 45 } } })).status,
      ).toBe(200);
    });
    it('answers 402 with the out-of-credits message and keeps the upload usable', async () => {
      const broke = await server.createUser();
      // The link was handed out while a credit was left; it is gone by the time of the submit.
      const s = await signed(broke);
      await server.testDb.database.db
        .updateTable('credit_balances')
        .set({ balance: 0 })
        .where('user_id', '=', broke.uid)
        .execute();
      await fetch(s.signedUrl, { method: 'PUT', headers: s.headers, body: s.bytes });
      await expectError(await process(broke, s.gcsFilePath), 402, MESSAGES.outOfCredits('creator'));
      const jobs = await json(await server.request('GET', '/api/my-jobs', { token: broke.token }));
      expect(jobs.total).toBe(0);
    });
  });

  describe('upload-thumbnail', () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70]);
    it('stores a JPEG for the owner of the request', async () => {
      const job = await submitUpload(server, owner);
      const res = await server.request('POST', `/api/upload-thumbnail?requestId=${job.requestId}`, {
        token: owner.token,
        body: jpeg,
        headers: { 'content-type': 'image/jpeg' },
      });
      expect(res.status).toBe(204);
      await expectError(
        await server.request('POST', `/api/upload-thumbnail?requestId=${job.requestId}`, {
          token: other.token,
          body: jpeg,
          headers: { 'content-type': 'image/jpeg' },
        }),
        404,
      );
      await expectError(
        await server.request('POST', `/api/upload-thumbnail?requestId=${job.requestId}`, {
          token: owner.token,
          body: 'not a jpeg',
          headers: { 'content-type': 'image/jpeg' },
        }),
        400,
      );
      await expectError(
        await server.request('POST', `/api/upload-thumbnail?requestId=${job.requestId}`, {
          token: owner.token,
          body: 'x',
          headers: { 'content-type': 'image/png' },
        }),
        415,
      );
      await expectError(
        await server.request('POST', `/api/upload-thumbnail?requestId=${job.requestId}`, {
          token: owner.token,
          body: Buffer.concat([jpeg, Buffer.alloc(3 * 1024 * 1024)]),
          headers: { 'content-type': 'image/jpeg' },
        }),
        413,
      );
    });
  });

  describe('check-status', () => {
    it("needs a job id and hides other people's jobs", async () => {
      await expectError(
        await server.request('GET', '/api/check-status?jobId=', { token: owner.token }),
        400,
        MESSAGES.invalidJobId,
      );
      await expectError(
        await server.request('GET', '/api/check-status', { token: owner.token }),
        400,
        MESSAGES.invalidJobId,
      );
      const job = await submitUpload(server, owner);
      await expectError(
        await server.request('GET', `/api/check-status?jobId=${job.jobId}`, { token: other.token }),
        404,
      );
      await expectError(
        await server.request('GET', '/api/check-status?jobId=missing', { token: owner.token }),
        404,
      );
    });
  });

  describe('job GET and PATCH', () => {
    it('returns every field of the Job entity to its owner', async () => {
      const job = await submitUpload(server, owner);
      const res = await server.request('GET', `/api/job?id=${job.jobId}`, { token: owner.token });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { job: Record<string, unknown> };
      for (const field of [
        'id',
        'jobId',
        'uid',
        'ownerUid',
        'ownerUsername',
        'projectName',
        'fileName',
        'sharedToExplore',
        'sharedToPersonal',
        'stars',
        'starsCount',
        'requestId',
        'status',
        'stage',
        'progress',
        'message',
        'error',
      ]) {
        expect(body.job).toHaveProperty(field);
      }
      expect(body.job).toMatchObject({
        id: job.jobId,
        uid: owner.uid,
        ownerUsername: owner.handle,
        fileName: 'riff.mp4',
        projectName: null,
        sharedToExplore: false,
        message: MESSAGES.defaultProcessingMessage,
      });
    });
    it('renames with the fallback rules and shares only finished lessons', async () => {
      const job = await submitUpload(server, owner);
      const patch = (user: TestUser, body: unknown) =>
        server.request('PATCH', `/api/job?id=${job.jobId}`, { token: user.token, json: body });
      expect(
        (
          (await json(await patch(owner, { projectName: ' Intro riff ' }))).job as Record<
            string,
            unknown
          >
        ).projectName,
      ).toBe('Intro riff');
      for (const empty of ['', 'null', 'undefined']) {
        expect(
          ((await json(await patch(owner, { projectName: empty }))).job as Record<string, unknown>)
            .projectName,
        ).toBeNull();
      }
      await expectError(await patch(owner, { sharedToExplore: true }), 409);
      await completeJob(server, job.jobId);
      expect(
        ((await json(await patch(owner, { sharedToExplore: true }))).job as Record<string, unknown>)
          .sharedToExplore,
      ).toBe(true);
      await expectError(await patch(owner, { sharedToPersonal: true }), 403);
      await expectError(await patch(owner, { somethingElse: 1 }), 400);
      await expectError(await patch(other, { projectName: 'mine now' }), 403);
    });
    it('lets a pilot share to a personal page', async () => {
      const job = await createLesson(server, pilot);
      const res = await server.request('PATCH', `/api/job?id=${job.jobId}`, {
        token: pilot.token,
        json: { sharedToPersonal: true },
      });
      expect(res.status).toBe(200);
    });
  });

  describe('job DELETE (My videos)', () => {
    it('deletes the owner’s lesson, its rows and every stored file; others cannot', async () => {
      const job = await createLesson(server, owner, { shared: true });
      const files = await server.ctx.database.db
        .selectFrom('job_files')
        .select('key')
        .where('job_id', '=', job.jobId)
        .execute();
      expect(files.length).toBeGreaterThan(0);
      const del = (user: TestUser | null) =>
        server.request('DELETE', `/api/job?id=${job.jobId}`, { token: user?.token ?? null });
      await expectError(await del(null), 401);
      await expectError(await del(other), 403);
      const explore = async () =>
        (
          (await json(await server.request('GET', '/api/explore'))).items as { jobId: string }[]
        ).map((i) => i.jobId);
      expect(await explore()).toContain(job.jobId);

      const res = await del(owner);
      expect(res.status).toBe(204);
      await expectError(
        await server.request('GET', `/api/job?id=${job.jobId}`, { token: owner.token }),
        404,
      );
      for (const f of files) expect(await server.ctx.store.head(f.key)).toBeNull();
      expect(await server.ctx.store.list(`jobs/${job.jobId}/`)).toEqual([]);
      expect(await explore()).not.toContain(job.jobId);
      // Gone for good: a second delete finds nothing.
      await expectError(await del(owner), 404);
    });
    it('refuses a lesson still being made', async () => {
      const job = await submitUpload(server, owner);
      await expectError(
        await server.request('DELETE', `/api/job?id=${job.jobId}`, { token: owner.token }),
        409,
        'This lesson is still being made. Delete it once it is done.',
      );
    });
  });

  describe('a finished, shared lesson seen by another user', () => {
    let jobId: string;
    beforeAll(async () => {
      jobId = (await createLesson(server, owner, { shared: true })).jobId;
    });

    it('edit-access: the owner can edit, others cannot', async () => {
      expect(
        await json(
          await server.request('GET', `/api/edit-access?jobId=${jobId}`, { token: owner.token }),
        ),
      ).toEqual({ canEdit: true });
      expect(
        await json(
          await server.request('GET', `/api/edit-access?jobId=${jobId}`, { token: other.token }),
        ),
      ).toEqual({ canEdit: false });
    });

    it('job-meta names the owner and the rating', async () => {
      const meta = await json(
        await server.request('GET', `/api/job-meta?jobId=${jobId}`, { token: other.token }),
      );
      expect(meta).toMatchObject({
        sharedToExplore: true,
        sharedToPersonal: false,
        ownerUid: owner.uid,
        ownerUsername: owner.handle,
        stars: null,
        starsCount: 0,
      });
    });

    it('view-access, notes and chords spend one view credit, once', async () => {
      const viewer = await server.createUser();
      expect(
        await json(
          await server.request('GET', `/api/view-access?jobId=${jobId}`, { token: viewer.token }),
        ),
      ).toMatchObject({
        status: 'needs_credit',
        remaining: 10,
        fileName: 'riff.mp4',
      });
      await expectError(
        await server.request('GET', `/api/download-result?jobId=${jobId}&fileName=results`, {
          token: viewer.token,
        }),
        402,
        MESSAGES.viewCreditsRequired,
      );
      const notes = await json(
        await server.request('GET', `/api/notes?jobId=${jobId}&edit_version=false`, {
          token: viewer.token,
        }),
      );
      expect(notes.events).toEqual(SAMPLE_NOTES);
      const chords = await json(
        await server.request('GET', `/api/chords?jobId=${jobId}&edit_version=false`, {
          token: viewer.token,
        }),
      );
      expect((chords.events as unknown[]).length).toBe(1);
      await server.request('GET', `/api/notes?jobId=${jobId}`, { token: viewer.token });
      expect(
        await json(
          await server.request('GET', `/api/view-access?jobId=${jobId}`, { token: viewer.token }),
        ),
      ).toMatchObject({
        status: 'granted',
        remaining: 9,
      });
      expect(
        await json(
          await server.request('GET', `/api/view-access?jobId=${jobId}`, { token: owner.token }),
        ),
      ).toMatchObject({
        status: 'owner',
      });
    });

    it('notes answer 402 with the no-credits message when none are left', async () => {
      const broke = await server.createUser();
      await server.testDb.database.db
        .updateTable('credit_balances')
        .set({ balance: 0 })
        .where('user_id', '=', broke.uid)
        .execute();
      await expectError(
        await server.request('GET', `/api/notes?jobId=${jobId}`, { token: broke.token }),
        402,
        MESSAGES.noViewCredits,
      );
      await expectError(
        await server.request('GET', `/api/chords?jobId=${jobId}`, { token: broke.token }),
        402,
      );
    });

    it('download-result signs a GET for a listed file name', async () => {
      const res = await server.request(
        'GET',
        `/api/download-result?jobId=${jobId}&fileName=results`,
        { token: owner.token },
      );
      expect(res.status).toBe(200);
      const { downloadUrl } = (await res.json()) as { downloadUrl: string };
      const file = await fetch(downloadUrl);
      expect(file.status).toBe(200);
      expect(await file.json()).toMatchObject({
        capo: 0,
        tuning_name: 'Standard',
        musical_key: 'A minor',
      });
      await expectError(
        await server.request('GET', `/api/download-result?jobId=${jobId}&fileName=video.mp4`, {
          token: owner.token,
        }),
        404,
      );
      await expectError(
        await server.request('GET', `/api/download-result?jobId=${jobId}&fileName=../../secret`, {
          token: owner.token,
        }),
        400,
      );
    });

    it('job-stars: one rating per user, 1..5, not by the owner', async () => {
      const rater = await server.createUser();
      const rate = (user: TestUser, stars: unknown) =>
        server.request('POST', '/api/job-stars', { token: user.token, json: { jobId, stars } });
      expect(
        await json(
          await server.request('GET', `/api/job-stars?jobId=${jobId}`, { token: rater.token }),
        ),
      ).toEqual({ stars: null });
      expect(await json(await rate(rater, 2))).toEqual({ average: 2, count: 1 });
      expect(await json(await rate(rater, 4))).toEqual({ average: 4, count: 1 });
      expect(await json(await rate(other, 5))).toEqual({ average: 4.5, count: 2 });
      expect(
        await json(
          await server.request('GET', `/api/job-stars?jobId=${jobId}`, { token: rater.token }),
        ),
      ).toEqual({ stars: 4 });
      await expectError(await rate(rater, 0), 400);
      await expectError(await rate(rater, 6), 400);
      await expectError(await rate(rater, 2.5), 400);
      await expectError(await rate(owner, 5), 403);
    });

    it('job-load counts once per session; job-stats reports loads and viewers', async () => {
      const fresh = (await createLesson(server, owner, { shared: true })).jobId;
      const load = (user: TestUser) =>
        server.request('POST', '/api/job-load', { token: user.token, json: { jobId: fresh } });
      expect(await json(await load(other))).toEqual({ counted: true });
      expect(await json(await load(other))).toEqual({ counted: false });
      expect(await json(await load(await server.newSession(other)))).toEqual({ counted: true });
      expect(await json(await load(owner))).toEqual({ counted: true });
      expect(
        await json(
          await server.request('GET', `/api/job-stats?jobId=${fresh}`, { token: other.token }),
        ),
      ).toEqual({
        loadsCount: 3,
        viewersCount: 2,
      });
    });

    it('edit-notes and edit-chords: the owner saves a validated edited version', async () => {
      const edited = [
        { ...SAMPLE_NOTES[0]!, fret: 5, leading_slide: 'yes' },
        { time: 0.1, end_time: 0.3, string: 6, fret: 0 },
      ];
      const save = await server.request('POST', `/api/edit-notes?jobId=${jobId}`, {
        token: owner.token,
        json: { events: edited },
      });
      expect(save.status).toBe(200);
      const notes = await json(
        await server.request('GET', `/api/notes?jobId=${jobId}&edit_version=true`, {
          token: owner.token,
        }),
      );
      expect(notes.version).toBe('edited');
      expect(
        (notes.events as { time: number; leading_slide: boolean }[]).map((n) => [
          n.time,
          n.leading_slide,
        ]),
      ).toEqual([
        [0.1, false],
        [0.5, true],
      ]);
      const original = await json(
        await server.request('GET', `/api/notes?jobId=${jobId}&edit_version=false`, {
          token: owner.token,
        }),
      );
      expect(original.events).toEqual(SAMPLE_NOTES);
      expect(
        (
          await server.request('POST', `/api/edit-chords?jobId=${jobId}`, {
            token: owner.token,
            json: { events: [{ time: 0.5, chord: 'C/G' }] },
          })
        ).status,
      ).toBe(200);
      const chords = await json(
        await server.request('GET', `/api/chords?jobId=${jobId}&edit_version=true`, {
          token: owner.token,
        }),
      );
      expect(chords.events).toEqual([
        { time: 0.5, end_time: 1.1, chord: 'C/G', event_type: 'chord' },
      ]);
    });

    it('edit-notes refuses bad events, late events and non-owners', async () => {
      const post = (user: TestUser, events: unknown, kind = 'notes') =>
        server.request('POST', `/api/edit-${kind}?jobId=${jobId}`, {
          token: user.token,
          json: { events },
        });
      await expectError(await post(owner, [{ time: 0, end_time: 1, string: 7, fret: 0 }]), 400);
      await expectError(await post(owner, [{ time: 0, end_time: 1, string: 1, fret: 30 }]), 400);
      await expectError(await post(owner, [{ time: 1, end_time: 1.01, string: 1, fret: 3 }]), 400);
      await expectError(await post(owner, [{ time: 500, end_time: 501, string: 1, fret: 3 }]), 400);
      await expectError(await post(owner, [{ time: 1, chord: '  ' }], 'chords'), 400);
      await expectError(await post(owner, 'nope'), 400);
      await expectError(await post(other, []), 403);
    });

    it('edit-notes and edit-chords check every event against spec section 5, saying which and why', async () => {
      const post = (events: unknown, kind = 'notes') =>
        server.request('POST', `/api/edit-${kind}?jobId=${jobId}`, {
          token: owner.token,
          json: { events },
        });
      const good = { time: 0.5, end_time: 0.8, string: 2, fret: 3 };
      // The lesson's video is 1 s long: a note ending past it (and the 0.5 s of grace for the
      // player's clock) is refused, naming the note.
      await expectError(
        await post([good, { time: 0.9, end_time: 1.6, string: 1, fret: 3 }]),
        400,
        'Note 2 (at 0.90 s) cannot be saved: it ends after the end of the video.',
      );
      await expectError(
        await post([{ ...good, leading_slide: true, leading_hammer_on: 'yes' }]),
        400,
        'Slide, hammer-on and pull-off cannot be set together on one side of a note.',
      );
      await expectError(await post([{ ...good, fret: 2.5 }]), 400);
      // Issue 37: a muted note carries no bend or vibrato, whoever sends it.
      await expectError(
        await post([{ ...good, mute: true, vibrato: 'small' }]),
        400,
        'Note 1 (at 0.50 s) cannot be saved: a muted note has no bend or vibrato.',
      );
      await expectError(
        await post([{ time: 0.99, end_time: 1.6, chord: 'G' }], 'chords'),
        400,
        'Chord 1 (at 0.99 s) cannot be saved: it ends after the end of the video.',
      );
      await expectError(
        await post([{ time: 0.5, end_time: 0.52, chord: 'G' }], 'chords'),
        400,
        'A chord must last at least 0.05 s.',
      );
      // Nothing refused was stored: the edited version is still the one saved before.
      const notes = await json(
        await server.request('GET', `/api/notes?jobId=${jobId}&edit_version=true`, {
          token: owner.token,
        }),
      );
      expect((notes.events as { fret: number }[]).some((n) => n.fret === 2.5)).toBe(false);
      expect((await post([good])).status).toBe(200);
    });
  });

  describe('a lesson still processing', () => {
    it('has no notes yet', async () => {
      const job = await submitUpload(server, owner);
      await expectError(
        await server.request('GET', `/api/notes?jobId=${job.jobId}`, { token: owner.token }),
        409,
      );
      await expectError(
        await server.request('POST', `/api/edit-notes?jobId=${job.jobId}`, {
          token: owner.token,
          json: { events: [] },
        }),
        409,
      );
    });
  });

  describe('upgrade-requests', () => {
    it('records one pending request with the default message', async () => {
      const user = await server.createUser();
      expect(
        await json(await server.request('GET', '/api/upgrade-requests', { token: user.token })),
      ).toEqual({
        hasPending: false,
        request: null,
      });
      const created = await server.request('POST', '/api/upgrade-requests', {
        token: user.token,
        json: { message: '  ' },
      });
      expect(created.status).toBe(201);
      const status = await json(
        await server.request('GET', '/api/upgrade-requests', { token: user.token }),
      );
      expect(status.hasPending).toBe(true);
      expect(status.request).toMatchObject({
        message: MESSAGES.defaultUpgradeMessage,
        status: 'pending',
      });
      expect(Date.parse((status.request as { createdAt: string }).createdAt)).not.toBeNaN();
      await expectError(
        await server.request('POST', '/api/upgrade-requests', { token: user.token, json: {} }),
        409,
      );
      await expectError(
        await server.request('POST', '/api/upgrade-requests', { token: pilot.token, json: {} }),
        409,
      );
      await expectError(await server.request('POST', '/api/upgrade-requests', { json: {} }), 401);
    });
  });

  describe('explore and my-jobs', () => {
    it('explore lists shared, finished lessons to anyone, sorted and paged', async () => {
      const a = await createLesson(server, other, { shared: true });
      const b = await createLesson(server, other, { shared: true });
      await createLesson(server, other); // private: never listed
      await server.request('POST', '/api/job-stars', {
        token: owner.token,
        json: { jobId: a.jobId, stars: 5 },
      });
      for (let i = 0; i < 5; i++) {
        const session = await server.newSession(owner);
        await server.request('POST', '/api/job-load', {
          token: session.token,
          json: { jobId: b.jobId },
        });
      }
      const page = await json(await server.request('GET', '/api/explore?sort=rating&pageSize=2'));
      const items = page.items as { jobId: string; ownerUsername: string; stars: number | null }[];
      expect(items).toHaveLength(2);
      expect(items[0]).toMatchObject({ jobId: a.jobId, ownerUsername: other.handle, stars: 5 });
      const opens = await json(await server.request('GET', '/api/explore?sort=opens&pageSize=1'));
      expect((opens.items as { jobId: string }[])[0]?.jobId).toBe(b.jobId);
      const all = await json(await server.request('GET', '/api/explore?pageSize=60'));
      expect((all.items as { jobId: string }[]).every((i) => i.jobId)).toBe(true);
      expect(all.total).toBe((all.items as unknown[]).length);
      await expectError(await server.request('GET', '/api/explore?pageSize=500'), 400);
      await expectError(await server.request('GET', '/api/explore?sort=loudest'), 400);
    });
    it("my-jobs lists only the caller's jobs, newest first", async () => {
      const user = await server.createUser();
      const first = await submitUpload(server, user);
      const second = await submitUpload(server, user);
      const mine = await json(await server.request('GET', '/api/my-jobs', { token: user.token }));
      expect((mine.items as { jobId: string }[]).map((i) => i.jobId)).toEqual([
        second.jobId,
        first.jobId,
      ]);
      await expectError(await server.request('GET', '/api/my-jobs'), 401);
    });
  });

  describe('protection', () => {
    it('answers unknown API paths and malformed JSON with {error}', async () => {
      await expectError(
        await server.request('GET', '/api/nothing-here', { token: owner.token }),
        404,
      );
      await expectError(
        await server.request('POST', '/api/job-stars', {
          token: owner.token,
          body: '{"jobId":',
          headers: { 'content-type': 'application/json' },
        }),
        400,
      );
    });
    it('refuses a body over the limit with 413', async () => {
      await expectError(
        await server.request('POST', '/api/job-stars', {
          token: owner.token,
          body: JSON.stringify({ jobId: 'x', pad: 'y'.repeat(2 * 1024 * 1024) }),
          headers: { 'content-type': 'application/json' },
        }),
        413,
      );
    });
    it('sends security headers and a request id', async () => {
      const res = await server.request('GET', '/api/health');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });
  });
});

describe(`rate limits (${testDatabaseDriver()})`, () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RATE_LIMIT_PER_MINUTE: '5' }, queue: false });
  });
  afterAll(() => server.close());

  it('answers 429 with Retry-After past the limit', async () => {
    const statuses: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < 7; i++) {
      last = await server.request('GET', '/api/explore');
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses[6]).toBe(429);
    expect(Number(last?.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await last?.json()) as { error: string }).error).toMatch(/Too many requests/);
  });

  it('keeps separate budgets: an anonymous flood locks out neither sign-in nor signed-in users', async () => {
    // This address's anonymous reads are used up (the test above).
    expect((await server.request('GET', '/api/explore')).status).toBe(429);
    // Token renewal from the same address draws on the sign-in budget: 401 (no cookie), not 429.
    const renew = await server.request('POST', '/api/auth/token', {
      headers: { 'x-requested-with': 'riffscribe' },
    });
    expect(renew.status).toBe(401);
    // A signed-in user at the same address has a budget of their own, per user.
    const ada = await server.createUser();
    const bob = await server.createUser();
    for (let i = 0; i < 5; i++) {
      expect((await server.request('GET', '/api/me', { token: ada.token })).status).toBe(200);
    }
    expect((await server.request('GET', '/api/me', { token: ada.token })).status).toBe(429);
    expect((await server.request('GET', '/api/me', { token: bob.token })).status).toBe(200);
    // Writes are a budget apart from reads: Ada's used-up reads do not stop her writes.
    const write = await server.request('POST', '/api/job-stars', {
      token: ada.token,
      body: JSON.stringify({ jobId: 'no-such-job', stars: 5 }),
      headers: { 'content-type': 'application/json' },
    });
    expect(write.status).not.toBe(429);
  });
});
