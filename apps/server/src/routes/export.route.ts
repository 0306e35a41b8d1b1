import {
  beatsQuerySchema,
  editBeatsBodySchema,
  exportQuerySchema,
  jobIdQuerySchema,
} from '@riffscribe/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { optionalUser, requireUser } from '../auth/authenticate.js';
import type { Services } from '../services/index.js';

/**
 * GET /api/export?jobId&format&version: the lesson as a file to download (Guitar Pro, MusicXML,
 * MIDI, text tab), and GET /api/beats?jobId: the beats and bars the notation view draws it on.
 * Open to the same callers as the notes, signed-out visitors of shared lessons included; the
 * file comes as an attachment named after the lesson. POST /api/edit-beats?jobId: the owner's
 * corrected beats and bars, saved as the edited version beside the edited notes.
 */
export function registerExportRoutes(root: FastifyInstance, services: Services): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/api/export',
    {
      schema: {
        querystring: exportQuerySchema,
        summary: "A lesson's notes as a file: gp, musicxml, midi or txt",
        description:
          'Answers the file as an attachment (Guitar Pro 7 .gp, MusicXML 4 .musicxml, ' +
          'audio/midi .mid, text/plain .txt). `version` defaults to the edited version where ' +
          'one was saved, like the player. Access as GET /api/notes.',
      },
      config: { anonymous: true },
    },
    async (request, reply) => {
      const { jobId, format, version } = request.query;
      const file = await services.exports.export(optionalUser(request), jobId, format, version);
      return reply
        .type(file.contentType)
        .header('content-disposition', attachment(file.fileName))
        .header('cache-control', 'private, no-store')
        .header('x-lesson-version', file.version)
        .send(file.body);
    },
  );
  app.get(
    '/api/beats',
    {
      schema: {
        querystring: beatsQuerySchema,
        summary: "A lesson's beats and bars",
        description:
          'The beat grid the notation view and the exports place the notes on: beat times in ' +
          'seconds, the beats where bars start, the beat unit. `source` is `engine` when the ' +
          "engine heard it, `default` for a steady 4/4 at 120, `edited` for the owner's " +
          'corrected grid (with edit_version=true, where one was saved). Access as GET /api/notes.',
      },
      config: { anonymous: true },
    },
    async (request) =>
      services.exports.beats(
        optionalUser(request),
        request.query.jobId,
        request.query.edit_version,
      ),
  );
  app.post(
    '/api/edit-beats',
    {
      schema: {
        querystring: jobIdQuerySchema,
        body: editBeatsBodySchema,
        summary: "Saves a lesson's corrected beats and bars",
        description:
          'The owner only, once the lesson is ready. Beats 0.2 to 3 s apart, bar lines on ' +
          'beats at most 16 apart, every beat within the video (and up to 3 s past its end).',
      },
      // 20,000 beats at most (beatGridSchema): well under a megabyte of JSON.
      bodyLimit: 1024 * 1024,
    },
    async (request) =>
      services.exports.saveBeats(requireUser(request), request.query.jobId, request.body.grid),
  );
}

/**
 * A Content-Disposition for a download named `name` (RFC 6266): an ASCII fallback, and the name
 * itself in UTF-8 for the browsers that read `filename*`.
 */
export function attachment(name: string): string {
  // No control characters or path separators; one space for any run of white space.
  const clean = Array.from(name, (c) =>
    c.charCodeAt(0) < 32 || c === '\u007f' || c === '/' || c === '\\' ? ' ' : c,
  )
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  const dot = clean.lastIndexOf('.');
  const base = (dot > 0 ? clean.slice(0, dot) : clean).trim() || 'lesson';
  const ext = dot > 0 ? clean.slice(dot) : '';
  const ascii =
    base
      .normalize('NFKD')
      .replace(/[^\w .()-]+/g, '')
      .replace(/\s+/g, ' ')
      .trim()
      .slice(0, 120) || 'lesson';
  const encoded = encodeURIComponent(`${base}${ext}`).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}${ext}"; filename*=UTF-8''${encoded}`;
}
