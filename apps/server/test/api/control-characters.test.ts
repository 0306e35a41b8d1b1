import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLesson } from '../support/fixtures.js';
import { startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

/**
 * Issue 38 row 2: a NUL (or another control character) anywhere in a query, a path or a JSON
 * string is refused with 400 and a sentence, in one place every route goes through; never a
 * 500 with an error-level stack (PostgreSQL cannot store a NUL in text).
 */
describe('control characters in requests', () => {
  let server: TestServer;
  let user: TestUser;
  let admin: TestUser;
  let jobId: string;
  const errors: string[] = [];

  beforeAll(async () => {
    server = await startTestServer({
      env: { LOG_LEVEL: 'info' },
      logStream: {
        write: (line: string) => {
          const entry = JSON.parse(line) as { level: number; msg: string };
          if (entry.level >= 50) errors.push(entry.msg);
        },
      },
    });
    user = await server.createUser();
    admin = await server.createUser({ role: 'admin' });
    jobId = (await createLesson(server, user, { shared: true })).jobId;
  });
  afterAll(() => server.close());

  const SENTENCE = 'Text may not contain control characters.';

  it('answers 400 with a sentence for a NUL in a query, a path or a JSON string', async () => {
    const calls: [string, string, { token?: string; json?: unknown }][] = [
      ['GET', '/api/job-meta?jobId=a%00b', {}],
      ['GET', '/api/explore?sort=new%00est', {}],
      ['GET', '/api/users/a%00b/lessons', {}],
      ['GET', `/api/notes?jobId=${jobId}%00&edit_version=false`, { token: user.token }],
      ['PATCH', `/api/job?id=${jobId}`, { token: user.token, json: { projectName: 'a\u0000b' } }],
      [
        'POST',
        '/api/generate-signed-upload-url',
        { token: user.token, json: { fileName: 'riff\u0000.mp4', fileType: 'video/mp4' } },
      ],
      ['POST', '/api/upgrade-requests', { token: user.token, json: { message: 'hi\u0007' } }],
      [
        'POST',
        `/api/edit-chords?jobId=${jobId}`,
        {
          token: user.token,
          json: { events: [{ time: 0, end_time: 1, chord: 'A\u0000m' }] },
        },
      ],
      ['GET', '/api/admin/users?email=a%00b', { token: admin.token }],
    ];
    for (const [method, path, options] of calls) {
      const res = await server.request(method, path, options);
      const body = (await res.json()) as { error?: string };
      expect(`${method} ${path} -> ${String(res.status)} ${String(body.error)}`).toBe(
        `${method} ${path} -> 400 ${SENTENCE}`,
      );
    }
    expect(errors).toEqual([]);
  });

  it('keeps tabs and line breaks where text is free', async () => {
    const res = await server.request('POST', '/api/upgrade-requests', {
      token: user.token,
      json: { message: 'Hello,\n\tI teach guitar.\r\n' },
    });
    expect(res.status).toBeLessThan(300);
  });
});
