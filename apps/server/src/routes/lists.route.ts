import {
  exploreQuerySchema,
  handleParamsSchema,
  type PersonalPageResponse,
  pageQuerySchema,
  upgradeRequestBodySchema,
  type ExploreItem,
  type MyJobItem,
  type Paged,
} from '@riffscribe/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../auth/authenticate.js';
import type { Services } from '../services/index.js';

/** explore (public), my-jobs, and upgrade-requests GET/POST. */
export function registerListRoutes(root: FastifyInstance, services: Services): void {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/api/explore',
    { schema: { querystring: exploreQuerySchema }, config: { anonymous: true } },
    async (request): Promise<Paged<ExploreItem>> =>
      services.jobs.explore(request.query.sort, request.query.page, request.query.pageSize),
  );

  // A Pro user's personal page: the lessons they shared to Personal, for anyone with the link.
  app.get(
    '/api/users/:handle/lessons',
    {
      schema: { params: handleParamsSchema, querystring: exploreQuerySchema },
      config: { anonymous: true },
    },
    async (request): Promise<PersonalPageResponse> =>
      services.jobs.personal(
        request.params.handle,
        request.query.sort,
        request.query.page,
        request.query.pageSize,
      ),
  );

  app.get(
    '/api/my-jobs',
    { schema: { querystring: pageQuerySchema } },
    async (request): Promise<Paged<MyJobItem>> =>
      services.jobs.myJobs(requireUser(request), request.query.page, request.query.pageSize),
  );

  app.get('/api/upgrade-requests', async (request) =>
    services.upgrades.status(requireUser(request)),
  );

  app.post(
    '/api/upgrade-requests',
    { schema: { body: upgradeRequestBodySchema } },
    async (request, reply) =>
      reply
        .status(201)
        .send(await services.upgrades.request(requireUser(request), request.body.message)),
  );
}
