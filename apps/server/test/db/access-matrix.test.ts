import type { SignedUploadResponse } from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobObjectKey } from '../../src/storage/keys.js';
import { SAMPLE_NOTES, createLesson } from '../support/fixtures.js';
import { tinyVideo } from '../support/media.js';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.js';
import { testDatabaseDriver } from '../support/test-database.js';

type Actor = 'anonymous' | 'owner' | 'other' | 'pilot' | 'admin';
const ACTORS: Actor[] = ['anonymous', 'owner', 'other', 'pilot', 'admin'];
/** A private lesson of the owner, a lesson the owner shared to Explore, or no object at all. */
type Target = 'private' | 'shared' | 'none';

interface Fixture {
  jobId: string;
  requestId: string;
  uploadKey: string;
  /** A signed GET link of one of the job's files. */
  downloadUrl: string;
  ownerUid: string;
  ownerHandle: string;
}
interface Call {
  path: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  redirect?: RequestRedirect;
}
/** Expected status per actor, in ACTORS order. */
type Row = [number, number, number, number, number];

interface MatrixEntry {
  route: string;
  call: (f: Fixture) => Call;
  expect: Partial<Record<Target, Row>>;
}

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70]);
const q = (f: Fixture) => `jobId=${f.jobId}`;

// What the owner may do to their own job and nobody else may even see.
const OWNER_ONLY_PRIVATE: Row = [401, 200, 404, 404, 404];
const OWNER_ONLY_SHARED: Row = [401, 200, 403, 403, 403];
const READ_SHARED: Row = [401, 200, 200, 200, 200];
const SIGNED_IN: Row = [401, 200, 200, 200, 200];
const EVERYONE: Row = [200, 200, 200, 200, 200];
// The view-only player's reads: a signed-out visitor sees shared lessons, never private ones.
const PUBLIC_READ_PRIVATE: Row = [404, 200, 404, 404, 404];
const PUBLIC_READ_SHARED: Row = EVERYONE;
// The admin console's calls: admins only, whoever owns what.
const ADMIN_ONLY: Row = [401, 403, 403, 403, 200];

/**
 * The access matrix: every route the server registers must appear here, with the status each
 * actor gets for each object. Entries run in this order (view credits make order matter: a
 * download before the first notes call is refused with 402).
 */
