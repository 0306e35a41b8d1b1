import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { decideScrape } from '../observability/metrics-access.js';
import type { Metrics } from '../observability/metrics.js';
import './route-config.js';

/** Prometheus metrics, on the API's own port (see decideScrape for who may read them). */
export const METRICS_PATH = '/metrics';

/** GET /metrics in Prometheus' text format. */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, config: Config): void {
  app.get(
    METRICS_PATH,
    // Anonymous for the sign-in check: the route checks its own token or the caller's address.
    { config: { anonymous: true, rateLimit: false } },
    async (request, reply) => {
      const decision = decideScrape(
        { remoteAddress: request.socket.remoteAddress, headers: request.headers },
        config.metricsToken,
      );
      if (decision === 'unauthorized') {
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer')
          .send({ error: 'The metrics token is missing or wrong.' });
      }
      if (decision === 'forbidden') {
        return reply
          .status(403)
          .send({ error: 'Metrics are served to loopback addresses only, or with METRICS_TOKEN.' });
      }
      const body = await metrics.registry.metrics();
      return reply
        .header('cache-control', 'no-store')
        .type(metrics.registry.contentType)
        .send(body);
    },
  );
}
