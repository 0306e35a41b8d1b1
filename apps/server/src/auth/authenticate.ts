import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  RouteOptions,
} from 'fastify';
import type { AuthUser, AppContext } from '../context.js';
import { forbidden, unauthorized } from '../errors.js';
import { METRICS_PATH } from '../routes/metrics.route.js';
import { liveRoleCache } from './live-role-cache.js';
import { SessionsRepository } from './sessions.repository.js';
import { accessTokenKey, verifyAccessToken } from './tokens.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route answers callers who are not signed in (health, sign-in itself, signed storage
     * links, Explore). Every other /api route requires sign-in before its body is read.
     */
    anonymous?: boolean;
  }
}

/**
 * Body limit of routes open to anonymous callers that set none of their own (bytes): sign-in
 * and the public reads take no body worth the name, so nobody can make the server parse
 * megabytes without an account.
 */
export const ANONYMOUS_BODY_LIMIT = 16 * 1024;

/** Whether a route requires sign-in: every /api route but those marked `anonymous`. */
export function requiresSignIn(route: Pick<RouteOptions, 'url' | 'config'>): boolean {
  const config = route.config as { anonymous?: boolean } | undefined;
  return route.url.startsWith('/api/') && config?.anonymous !== true;
}

/**
 * Sign-in checked before the body is read (a route onRequest hook, after the bearer token has
 * been read): an anonymous caller gets 401 without a body being parsed or validated for it.
 */
function signedIn(request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) {
  try {
    requireUser(request);
    done();
  } catch (error) {
    done(error as Error);
  }
}

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
    // GET /metrics checks its own bearer token (METRICS_TOKEN).
    if (request.url.split('?')[0] === METRICS_PATH) return;
    const header = request.headers.authorization;
    if (header === undefined || header === '') return;
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) throw unauthorized('Your sign-in token is not valid. Please sign in again.');
    const user = await verifyAccessToken(key, ctx.config.publicUrl, match[1]);
    // A token is only as good as its session: after sign-out (the session revoked) or the
    // session's end it is refused at once, not when it expires minutes later.
    // The role is the account's current one, not the token's: a role an admin changed (an
    // upgrade approved, an admin demoted) applies to the next call, not at the token's renewal.
    let role = liveRoleCache.get(user.sid, user.uid);
    if (role === undefined) {
      role = await sessions.liveRole(user.sid, user.uid);
      liveRoleCache.set(user.sid, user.uid, role);
    }
    if (role === null) {
      throw unauthorized('Your session has ended. Please sign in again.');
    }
    request.user = { ...user, role };
  });
  // Every route registered from now on: sign-in first where it is required, a small body limit
  // where it is not.
  app.addHook('onRoute', (route) => {
    if (requiresSignIn(route)) {
      const hooks: onRequestHookHandler[] = Array.isArray(route.onRequest)
        ? [...(route.onRequest as onRequestHookHandler[])]
        : route.onRequest
          ? [route.onRequest]
          : [];
      if (!hooks.includes(signedIn)) route.onRequest = [signedIn, ...hooks];
    } else if (route.url.startsWith('/api/')) {
      route.bodyLimit ??= ANONYMOUS_BODY_LIMIT;
    }
  });
}

/** The signed-in caller, or null for an anonymous one (routes marked `anonymous` only). */
export function optionalUser(request: FastifyRequest): AuthUser | null {
  return request.user ?? null;
}

/** The signed-in admin: 401 signed out, 403 for any other role. */
export function requireAdmin(request: FastifyRequest): AuthUser {
  const user = requireUser(request);
  if (user.role !== 'admin') throw forbidden('Only an administrator can do that.');
  return user;
}

/** The signed-in caller, or a 401 with the spec's sign-in sentence. */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized();
  return request.user;
}