const CSRF = { 'x-requested-with': 'riffscribe' };
const MATRIX: MatrixEntry[] = [
  { route: 'GET /api/health', call: () => ({ path: '/api/health' }), expect: { none: EVERYONE } },
  // The API description and its docs page are public.
  {
    route: 'GET /api/openapi.json',
    call: () => ({ path: '/api/openapi.json' }),
    expect: { none: EVERYONE },
  },
  { route: 'GET /api/docs', call: () => ({ path: '/api/docs' }), expect: { none: EVERYONE } },
  {
    route: 'GET /api/docs/docs.js',
    call: () => ({ path: '/api/docs/docs.js' }),
    expect: { none: EVERYONE },
  },
  // Sign-in works on the session cookie, never on a bearer token: every actor gets the same.
  {
    route: 'GET /api/auth/config',
    call: () => ({ path: '/api/auth/config' }),
    expect: { none: EVERYONE },
  },
  {
    route: 'GET /api/auth/login',
    call: () => ({ path: '/api/auth/login?returnTo=/' }),
    expect: { none: [302, 302, 302, 302, 302] },
  },
  {
    route: 'GET /api/auth/callback',
    call: () => ({ path: '/api/auth/callback?code=x&state=y' }),
    expect: { none: [400, 400, 400, 400, 400] },
  },
  {
    route: 'POST /api/auth/token',
    call: () => ({ path: '/api/auth/token', headers: CSRF }),
    expect: { none: [401, 401, 401, 401, 401] },
  },
  {
    route: 'POST /api/auth/logout',
    call: () => ({ path: '/api/auth/logout', headers: CSRF }),
    expect: { none: [204, 204, 204, 204, 204] },
  },
  // Storage links carry their own authority: a signed link works for whoever holds it, an
  // unsigned one for nobody.
  {
    route: 'GET /api/storage/object',
    call: (f) => ({ path: f.downloadUrl.slice(f.downloadUrl.indexOf('/api/')) }),
    expect: { private: EVERYONE },
  },
  {
    route: 'PUT /api/storage/object',
    call: (f) => ({
      path: `/api/storage/object?key=${f.uploadKey}&op=put`,
      body: 'x',
      headers: { 'content-type': 'video/mp4' },
    }),
    expect: { none: [400, 400, 400, 400, 400] },
  },
  { route: 'GET /api/me', call: () => ({ path: '/api/me' }), expect: { none: SIGNED_IN } },
  {
    route: 'GET /api/my-credits',
    call: () => ({ path: '/api/my-credits' }),
    expect: { none: SIGNED_IN },
  },
  {
    route: 'POST /api/generate-signed-upload-url',
    call: () => ({
      path: '/api/generate-signed-upload-url',
      json: { fileName: 'a.mp4', fileType: 'video/mp4' },
    }),
    expect: { none: SIGNED_IN },
  },
  {
    route: 'POST /api/process-video',
    call: (f) => ({
      path: '/api/process-video',
      json: {
        gcsFilePath: f.uploadKey,
        fileName: 'a.mp4',
        fileSize: 5,
        fileType: 'video/mp4',
        config: {},
      },
    }),
    // Only the owner's own pending upload is accepted; for anyone else it does not exist.
    expect: { none: [401, 200, 404, 404, 404] },
  },
  {
    route: 'POST /api/upload-thumbnail',
    call: (f) => ({
      path: `/api/upload-thumbnail?requestId=${f.requestId}`,
      body: JPEG,
      headers: { 'content-type': 'image/jpeg' },
    }),
    expect: { private: [401, 204, 404, 404, 404], shared: [401, 204, 404, 404, 404] },
  },
  // MP4 export: the owner only, and a Pro feature. The fixture owner is a free user (403 with
  // the upgrade sentence); others get the job's usual 404/403. Status: the owner, who has
  // started no export here (404).
  {
    route: 'POST /api/convert/upload-url',
    call: (f) => ({
      path: '/api/convert/upload-url',
      json: { job_id: f.jobId, filename: 'lesson.webm', content_type: 'video/webm' },
    }),
    expect: { private: [401, 403, 404, 404, 404], shared: [401, 403, 403, 403, 403] },
  },
  {
    route: 'POST /api/convert/start',
    call: (f) => ({ path: '/api/convert/start', json: { job_id: f.jobId } }),
    expect: { private: [401, 403, 404, 404, 404], shared: [401, 403, 403, 403, 403] },
  },
  {
    route: 'GET /api/convert/status/:id',
    call: (f) => ({ path: `/api/convert/status/${f.jobId}` }),
    expect: { private: [401, 404, 404, 404, 404], shared: [401, 404, 403, 403, 403] },
  },
  {
    route: 'GET /api/check-status',
    call: (f) => ({ path: `/api/check-status?${q(f)}` }),
    expect: { private: OWNER_ONLY_PRIVATE, shared: OWNER_ONLY_SHARED },
  },
  {
    route: 'GET /api/job-status-stream',
    call: (f) => ({ path: `/api/job-status-stream?${q(f)}` }),
    expect: { private: OWNER_ONLY_PRIVATE, shared: OWNER_ONLY_SHARED },
  },
  {
    route: 'GET /api/job',
    call: (f) => ({ path: `/api/job?id=${f.jobId}` }),
    expect: { private: OWNER_ONLY_PRIVATE, shared: OWNER_ONLY_SHARED },
  },
  {
    route: 'PATCH /api/job',
    call: (f) => ({ path: `/api/job?id=${f.jobId}`, json: { projectName: 'Renamed' } }),
    expect: { private: OWNER_ONLY_PRIVATE, shared: OWNER_ONLY_SHARED },
  },
  {
    route: 'GET /api/edit-access',
    call: (f) => ({ path: `/api/edit-access?${q(f)}` }),
    expect: { private: PUBLIC_READ_PRIVATE, shared: PUBLIC_READ_SHARED },
  },
  {
    route: 'GET /api/download-result',
    call: (f) => ({ path: `/api/download-result?${q(f)}&fileName=results` }),
    expect: { private: PUBLIC_READ_PRIVATE, shared: [200, 200, 402, 402, 402] },
  },
  {
    route: 'GET /api/job-meta',
    call: (f) => ({ path: `/api/job-meta?${q(f)}` }),
    expect: { private: PUBLIC_READ_PRIVATE, shared: PUBLIC_READ_SHARED },
  },
  {
    route: 'GET /api/job-stars',
    call: (f) => ({ path: `/api/job-stars?${q(f)}` }),
    expect: { private: OWNER_ONLY_PRIVATE, shared: READ_SHARED },
  },
  {
    route: 'POST /api/job-stars',
    call: (f) => ({ path: '/api/job-stars', json: { jobId: f.jobId, stars: 4 } }),
    expect: { private: [401, 403, 404, 404, 404], shared: [401, 403, 200, 200, 200] },
  },
  // Sections: each signed-in user's own named loops of a lesson they may see.
  {
    route: 'GET /api/job-sections',
    call: (f) => ({ path: `/api/job-sections?${q(f)}` }),
    expect: { private: OWNER_ONLY_PRIVATE, shared: READ_SHARED },
  },
  {
    route: 'PUT /api/job-sections',
    call: (f) => ({
      path: `/api/job-sections?${q(f)}`,
      json: { sections: [{ name: 'Verse', start: 0, end: 1 }] },
    }),
    expect: { private: OWNER_ONLY_PRIVATE, shared: READ_SHARED },
  },
  {
    route: 'GET /api/job-stats',
    call: (f) => ({ path: `/api/job-stats?${q(f)}` }),
    expect: { private: PUBLIC_READ_PRIVATE, shared: PUBLIC_READ_SHARED },
  },
  {
    route: 'POST /api/job-load',
    call: (f) => ({ path: '/api/job-load', json: { jobId: f.jobId } }),
    expect: { private: OWNER_ONLY_PRIVATE, shared: READ_SHARED },
  },
  {
    route: 'GET /api/view-access',
    call: (f) => ({ path: `/api/view-access?${q(f)}` }),
    expect: { private: PUBLIC_READ_PRIVATE, shared: PUBLIC_READ_SHARED },
  },
  // A link preview's picture: shared lessons only, the same for everyone (owner included).
  {
    route: 'GET /api/lesson-thumbnail',
    call: (f) => ({ path: `/api/lesson-thumbnail?${q(f)}` }),
    expect: { private: [404, 404, 404, 404, 404], shared: EVERYONE },
  },
  {
    route: 'GET /api/notes',
    call: (f) => ({ path: `/api/notes?${q(f)}&edit_version=false` }),
    expect: { private: PUBLIC_READ_PRIVATE, shared: PUBLIC_READ_SHARED },
  },
  {
    route: 'GET /api/chords',
    call: (f) => ({ path: `/api/chords?${q(f)}&edit_version=true` }),
    expect: { private: PUBLIC_READ_PRIVATE, shared: PUBLIC_READ_SHARED },
  },
  // The lesson as a file: the same callers as the notes.
  {
    route: 'GET /api/export',
    call: (f) => ({ path: `/api/export?${q(f)}&format=midi` }),
    expect: { private: PUBLIC_READ_PRIVATE, shared: PUBLIC_READ_SHARED },
  },
  {
    route: 'GET /api/beats',
    call: (f) => ({ path: `/api/beats?${q(f)}` }),
    expect: { private: PUBLIC_READ_PRIVATE, shared: PUBLIC_READ_SHARED },
  },
  {
    route: 'POST /api/edit-notes',
    call: (f) => ({ path: `/api/edit-notes?${q(f)}`, json: { events: SAMPLE_NOTES } }),
    expect: { private: OWNER_ONLY_PRIVATE, shared: OWNER_ONLY_SHARED },
  },
  {
    route: 'POST /api/edit-chords',
    call: (f) => ({
      path: `/api/edit-chords?${q(f)}`,
      json: { events: [{ time: 0.2, chord: 'G' }] },
    }),
    expect: { private: OWNER_ONLY_PRIVATE, shared: OWNER_ONLY_SHARED },
  },
  {
    route: 'POST /api/edit-beats',
    call: (f) => ({
      path: `/api/edit-beats?${q(f)}`,
      json: { grid: { beats: [0, 0.5, 1], downbeats: [0], beat_unit: 4 } },
    }),
    expect: { private: OWNER_ONLY_PRIVATE, shared: OWNER_ONLY_SHARED },
  },
  {
    route: 'POST /api/refinger',
    call: (f) => ({
      path: `/api/refinger?${q(f)}`,
      json: { selection: [0], constraint: { position: 0 } },
    }),
    expect: { private: OWNER_ONLY_PRIVATE, shared: OWNER_ONLY_SHARED },
  },
  {
    route: 'GET /api/upgrade-requests',
    call: () => ({ path: '/api/upgrade-requests' }),
    expect: { none: SIGNED_IN },
  },
  {
    route: 'POST /api/upgrade-requests',
    call: () => ({ path: '/api/upgrade-requests', json: {} }),
    // Pilots and admins already have the Pro features.
    expect: { none: [401, 201, 201, 409, 409] },
  },
  { route: 'GET /api/explore', call: () => ({ path: '/api/explore' }), expect: { none: EVERYONE } },
  // A personal page is for anyone with its link.
  {
    route: 'GET /api/users/:handle/lessons',
    call: (f) => ({ path: `/api/users/${f.ownerHandle}/lessons` }),
    expect: { none: EVERYONE },
  },
  {
    route: 'GET /api/my-jobs',
    call: () => ({ path: '/api/my-jobs' }),
    expect: { none: SIGNED_IN },
  },
  {
    route: 'GET /api/admin/users',
    call: () => ({ path: '/api/admin/users?email=example' }),
    expect: { none: ADMIN_ONLY },
  },
  {
    route: 'PATCH /api/admin/users/:uid/role',
    call: (f) => ({ path: `/api/admin/users/${f.ownerUid}/role`, json: { role: 'user' } }),
    expect: { none: ADMIN_ONLY },
  },
  {
    route: 'POST /api/admin/users/:uid/credits',
    call: (f) => ({
      path: `/api/admin/users/${f.ownerUid}/credits`,
      json: { kind: 'view', amount: 1, reason: 'access matrix' },
    }),
    expect: { none: ADMIN_ONLY },
  },
  {
    route: 'PUT /api/admin/users/:uid/credits',
    call: (f) => ({
      path: `/api/admin/users/${f.ownerUid}/credits`,
      json: { kind: 'view', balance: 3, reason: 'access matrix' },
    }),
    expect: { none: ADMIN_ONLY },
  },
  {
    route: 'GET /api/admin/upgrade-requests',
    call: () => ({ path: '/api/admin/upgrade-requests' }),
    expect: { none: ADMIN_ONLY },
  },
  {
    route: 'POST /api/admin/upgrade-requests/:id',
    call: () => ({
      path: '/api/admin/upgrade-requests/no-such-request',
      json: { decision: 'decline' },
    }),
    expect: { none: [401, 403, 403, 403, 404] },
  },
  {
    route: 'GET /api/admin/failed-jobs',
    call: () => ({ path: '/api/admin/failed-jobs' }),
    expect: { none: ADMIN_ONLY },
  },
  {
    // The job is not failed: an admin's retry is refused as a conflict.
    route: 'POST /api/admin/jobs/:id/retry',
    call: (f) => ({ path: `/api/admin/jobs/${f.jobId}/retry` }),
    expect: { none: [401, 403, 403, 403, 409] },
  },
  {
    route: 'GET /api/admin/health',
    call: () => ({ path: '/api/admin/health' }),
    expect: { none: ADMIN_ONLY },
  },
  // Last, as it removes the fixtures: the owner deletes each lesson (204); the actors after
  // the owner then find nothing (404). That others cannot delete a lesson that still exists
  // (403/404) is checked in api-contract.test.ts.
  {
    route: 'DELETE /api/job',
    call: (f) => ({ path: `/api/job?id=${f.jobId}` }),
    expect: { private: [401, 204, 404, 404, 404], shared: [401, 204, 404, 404, 404] },
  },
];

