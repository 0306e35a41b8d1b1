import {
  convertStartBodySchema,
  convertStatusParamsSchema,
  convertUploadUrlBodySchema,
} from '@riffscribe/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../auth/authenticate.js';
import type { Services } from '../services/index.js';

/**
 * /api/convert/*: the MP4 export (spec section 7). upload-url gives a signed link for the
 * browser's WebM recording, start queues its conversion, status reports it; the MP4 is then
 * download-result's `webm_converted.mp4`.
 */
export function registerConvertRoutes(root: FastifyInstance, services: Services): void {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/convert/upload-url',
    { schema: { body: convertUploadUrlBodySchema } },
    async (request) => services.convert.uploadUrl(requireUser(request), request.body),
  );

  app.post('/api/convert/start', { schema: { body: convertStartBodySchema } }, async (request) =>
    services.convert.start(requireUser(request), request.body.job_id, request.body.overlay ?? null),
  );

  app.get(
    '/api/convert/status/:id',
    { schema: { params: convertStatusParamsSchema } },
    async (request) => services.convert.status(requireUser(request), request.params.id),
  );
}
