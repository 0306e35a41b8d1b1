import {
  processVideoRequestSchema,
  requestIdQuerySchema,
  signedUploadRequestSchema,
} from '@riffscribe/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../auth/authenticate.js';
import type { Services } from '../services/index.js';

/** The largest browser-made thumbnail accepted (a JPEG frame of a video). */
const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;

/** generate-signed-upload-url, process-video and upload-thumbnail. */
export function registerUploadRoutes(root: FastifyInstance, services: Services): void {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/generate-signed-upload-url',
    { schema: { body: signedUploadRequestSchema } },
    async (request) => services.uploads.signedUploadUrl(requireUser(request), request.body),
  );

  app.post(
    '/api/process-video',
    { schema: { body: processVideoRequestSchema } },
    async (request) => {
      const result = await services.uploads.processVideo(
        requireUser(request),
        request.body,
        request.id,
      );
      // Links this request's id to the job; the worker's lines about the job carry it too.
      request.log.info({ jobId: result.jobId }, 'video submitted for processing');
      return result;
    },
  );

  // The JPEG body is read as a buffer in a scope of its own, so no other route accepts images.
  void root.register((scope, _options, done) => {
    scope.addContentTypeParser(
      'image/jpeg',
      { parseAs: 'buffer', bodyLimit: THUMBNAIL_MAX_BYTES },
      (_request, body, next) => {
        next(null, body);
      },
    );
    scope
      .withTypeProvider<ZodTypeProvider>()
      .post(
        '/api/upload-thumbnail',
        { schema: { querystring: requestIdQuerySchema }, bodyLimit: THUMBNAIL_MAX_BYTES },
        async (request, reply) => {
          const user = requireUser(request);
          const body = request.body;
          if (!Buffer.isBuffer(body)) {
            return reply.status(415).send({ error: 'The thumbnail must be a JPEG image.' });
          }
          await services.jobs.saveThumbnail(user, request.query.requestId, body);
          return reply.status(204).send();
        },
      );
    done();
  });
}