describe(`access matrix (${testDatabaseDriver()})`, () => {
  let server: TestServer;
  const users = {} as Record<Exclude<Actor, 'anonymous'>, TestUser>;
  const fixtures = {} as Record<Target, Fixture>;

  beforeAll(async () => {
    server = await startTestServer();
    users.owner = await server.createUser();
    users.other = await server.createUser();
    users.pilot = await server.createUser({ role: 'pilot' });
    users.admin = await server.createUser({ role: 'admin' });
    // A pending upload of the owner that process-video may accept.
    const signed = (await (
      await server.request('POST', '/api/generate-signed-upload-url', {
        token: users.owner.token,
        json: { fileName: 'a.mp4', fileType: 'video/mp4', fileSize: tinyVideo().length },
      })
    ).json()) as SignedUploadResponse;
    await fetch(signed.signedUrl, {
      method: 'PUT',
      headers: signed.headers,
      body: new Uint8Array(tinyVideo()),
    });
    const priv = await createLesson(server, users.owner);
    const shared = await createLesson(server, users.owner, { shared: true });
    const downloadUrl = await server.ctx.store.createDownloadUrl(
      jobObjectKey(priv.jobId, 'results.json', 'original'),
    );
    fixtures.private = {
      jobId: priv.jobId,
      requestId: priv.requestId,
      uploadKey: signed.gcsFilePath,
      downloadUrl,
      ownerUid: users.owner.uid,
      ownerHandle: users.owner.handle,
    };
    fixtures.shared = {
      jobId: shared.jobId,
      requestId: shared.requestId,
      uploadKey: signed.gcsFilePath,
      downloadUrl,
      ownerUid: users.owner.uid,
      ownerHandle: users.owner.handle,
    };
    fixtures.none = fixtures.private;
  });
  afterAll(() => server.close());

  it('covers every route the server registers', () => {
    const covered = new Set(MATRIX.map((m) => m.route));
    const registered = server.app.routeTable
      .filter((r) => r.url.startsWith('/api/'))
      .map((r) => `${r.method} ${r.url}`);
    const missing = registered.filter((r) => !covered.has(r));
    expect(missing, 'routes with no access expectations').toEqual([]);
    const stale = [...covered].filter((r) => !registered.includes(r));
    expect(stale, 'expectations for routes that do not exist').toEqual([]);
  });

  it('gives each actor the expected status for each route and object', async () => {
    const failures: string[] = [];
    for (const entry of MATRIX) {
      for (const target of ['private', 'shared', 'none'] as const) {
        const row = entry.expect[target];
        if (!row) continue;
        for (const [i, actor] of ACTORS.entries()) {
          const call = entry.call(fixtures[target]);
          const [method] = entry.route.split(' ');
          const res = await server.request(method!, call.path, {
            token: actor === 'anonymous' ? null : users[actor].token,
            ...(call.json !== undefined ? { json: call.json } : {}),
            ...(call.body !== undefined ? { body: call.body } : {}),
            ...(call.headers ? { headers: call.headers } : {}),
          });
          await res.arrayBuffer();
          if (res.status !== row[i]) {
            failures.push(
              `${entry.route} [${target}] as ${actor}: expected ${row[i]}, got ${res.status}`,
            );
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
