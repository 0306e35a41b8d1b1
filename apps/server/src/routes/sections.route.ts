import { jobIdQuerySchema, putSectionsBodySchema, type SectionsResponse } from '@riffscribe/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../auth/authenticate.js';
import type { Services } from '../services/index.js';

/**
 * job-sections GET/PUT (issue 40 part 3): the caller's own named loops of a lesson they may see.
 * Signed-in callers only; a PUT replaces the caller's whole list and answers it as saved.
 */
export function registerSectionRoutes(root: FastifyInstance, services: Services): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { sections } = services;

  app.get(
    '/api/job-sections',
    {
      schema: {
        summary: "The caller's sections of a lesson (named loops), by start time",
        querystring: jobIdQuerySchema,
      },
    },
    async (request): Promise<SectionsResponse> => ({
      sections: await sections.list(requireUser(request), request.query.jobId),
    }),
  );

  app.put(
    '/api/job-sections',
    {
      schema: {
        summary: "Replaces the caller's sections of a lesson with this list (at most 100)",
        querystring: jobIdQuerySchema,
        body: putSectionsBodySchema,
      },
    },
    async (request): Promise<SectionsResponse> => ({
      sections: await sections.replace(
        requireUser(request),
        request.query.jobId,
        request.body.sections,
      ),
    }),
  );
}
