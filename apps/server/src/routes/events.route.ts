import {
  editChordsBodySchema,
  editNotesBodySchema,
  eventsQuerySchema,
  jobIdQuerySchema,
  refingerBodySchema,
} from '@riffscribe/core';
import type { FastifyInstance } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { optionalUser, requireUser } from '../auth/authenticate.js';
import type { Services } from '../services/index.js';

/**
 * A 10-minute lesson's notes with pitch curves fit comfortably in this. Only signed-in callers
 * get this far: sign-in is checked before the body is read (auth/authenticate.ts).
 */
const EDIT_BODY_LIMIT = 16 * 1024 * 1024;

/** notes/chords GET (original or edited), edit-notes/edit-chords POST and refinger POST. */
export async function registerEventRoutes(
  root: FastifyInstance,
  services: Services,
): Promise<void> {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { jobs } = services;

  // Signed-out visitors read shared lessons too (the view-only player); see jobs.events.
  app.get(
    '/api/notes',
    { schema: { querystring: eventsQuerySchema }, config: { anonymous: true } },
    async (request) =>
      jobs.events(optionalUser(request), request.query.jobId, 'notes', request.query.edit_version),
  );

  app.get(
    '/api/chords',
    { schema: { querystring: eventsQuerySchema }, config: { anonymous: true } },
    async (request) =>
      jobs.events(optionalUser(request), request.query.jobId, 'chords', request.query.edit_version),
  );

  // The edit saves take their JSON as bytes: parsing and checking a 50,000-note body is done on
  // the edits pool's thread (JobsService.saveEdits), with the same schema the OpenAPI document
  // shows. Only these two routes, in a context of their own.
  await root.register((scope, _options, registered) => {
    const edits = scope.withTypeProvider<ZodTypeProvider>();
    edits.removeContentTypeParser('application/json');
    edits.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: EDIT_BODY_LIMIT },
      (_request, body, done) => {
        done(null, body);
      },
    );
    // The query as everywhere; the body passes as it came.
    edits.setValidatorCompiler<Parameters<typeof validatorCompiler>[0]['schema']>((route) =>
      route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route),
    );
    for (const [url, kind, body] of [
      ['/api/edit-notes', 'notes', editNotesBodySchema],
      ['/api/edit-chords', 'chords', editChordsBodySchema],
    ] as const) {
      edits.post(
        url,
        {
          schema: { querystring: jobIdQuerySchema, body },
          bodyLimit: EDIT_BODY_LIMIT,
        },
        async (request) =>
          jobs.saveEdits(
            requireUser(request),
            request.query.jobId,
            kind,
            request.body as unknown as Buffer,
          ),
      );
    }
    registered();
  });

  // Re-fingers a selection of the editor's notes (issue 19); answers the moved notes, saves
  // nothing: the editor applies them as one undoable edit and saves through edit-notes.
  app.post(
    '/api/refinger',
    {
      schema: { querystring: jobIdQuerySchema, body: refingerBodySchema },
      bodyLimit: EDIT_BODY_LIMIT,
    },
    async (request) => jobs.refinger(requireUser(request), request.query.jobId, request.body),
  );
}
