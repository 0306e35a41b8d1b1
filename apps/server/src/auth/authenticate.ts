import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthUser, AppContext } from '../context.js';
import { unauthorized } from '../errors.js';
import { METRICS_PATH } from '../routes/metrics.route.js';
import { accessTokenKey, verifyAccessToken } from './tokens.js';

/**
 * Reads `Authorization: Bearer <token>` on every request into `request.user`. No header means an
 * anonymous caller; a header with a bad or expired token is refused with 401 at once, so a client
 * never silently acts as anonymous.
 */
export function registerAuthentication(app: FastifyInstance, ctx: AppContext): void {
  const key = accessTokenKey(ctx.config.secret);
  app.addHook('onRequest', async (request) => {
    // The development identity provider's own pages and endpoints carry its own credentials.
    if (request.url.startsWith('/oidc/') || request.url === '/oidc') return;
    // GET /metrics checks its own bearer token (METRICS_TOKEN).
    if (request.url.split('?')[0] === METRICS_PATH) return;
    const header = request.headers.authorization;
    if (header === undefined || header === '') return;
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) throw unauthorized('Your sign-in token is not valid. Please sign in again.');
    request.user = await verifyAccessToken(key, ctx.config.publicUrl, match[1]);
  });
}

/** The signed-in caller, or a 401 with the spec's sign-in sentence. */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
