import { request as httpRequest } from 'node:http';
import { MESSAGES } from '@riffscribe/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS_BODY_LIMIT } from '../../src/auth/authenticate.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

/** The /api routes open to callers who are not signed in; every other one requires sign-in. */
const ANONYMOUS_ROUTES = [
  'GET /api/health',
  'GET /api/auth/config',
  'GET /api/auth/login',
  'GET /api/auth/callback',
  'POST /api/auth/token',
  'POST /api/auth/logout',
  'PUT /api/storage/object',
  'GET /api/storage/object',
  'GET /api/explore',
  // A Pro user's personal page, for anyone with its link (issue 37).
  'GET /api/users/:handle/lessons',
  // The API's own description and its docs page.
  'GET /api/openapi.json',
  'GET /api/docs',
  'GET /api/docs/docs.js',
  // The view-only player of a shared lesson, for signed-out visitors (issue 14), and a shared
  // lesson's link-preview picture. Private lessons answer 404 to them (access matrix).
  'GET /api/view-access',
  'GET /api/job-meta',
  'GET /api/job-stats',
  'GET /api/edit-access',
  'GET /api/download-result',
  'GET /api/notes',
  'GET /api/chords',
  'GET /api/lesson-thumbnail',
  // The lesson as a file (MIDI, text tab): the same callers as the notes (issue 15).
  'GET /api/export',
  'GET /api/beats',
];

interface Answer {
  status: number;
  body: string;
}

/**
 * Sends the headers of a request that declares a `declaredBytes` body, writes only its first
 * bytes (not valid JSON) and waits for the answer without ever finishing the body: a server
 * that reads or parses the body before answering never answers, and the call times out.
 */
function answerBeforeBody(
  server: TestServer,
  method: string,
  path: string,
  declaredBytes: number,
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        'content-length': String(declaredBytes),
        ...headers,
      },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`${method} ${path}: no answer before the body was sent`));
    }, 5000);
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.write('{"events": [{"time": "not a number", "string": 99,');
  });
}

/**
 * Issue 13, defect 3: authentication runs before body parsing and validation on every protected
 * route, read from the server's own route table so that a new route cannot be missed; anonymous
 * bodies elsewhere are small.
 */
describe('sign-in before the body', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ queue: false });
  });
  afterAll(() => server.close());

  it('opens only the intended routes to anonymous callers', () => {
    const open = server.app.routeTable
      .filter((r) => r.url.startsWith('/api/') && !r.signedIn)
      .map((r) => `${r.method} ${r.url}`);
    expect(open.sort()).toEqual([...ANONYMOUS_ROUTES].sort());
  });

  it('answers 401 on every protected route before reading an oversized, malformed body', async () => {
    const routes = server.app.routeTable.filter((r) => r.signedIn);
    expect(routes.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const { method, url } of routes) {
      // No query string either: the query is not validated for an anonymous caller.
      const answer = await answerBeforeBody(server, method, url, 64 * 1024 * 1024).catch(
        (error: unknown) => ({ status: 0, body: String(error) }),
      );
      const body = answer.status === 401 ? (JSON.parse(answer.body) as unknown) : answer.body;
      if (
        answer.status !== 401 ||
        JSON.stringify(body) !== JSON.stringify({ error: MESSAGES.notSignedIn })
      ) {
        wrong.push(`${method} ${url}: ${answer.status} ${answer.body}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('answers 401, not a validation error, to an anonymous malformed body sent whole', async () => {
    const res = await server.request('POST', '/api/process-video', {
      body: '{"gcsFilePath": 42, "config": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: MESSAGES.notSignedIn });
  });

  it('refuses a large anonymous body on an open route before reading it', async () => {
    const answer = await answerBeforeBody(
      server,
      'POST',
      '/api/auth/token',
      ANONYMOUS_BODY_LIMIT * 32,
      { 'x-requested-with': 'riffscribe' },
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ error: 'The request body is too large.' });
  });

  it('still reads the body of a signed-in caller', async () => {
    const user = await server.createUser();
    const res = await server.request('POST', '/api/process-video', {
      token: user.token,
      body: '{"gcsFilePath": 42, "config": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
  });
});
