import { exportQuerySchema } from '@riffscribe/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { optionalUser } from '../auth/authenticate.js';
import type { Services } from '../services/index.js';

/**
 * GET /api/export?jobId&format&version: the lesson as a file to download (MIDI, text tab; Guitar
 * Pro and MusicXML to come). Open to the same callers as the notes, signed-out visitors of shared
 * lessons included; answers the file as an attachment named after the lesson.
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
