import {
  REFINGER_MAX_SELECTION,
  DEFAULT_TUNING,
  openStringPitch,
  plainNote,
  type NoteEvent,
  type RefingerResponse,
} from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { completeJob, submitUpload } from '../support/fixtures.js';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.js';
import { testDatabaseDriver } from '../support/test-database.js';

/**
 * POST /api/refinger (issue 19): the owner's notes re-fingered by the real fingering model in
 * the API process; who may call it, what it refuses, and that every pitch is kept.
 */
const note = (time: number, string: number, fret: number) =>
  plainNote({ time, end_time: time + 0.4, string, fret });
/** A minor arpeggio in open position: A3 C4 E4 A4 E4 C4, every 0.5 s, twice. */
const ARPEGGIO: NoteEvent[] = [0, 1].flatMap((c) =>
  (
    [
      [3, 2],
      [2, 1],
      [1, 0],
      [1, 5],
      [1, 0],
      [2, 1],
    ] as const
  ).map(([s, f], i) => note(c * 3 + i * 0.5, s, f)),
);
const pitch = (n: NoteEvent) => openStringPitch(DEFAULT_TUNING, n.string) + n.fret;

describe(`POST /api/refinger (${testDatabaseDriver()})`, () => {
  let server: TestServer;
  let owner: TestUser;
  let other: TestUser;
  let jobId: string;
  let sharedJobId: string;

  const refinger = (token: string | null, body: unknown, id = jobId) =>
    server.request('POST', `/api/refinger?jobId=${id}`, { token, json: body });

  beforeAll(async () => {
    server = await startTestServer();
    owner = await server.createUser();
    other = await server.createUser();
    jobId = (await submitUpload(server, owner)).jobId;
    await completeJob(server, jobId, { notes: ARPEGGIO });
    sharedJobId = (await submitUpload(server, owner)).jobId;
    await completeJob(server, sharedJobId, { notes: ARPEGGIO });
    const shared = await server.request('PATCH', `/api/job?id=${sharedJobId}`, {
      token: owner.token,
      json: { sharedToExplore: true },
    });
    expect(shared.status).toBe(200);
  });
  afterAll(() => server.close());

  it("moves the owner's selection to a hand position, keeping every pitch, saving nothing", async () => {
    const selection = [6, 7, 8, 9];
    const res = await refinger(owner.token, {
      events: ARPEGGIO,
      selection,
      constraint: { position: 5 },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as RefingerResponse;
    expect(body.changed.length).toBeGreaterThan(0);
    for (const { index, note: moved } of body.changed) {
      const before = ARPEGGIO[index]!;
      expect(pitch(moved)).toBe(pitch(before));
      expect(moved.time).toBe(before.time);
      expect(moved.fret === 0 || (moved.fret >= 5 && moved.fret <= 8)).toBe(true);
    }
    expect(body.window).toEqual({ from: 2, to: 11 });
    // Nothing was saved: the lesson has no edited version yet.
    const saved = (await (
      await server.request('GET', `/api/notes?jobId=${jobId}&edit_version=true`, {
        token: owner.token,
      })
    ).json()) as { version: string; events: NoteEvent[] };
    expect(saved.version).toBe('original');
    expect(saved.events.map((n) => [n.string, n.fret])).toEqual(
      ARPEGGIO.map((n) => [n.string, n.fret]),
    );
  });

  it("works on the lesson's saved edited version when no notes are sent", async () => {
    // The test video is short: the saved version keeps the notes that fit in it.
    const edited = ARPEGGIO.slice(0, 3).map((n, i) => (i === 0 ? { ...n, string: 4, fret: 7 } : n));
    const save = await server.request('POST', `/api/edit-notes?jobId=${jobId}`, {
      token: owner.token,
      json: { events: edited },
    });
    expect(save.status, await save.clone().text()).toBe(200);
    const res = await refinger(owner.token, {
      selection: [0],
      constraint: { pin: { index: 0, string: 3 } },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as RefingerResponse;
    expect(body.changed).toEqual([
      { index: 0, note: expect.objectContaining({ string: 3, fret: 2, time: 0 }) as unknown },
    ]);
  });

  it('answers 422 with the reason when no fingering meets the constraint', async () => {
    const res = await refinger(owner.token, {
      events: [note(0, 6, 1)],
      selection: [0],
      constraint: { strings: [1, 2] },
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: string }).error).toMatch(
      /The F2 at 0\.00 s cannot be played on strings 1, 2\. Nothing was changed\./,
    );
  });

  it('refuses malformed requests with 400', async () => {
    const bad: unknown[] = [
      { selection: [], constraint: { position: 5 } },
      { selection: [0], constraint: { position: 25 } },
      { selection: [0], constraint: { strings: [] } },
      { selection: [0], constraint: { strings: [7] } },
      { selection: [0, 0], constraint: { position: 5 } },
      { selection: [0], constraint: { position: 5, strings: [1] } },
      { selection: [0], constraint: { pin: { index: 1, string: 2 } } },
      { selection: [12], constraint: { position: 5 } },
      {
        events: [{ time: 0, end_time: 0.5, string: 9, fret: 0 }],
        selection: [0],
        constraint: { position: 0 },
      },
    ];
    for (const body of bad) {
      const res = await refinger(owner.token, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof ((await res.json()) as { error: unknown }).error).toBe('string');
    }
  });

  it('refuses a selection spread over more notes than one re-fingering takes', async () => {
    const events = Array.from({ length: REFINGER_MAX_SELECTION + 20 }, (_, i) =>
      note(i * 0.05, 1, 0),
    );
    const res = await refinger(owner.token, {
      events,
      selection: [0, events.length - 1],
      constraint: { position: 0 },
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toMatch(/re-finger at most 2000/);
  });

  it("is for the lesson's editors only", async () => {
    const body = { selection: [1], constraint: { position: 5 } };
    expect((await refinger(null, body)).status).toBe(401);
    // Sign-in is checked before the body is read: anonymous and malformed is still 401.
    expect((await refinger(null, { selection: 'nonsense' })).status).toBe(401);
    // Another user: a private lesson does not exist for them, a shared one is not theirs to edit.
    expect((await refinger(other.token, body)).status).toBe(404);
    expect((await refinger(other.token, body, sharedJobId)).status).toBe(403);
    expect((await refinger(owner.token, body, sharedJobId)).status).toBe(200);
    expect((await refinger(owner.token, body, 'no-such-job')).status).toBe(404);
  });
});
