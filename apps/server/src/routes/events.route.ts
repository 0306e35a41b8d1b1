import {
  editChordsBodySchema,
  editNotesBodySchema,
  eventsQuerySchema,
  jobIdQuerySchema,
  refingerBodySchema,
} from '@riffscribe/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { optionalUser, requireUser } from '../auth/authenticate.js';
import type { Services } from '../services/index.js';

/**
 * A 10-minute lesson's notes with pitch curves fit comfortably in this. Only signed-in callers
 * get this far: sign-in is checked before the body is read (auth/authenticate.ts).
 */
const EDIT_BODY_LIMIT = 16 * 1024 * 1024;

/** notes/chords GET (original or edited), edit-notes/edit-chords POST and refinger POST. */
export function registerEventRoutes(root: FastifyInstance, services: Services): void {
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

  app.post(
    '/api/edit-notes',
    {
      schema: { querystring: jobIdQuerySchema, body: editNotesBodySchema },
      bodyLimit: EDIT_BODY_LIMIT,
    },
    async (request) =>
      jobs.saveEdits(requireUser(request), request.query.jobId, 'notes', request.body.events),
  );

  app.post(
    '/api/edit-chords',
    {
      schema: { querystring: jobIdQuerySchema, body: editChordsBodySchema },
      bodyLimit: EDIT_BODY_LIMIT,
    },
    async (request) =>
      jobs.saveEdits(requireUser(request), request.query.jobId, 'chords', request.body.events),
  );

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
