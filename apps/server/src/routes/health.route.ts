import type { HealthResponse } from '@riffscribe/core';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';

function failure(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

class NotWritable extends Error {}

/**
 * GET /api/health: database, storage and queue readiness; 503 when any part is down. Anyone may
 * call it (load balancers, uptime checks), so a failure is named, not described: the details
 * (paths, hosts, drivers' messages) go to the server's log.
 */
export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    '/api/health',
    { config: { rateLimit: false, anonymous: true } },
    async (request, reply) => {
      const check = async (part: string, fn: (() => Promise<void>) | null, missing: string) => {
        if (!fn) return { ok: false, error: missing };
        try {
          await fn();
          return { ok: true };
        } catch (error) {
          request.log.warn({ part, reason: failure(error) }, 'health check failed');
          return {
            ok: false,
            error:
              error instanceof NotWritable
                ? `The ${part} answers but cannot store anything.`
                : `The ${part} is not answering.`,
          };
        }
      };
      const [database, storage, queue] = await Promise.all([
        check(
          'database',
          async () => {
            await ctx.database.ping();
            // Reads alone say nothing of a read-only or full disk: commit one small write.
            await ctx.database.probeWrite().catch((error: unknown) => {
              throw new NotWritable(failure(error));
            });
          },
          '',
        ),
        check('storage', () => ctx.store.ping(), ''),
        check(
          'job queue',
          ctx.queue ? () => ctx.queue?.health() ?? Promise.resolve() : null,
          'The job queue is not running.',
        ),
      ]);
      const body: HealthResponse = {
        status: database.ok && storage.ok && queue.ok ? 'ok' : 'degraded',
        database: { ...database, driver: ctx.database.driver },
        storage: { ...storage, driver: ctx.store.driver },
        queue,
      };
      return reply.status(body.status === 'ok' ? 200 : 503).send(body);
    },
  );
}
