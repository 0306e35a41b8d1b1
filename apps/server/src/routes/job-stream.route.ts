import { jobIdQuerySchema } from '@riffscribe/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../auth/authenticate.js';
import type { Services } from '../services/index.js';

/** How often the stream reads the job row: the lesson opens at most this much after it is ready. */
const READ_EVERY_MS = 200;
/** A comment line this often keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;
/** A stream ends after this long; the page goes on with check-status polling. */
const MAX_STREAM_MS = 30 * 60_000;

/**
 * GET /api/job-status-stream?jobId=: check-status as server-sent events, so the processing screen
 * moves as stages finish and opens the lesson as soon as it is ready. Authorised exactly like
 * check-status (the owner only; 401, 403, 404 as JSON before any event). Events:
 * - `status`: a CheckStatusResponse, sent at once and then on every change;
 * - `end`: the final CheckStatusResponse (completed or failed), after which the server closes.
 * A stream that closes without `end` (time limit, restart, network) leaves the page on its 10 s
 * check-status polling, which the spec keeps as the baseline.
 */
export function registerJobStreamRoutes(root: FastifyInstance, services: Services): void {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { jobs } = services;
  // Open streams end when the server closes, so that close does not wait for them.
  const closing = new AbortController();
  app.addHook('onClose', () => {
    closing.abort();
  });

  app.get(
    '/api/job-status-stream',
    { schema: { querystring: jobIdQuerySchema } },
    async (request, reply) => {
      const user = requireUser(request);
      const { jobId } = request.query;
      // Refusals (not signed in, not found, not the owner) answer as JSON, as check-status does.
      await jobs.checkStatus(user, jobId);

      const stop = new AbortController();
      const abort = () => {
        stop.abort();
      };
      closing.signal.addEventListener('abort', abort, { once: true });
      const res = reply.raw;
      // The response's close (not the request's, which fires once a GET is read) is the client
      // going away.
      res.on('close', abort);
      reply.hijack();
      res.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      const keepalive = setInterval(() => res.write(': keep-alive\n\n'), KEEPALIVE_MS);
      let id = 0;
      try {
        for await (const status of jobs.watchStatus(user, jobId, {
          signal: stop.signal,
          everyMs: READ_EVERY_MS,
          maxMs: MAX_STREAM_MS,
        })) {
          id += 1;
          const data = JSON.stringify(status);
          res.write(`id: ${id}\nevent: status\ndata: ${data}\n\n`);
          if (status.status === 'completed' || status.status === 'failed')
            res.write(`event: end\ndata: ${data}\n\n`);
        }
      } catch (error) {
        // Access lost mid-way or a database fault: the page falls back to polling.
        request.log.warn({ err: error, jobId }, 'job status stream ended early');
      } finally {
        clearInterval(keepalive);
        closing.signal.removeEventListener('abort', abort);
        res.off('close', abort);
        res.end();
      }
    },
  );
}
