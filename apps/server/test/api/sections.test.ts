import type { SectionInput, SectionsResponse } from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLesson } from '../support/fixtures.js';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

/**
 * Sections (issue 40 part 3), over HTTP against the real server: each user's named loops of a
 * lesson, theirs only, replaced as a whole list, checked with a sentence for every refusal.
 */
describe('job-sections', () => {
  let server: TestServer;
  let owner: TestUser;
  let other: TestUser;
  /** The owner's lesson shared to Explore (others may see it) and a private one. */
  let shared: string;
  let privateJob: string;

  beforeAll(async () => {
    server = await startTestServer({ queue: false });
    owner = await server.createUser();
    other = await server.createUser();
    shared = (await createLesson(server, owner, { shared: true })).jobId;
    privateJob = (await createLesson(server, owner)).jobId;
  });
  afterAll(() => server.close());

  const get = (user: TestUser | null, jobId: string) =>
    server.request('GET', `/api/job-sections?jobId=${jobId}`, { token: user?.token ?? null });
  const put = (user: TestUser | null, jobId: string, json: unknown) =>
    server.request('PUT', `/api/job-sections?jobId=${jobId}`, {
      token: user?.token ?? null,
      json,
    });
  const ok = async (res: Response): Promise<SectionsResponse> => {
    const body: unknown = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body as SectionsResponse;
  };
  const refused = async (res: Response, status: number): Promise<string> => {
    const body = (await res.json()) as { error?: unknown };
    expect(res.status, JSON.stringify(body)).toBe(status);
    expect(typeof body.error).toBe('string');
    return body.error as string;
  };

  it('saves a list and reads it back by start, names trimmed, ids made where none was given', async () => {
    expect(await ok(await get(owner, shared))).toEqual({ sections: [] });
    const saved = await ok(
      await put(owner, shared, {
        sections: [
          { name: '  Chorus ', start: 8, end: 16 },
          { id: 'verse-1', name: 'Verse', start: 0, end: 8 },
          { name: 'Solo', start: 16, end: 20.25 },
        ],
      }),
    );
    expect(saved.sections.map((s) => [s.name, s.start, s.end])).toEqual([
      ['Verse', 0, 8],
      ['Chorus', 8, 16],
      ['Solo', 16, 20.25],
    ]);
    expect(saved.sections[0]?.id).toBe('verse-1');
    for (const s of saved.sections) expect(s.id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(new Set(saved.sections.map((s) => s.id)).size).toBe(3);
    expect(await ok(await get(owner, shared))).toEqual(saved);

    // The whole list is replaced: a rename keeps the id, a section left out is gone.
    const [verse, chorus] = saved.sections;
    const again = await ok(
      await put(owner, shared, {
        sections: [
          { ...verse, name: 'Intro riff' },
          { ...chorus, end: 15.5 },
        ],
      }),
    );
    expect(again.sections).toEqual([
      { ...verse, name: 'Intro riff' },
      { ...chorus, end: 15.5 },
    ]);
    expect(await ok(await get(owner, shared))).toEqual(again);
  });

  it('keeps each user’s sections apart: another user sees none and changes none', async () => {
    const mine = await ok(await get(owner, shared));
    expect(mine.sections.length).toBeGreaterThan(0);
    expect(await ok(await get(other, shared))).toEqual({ sections: [] });
    // The other user's list, even with the owner's ids, is theirs alone.
    const theirs = await ok(
      await put(other, shared, {
        sections: [{ id: mine.sections[0]?.id, name: 'My part', start: 1, end: 2 }],
      }),
    );
    expect(theirs.sections).toEqual([
      { id: mine.sections[0]?.id, name: 'My part', start: 1, end: 2 },
    ]);
    expect(await ok(await get(owner, shared))).toEqual(mine);
    expect(await ok(await put(other, shared, { sections: [] }))).toEqual({ sections: [] });
    expect(await ok(await get(owner, shared))).toEqual(mine);
  });

  it('answers 401 to a signed-out caller and 404 for a lesson the caller cannot see', async () => {
    expect(await refused(await get(null, shared), 401)).toMatch(/sign in/i);
    expect(await refused(await put(null, shared, { sections: [] }), 401)).toMatch(/sign in/i);
    const body = { sections: [{ name: 'Mine', start: 0, end: 1 }] };
    for (const jobId of [privateJob, 'no-such-lesson']) {
      expect(await refused(await get(other, jobId), 404)).toBe('Job not found.');
      expect(await refused(await put(other, jobId, body), 404)).toBe('Job not found.');
    }
    // The owner of the private lesson has sections there as anywhere.
    expect((await ok(await put(owner, privateJob, body))).sections).toHaveLength(1);
  });

  it('refuses every invalid list with a sentence, and saves nothing of it', async () => {
    const before = await ok(await get(owner, shared));
    const one = (s: Record<string, unknown>) => ({
      sections: [{ name: 'A', start: 0, end: 1, ...s }],
    });
    const many = (n: number): SectionInput[] =>
      Array.from({ length: n }, (_, i) => ({ name: `Section ${i + 1}`, start: i, end: i + 1 }));
    const cases: [unknown, string][] = [
      [{}, 'The body must hold a list of sections.'],
      [{ sections: 'verse' }, 'The body must hold a list of sections.'],
      [{ sections: many(101) }, 'A lesson can have at most 100 sections.'],
      [one({ name: '' }), 'Each section needs a name.'],
      [one({ name: '   ' }), 'Each section needs a name.'],
      [one({ name: undefined }), 'Each section needs a name.'],
      [one({ name: 7 }), 'Each section needs a name.'],
      [one({ name: 'x'.repeat(61) }), 'A section name can be at most 60 characters.'],
      [
        one({ name: 'Verse\tone' }),
        'A section name may not contain control characters, tabs or line breaks.',
      ],
      [
        one({ name: 'Verse\none' }),
        'A section name may not contain control characters, tabs or line breaks.',
      ],
      // Caught before any schema, for every route alike (control-characters.ts).
      [one({ name: 'Verse\u0000' }), 'Text may not contain control characters.'],
      [one({ start: -0.5 }), 'A section cannot start before 0 seconds.'],
      [one({ start: 1, end: 1 }), 'A section must end after it starts.'],
      [one({ start: 2, end: 1 }), 'A section must end after it starts.'],
      [one({ end: 86_400.5 }), 'A section must end within 24 hours.'],
      [one({ start: '0' }), 'A section’s start and end must be numbers of seconds.'],
      [one({ end: null }), 'A section’s start and end must be numbers of seconds.'],
      [
        one({ id: 'no spaces allowed' }),
        'A section id may hold only letters, digits, - and _ (at most 64).',
      ],
      [
        {
          sections: [
            { id: 'same', name: 'A', start: 0, end: 1 },
            { id: 'same', name: 'B', start: 1, end: 2 },
          ],
        },
        'Two sections have the same id.',
      ],
    ];
    const failures: string[] = [];
    for (const [body, sentence] of cases) {
      const res = await put(owner, shared, body);
      const answer = (await res.json()) as { error?: string };
      if (res.status !== 400 || answer.error !== sentence) {
        failures.push(`${JSON.stringify(body).slice(0, 80)} -> ${res.status} ${answer.error}`);
      }
    }
    expect(failures).toEqual([]);

    // Numbers JSON cannot spell but a parser reads as infinite.
    const infinite = await server.request('PUT', `/api/job-sections?jobId=${shared}`, {
      token: owner.token,
      body: '{"sections":[{"name":"A","start":0,"end":1e999}]}',
      headers: { 'content-type': 'application/json' },
    });
    expect(await refused(infinite, 400)).toBe(
      'A section’s start and end must be numbers of seconds.',
    );
    expect(await refused(await get(owner, ''), 400)).toBe('Please enter a valid Job ID');
    expect(await ok(await get(owner, shared))).toEqual(before);

    // The limits themselves are allowed: 100 sections, 60 characters (spaces around trimmed),
    // a section up to 24 hours.
    expect((await ok(await put(owner, privateJob, { sections: many(100) }))).sections).toHaveLength(
      100,
    );
    const edge = await ok(
      await put(owner, privateJob, {
        sections: [{ name: ` ${'é'.repeat(60)} `, start: 0, end: 86_400 }],
      }),
    );
    expect(edge.sections[0]).toMatchObject({ name: 'é'.repeat(60), start: 0, end: 86_400 });
  });

  it('replaces a list whole when two saves of it race', async () => {
    const list = (name: string) => ({
      sections: Array.from({ length: 20 }, (_, i) => ({
        id: `s${i}`,
        name: `${name} ${i + 1}`,
        start: i,
        end: i + 0.5,
      })),
    });
    const answers = await Promise.all([
      put(owner, privateJob, list('First')),
      put(owner, privateJob, list('Second')),
      put(owner, privateJob, list('Third')),
    ]);
    for (const res of answers) await ok(res);
    const final = (await ok(await get(owner, privateJob))).sections;
    expect(final).toHaveLength(20);
    // All from one save, never a mix.
    expect(new Set(final.map((s) => s.name.split(' ')[0])).size).toBe(1);
  });
});
