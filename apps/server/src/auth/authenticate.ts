import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthUser, AppContext } from '../context.js';
import { unauthorized } from '../errors.js';
import { SessionsRepository } from './sessions.repository.js';
import { accessTokenKey, verifyAccessToken } from './tokens.js';

/**
 * Reads `Authorization: Bearer <token>` on every request into `request.user`. No header means an
 * anonymous caller; a header with a bad or expired token, or one whose session has ended (signed
 * out), is refused with 401 at once, so a client never silently acts as anonymous.
 */
export function registerAuthentication(app: FastifyInstance, ctx: AppContext): void {
  const key = accessTokenKey(ctx.config.secret);
  const sessions = new SessionsRepository(ctx.database.db);
  app.addHook('onRequest', async (request) => {
    // The development identity provider's own pages and endpoints carry its own credentials.
    if (request.url.startsWith('/oidc/') || request.url === '/oidc') return;
    const header = request.headers.authorization;
    if (header === undefined || header === '') return;
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) throw unauthorized('Your sign-in token is not valid. Please sign in again.');
    const user = await verifyAccessToken(key, ctx.config.publicUrl, match[1]);
    // A token is only as good as its session: after sign-out (the session revoked) or the
    // session's end it is refused at once, not when it expires minutes later.
    if (!(await sessions.findLive(user.sid))) {
      throw unauthorized('Your session has ended. Please sign in again.');
    }
    request.user = user;
  });
}

/** The signed-in caller, or a 401 with the spec's sign-in sentence. */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
