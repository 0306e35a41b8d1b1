import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { DOCS_PAGE_HTML, DOCS_PAGE_SCRIPT } from './api-docs-page.js';
import './route-config.js';

/** The OpenAPI 3.1 description of the HTTP API, generated from the routes' zod schemas. */
export const OPENAPI_PATH = '/api/openapi.json';
/** A small page that lists the API from OPENAPI_PATH (no remote scripts: the CSP forbids them). */
export const DOCS_PATH = '/api/docs';
const DOCS_SCRIPT_PATH = '/api/docs/docs.js';

/**
 * Collects every route registered after it into the OpenAPI document. Must be registered before
 * the routes. Only the /api routes are described: the development sign-in provider and the web
 * app's files are not part of the API.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Riffscribe API',
        version: '0.1.0',
        description:
          'Calls of the Riffscribe web app. Most need `Authorization: Bearer <access token>` from ' +
          'POST /api/auth/token; errors are JSON `{ "error": "human sentence" }`.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      // A bearer token, or none for the calls that allow anonymous callers.
      security: [{ bearer: [] }, {}],
    },
    transform: (input) => {
      if (!input.url.startsWith('/api/')) {
        return { schema: { ...input.schema, hide: true }, url: input.url };
      }
      return jsonSchemaTransform(input);
    },
    transformObject: jsonSchemaTransformObject,
  });
}

/** GET /api/openapi.json and the docs page (anonymous). */
export function registerOpenApiRoutes(app: FastifyInstance): void {
  app.get(
    OPENAPI_PATH,
    { config: { anonymous: true }, schema: { summary: 'This OpenAPI 3.1 document' } },
    async (_request, reply) => reply.header('cache-control', 'no-cache').send(app.swagger()),
  );
  app.get(
    DOCS_PATH,
    { config: { anonymous: true }, schema: { summary: 'A page listing the API' } },
    async (_request, reply) => reply.type('text/html; charset=utf-8').send(DOCS_PAGE_HTML),
  );
  app.get(
    DOCS_SCRIPT_PATH,
    { config: { anonymous: true }, schema: { summary: "The docs page's script" } },
    async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(DOCS_PAGE_SCRIPT),
  );
}
