import {
  downloadResultQuerySchema,
  idQuerySchema,
  jobIdQuerySchema,
  jobLoadBodySchema,
  patchJobBodySchema,
  postStarsBodySchema,
  type DownloadResultResponse,
  type EditAccessResponse,
  type JobResponse,
  type MyStarsResponse,
} from '@riffscribe/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { optionalUser, requireUser } from '../auth/authenticate.js';
import type { Services } from '../services/index.js';

/**
 * check-status, job GET/PATCH, edit-access, download-result, job-meta/stars/stats/load, view-access.
 * The reads the view-only player needs also answer signed-out visitors, for shared lessons only
 * (a private one is "not found" to them as to anyone but its owner).
 */
const PUBLIC_READ = { anonymous: true } as const;

export function registerJobRoutes(root: FastifyInstance, services: Services): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { jobs } = services;

  app.get('/api/check-status', { schema: { querystring: jobIdQuerySchema } }, async (request) =>
    jobs.checkStatus(requireUser(request), request.query.jobId),
  );

  app.get(
    '/api/job',
    { schema: { querystring: idQuerySchema } },
    async (request): Promise<JobResponse> => ({
      job: await jobs.getJob(requireUser(request), request.query.id),
    }),
  );

  app.patch(
    '/api/job',
    { schema: { querystring: idQuerySchema, body: patchJobBodySchema } },
    async (request): Promise<JobResponse> => ({
      job: await jobs.patchJob(requireUser(request), request.query.id, request.body),
    }),
  );

  app.delete('/api/job', { schema: { querystring: idQuerySchema } }, async (request, reply) => {
    await jobs.deleteJob(requireUser(request), request.query.id);
    return reply.status(204).send();
  });

  app.get(
    '/api/edit-access',
    { schema: { querystring: jobIdQuerySchema }, config: PUBLIC_READ },
    async (request): Promise<EditAccessResponse> => ({
      canEdit: await jobs.canEdit(optionalUser(request), request.query.jobId),
    }),
  );

  app.get(
    '/api/download-result',
    { schema: { querystring: downloadResultQuerySchema }, config: PUBLIC_READ },
    async (request): Promise<DownloadResultResponse> => ({
      downloadUrl: await jobs.downloadUrl(
        optionalUser(request),
        request.query.jobId,
        request.query.fileName,
      ),
    }),
  );

  app.get(
    '/api/job-meta',
    { schema: { querystring: jobIdQuerySchema }, config: PUBLIC_READ },
    async (request) => jobs.meta(optionalUser(request), request.query.jobId),
  );

  app.get(
    '/api/job-stars',
    { schema: { querystring: jobIdQuerySchema } },
    async (request): Promise<MyStarsResponse> => ({
      stars: await jobs.myStars(requireUser(request), request.query.jobId),
    }),
  );

  app.post('/api/job-stars', { schema: { body: postStarsBodySchema } }, async (request) =>
    jobs.rate(requireUser(request), request.body.jobId, request.body.stars),
  );

  app.get(
    '/api/job-stats',
    { schema: { querystring: jobIdQuerySchema }, config: PUBLIC_READ },
    async (request) => jobs.stats(optionalUser(request), request.query.jobId),
  );

  app.post('/api/job-load', { schema: { body: jobLoadBodySchema } }, async (request) =>
    jobs.recordLoad(requireUser(request), request.body.jobId),
  );

  // The picture of a shared lesson's link preview (og:image): a stable address chat apps can
  // fetch whenever they like, unlike a signed link that expires.
  app.get(
    '/api/lesson-thumbnail',
    { schema: { querystring: jobIdQuerySchema }, config: PUBLIC_READ },
    async (request, reply) => {
      const jpeg = await jobs.publicThumbnail(request.query.jobId);
      return reply.type('image/jpeg').header('cache-control', 'public, max-age=300').send(jpeg);
    },
  );

  app.get(
    '/api/view-access',
    { schema: { querystring: jobIdQuerySchema }, config: PUBLIC_READ },
    async (request) => jobs.viewAccess(optionalUser(request), request.query.jobId),
  );
}
