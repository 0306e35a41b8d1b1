import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

interface Operation {
  parameters?: { name: string; in: string; required?: boolean }[];
  requestBody?: { content: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
  responses: Record<string, unknown>;
}
interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

/** Fastify's `/a/:id` as OpenAPI writes it: `/a/{id}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** The calls of spec section 7 (product-spec.md), copied into this file: the test reads nothing outside the repository. */
const SPEC_SECTION_7 = [
  'GET /api/my-credits',
  'GET /api/me',
  'POST /api/generate-signed-upload-url',
  'POST /api/process-video',
  'POST /api/upload-thumbnail',
  'GET /api/check-status',
  'GET /api/job',
  'PATCH /api/job',
  'GET /api/edit-access',
  'GET /api/download-result',
  'GET /api/job-meta',
  'GET /api/job-stars',
  'POST /api/job-stars',
  'GET /api/job-stats',
  'GET /api/view-access',
  'GET /api/notes',
  'GET /api/chords',
  'POST /api/job-load',
  'POST /api/edit-notes',
  'POST /api/edit-chords',
  'POST /api/convert/upload-url',
  'POST /api/convert/start',
  'GET /api/convert/status/{id}',
  'GET /api/upgrade-requests',
  'POST /api/upgrade-requests',
];
/** Section 7 calls not built yet (none: the export conversion came with issue 14). */
const NOT_BUILT_YET: string[] = [];

describe('OpenAPI document', () => {
  let server: TestServer;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    server = await startTestServer({ queue: false });
    const res = await server.request('GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = (await res.json()) as OpenApiDocument;
  });
  afterAll(() => server.close());

  it('is served to anonymous callers and validates as OpenAPI 3.1', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes every /api route the server registers, with its method', () => {
    const registered = server.app.routeTable.filter((r) => r.url.startsWith('/api/'));
    // A sanity floor: the table is the server's own, so an empty one would pass vacuously.
    expect(registered.length).toBeGreaterThan(20);
    const missing = registered
      .filter((r) => doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()] === undefined)
      .map((r) => `${r.method} ${r.url}`);
    expect(missing, 'routes missing from /api/openapi.json').toEqual([]);
    // And nothing else: the development sign-in provider and the web app are not the API.
    const described = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const known = new Set(registered.map((r) => `${r.method} ${openApiPath(r.url)}`));
    // HEAD is left out of the route table (Fastify adds it to every GET).
    const extra = described.filter((d) => !known.has(d) && !d.startsWith('HEAD '));
    expect(extra).toEqual([]);
  });

  it('describes every call of spec section 7 that the server has', () => {
    const described = new Set(
      Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    const missing = SPEC_SECTION_7.filter((c) => !NOT_BUILT_YET.includes(c) && !described.has(c));
    expect(missing).toEqual([]);
    // Once a pending call is built, it leaves NOT_BUILT_YET and the check above covers it.
    const built = server.app.routeTable.map((r) => `${r.method} ${openApiPath(r.url)}`);
    expect(NOT_BUILT_YET.filter((c) => built.includes(c))).toEqual([]);
  });

  it("carries the routes' zod schemas: query parameters and JSON bodies", () => {
    const status = doc.paths['/api/check-status']?.get;
    expect(status?.parameters).toContainEqual(
      expect.objectContaining({ name: 'jobId', in: 'query', required: true }),
    );
    const submit = doc.paths['/api/process-video']?.post;
    const schema = submit?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(schema?.properties ?? {})).toEqual(
      expect.arrayContaining([
        'gcsFilePath',
        'email',
        'fileName',
        'fileSize',
        'fileType',
        'config',
      ]),
    );
    // Sections (issue 40 part 3): the lesson in the query, the list in the body.
    const sections = doc.paths['/api/job-sections'];
    for (const method of ['get', 'put']) {
      expect(sections?.[method]?.parameters, method).toContainEqual(
        expect.objectContaining({ name: 'jobId', in: 'query', required: true }),
      );
    }
    const sectionsBody = sections?.put?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(sectionsBody?.properties ?? {})).toEqual(['sections']);
  });

  it('has a docs page that loads only its own script', async () => {
    const page = await server.request('GET', '/api/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1] ?? '');
    expect(scripts).toEqual([' src="/api/docs/docs.js"']);
    expect(html).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const script = await server.request('GET', '/api/docs/docs.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toContain("fetch('/api/openapi.json')");
  });
});
