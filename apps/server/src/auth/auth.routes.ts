import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { AppError, unauthorized } from '../errors.js';
import type { Services } from '../services/index.js';
import { CALLBACK_PATH } from './auth-constants.js';
import type { AuthConfigResponse, AuthTokenResponse } from '@riffscribe/core';
import { AuthSessions } from './auth-sessions.js';
import {
  clearing,
  SESSION_COOKIE,
  SIGNED_IN_COOKIE,
  signedInCookieOptions,
  sessionCookieOptions,
  TRANSACTION_COOKIE,
  transactionCookieOptions,
} from './cookies.js';
import { requireCsrfHeader } from './csrf.js';
import { createDevProvider } from './dev-provider.js';
import { mountDevProvider } from './dev-provider-mount.js';
import { signInErrorPage } from './html-page.js';
import { RelyingParty, SignInRejected } from './oidc-client.js';
import { DEFAULT_RETURN_TO, safeReturnTo } from './return-to.js';
import { openTransaction, sealTransaction, transactionKey } from './transaction-cookie.js';

const PROVIDER_UNAVAILABLE =
  'The sign-in service cannot be reached right now. Please try again in a moment.';
const NO_TRANSACTION =
  'This sign-in took too long or was started in another browser or tab. Please sign in again.';

function loginLink(returnTo: string): { href: string; label: string } {
  const query = returnTo === DEFAULT_RETURN_TO ? '' : `?returnTo=${encodeURIComponent(returnTo)}`;
  return { href: `/api/auth/login${query}`, label: 'Sign in again' };
}

function queryValue(request: FastifyRequest, name: string): unknown {
  const query = request.query;
  return typeof query === 'object' && query !== null
    ? (query as Record<string, unknown>)[name]
    : undefined;
}

/**
 * Sign-in (spec section 6; docs/architecture.md "Identity"):
 * - GET  /api/auth/config   `{ devProvider, issuer }`
 * - GET  /api/auth/login    ?returnTo=/path; 302 to the identity provider
 * - GET  /api/auth/callback the provider's redirect; sets `rs_session`, 302 to returnTo
 * - POST /api/auth/token    session cookie -> `{ accessToken, expiresIn, user }` (CSRF header)
 * - POST /api/auth/logout   revokes the session, clears the cookie, 204 (CSRF header)
 * and, without OIDC_ISSUER, the built-in development provider under /oidc.
 *
 * Callback failures answer a small HTML page (the browser is navigating, not calling an API)
 * with a 4xx status and a link to sign in again; nothing about the failure leaks beyond a
 * sentence, the reason goes to the log. No session is created on any failure.
 */
export async function registerAuthRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  services: Services,
): Promise<void> {
  const { config } = ctx;
  const rp = new RelyingParty(config);
  if (rp.devProvider) await mountDevProvider(app, await createDevProvider(config, app.log));

  const sessions = new AuthSessions(ctx.database, services.accounts.users, config);
  const txKey = transactionKey(config.secret);
  const txCookie = transactionCookieOptions(config.publicUrl);
  const sessionCookie = sessionCookieOptions(config.publicUrl);
  const signedInCookie = signedInCookieOptions(config.publicUrl);
  /** Ends the session cookie and its readable hint in the browser. */
  const clearSession = (request: FastifyRequest, reply: FastifyReply) => {
    if (request.cookies[SESSION_COOKIE] !== undefined) {
      reply.clearCookie(SESSION_COOKIE, clearing(sessionCookie));
    }
    if (request.cookies[SIGNED_IN_COOKIE] !== undefined) {
      reply.clearCookie(SIGNED_IN_COOKIE, clearing(signedInCookie));
    }
  };

  app.get('/api/auth/config', { config: { anonymous: true } }, (): AuthConfigResponse => ({
    devProvider: rp.devProvider,
    issuer: rp.issuer,
  }));

  const publicHost = new URL(config.publicUrl).host;
  app.get('/api/auth/login', { config: { anonymous: true } }, async (request, reply) => {
    const returnTo = safeReturnTo(queryValue(request, 'returnTo'));
    // The identity provider sends the browser back to the public URL, where the transaction
    // cookie must be: a sign-in started at another address (http://127.0.0.1:3000 for
    // http://localhost:3000, a LAN address) first moves to the public URL, once (`moved` stops a
    // loop behind a proxy that rewrites Host), and ends there signed in.
    if (request.host !== publicHost && queryValue(request, 'moved') === undefined) {
      const there = new URL('/api/auth/login', config.publicUrl);
      there.searchParams.set('returnTo', returnTo);
      there.searchParams.set('moved', '1');
      return reply.header('cache-control', 'no-store').redirect(there.href, 302);
    }
    let started: Awaited<ReturnType<RelyingParty['begin']>>;
    try {
      started = await rp.begin(returnTo);
    } catch (error) {
      request.log.warn(
        { reason: error instanceof Error ? error.message : 'unknown' },
        'identity provider discovery failed',
      );
      throw new AppError('unavailable', PROVIDER_UNAVAILABLE);
    }
    reply.setCookie(
      TRANSACTION_COOKIE,
      await sealTransaction(txKey, started.transaction),
      txCookie,
    );
    return reply.header('cache-control', 'no-store').redirect(started.url.href, 302);
  });

  app.get(
    CALLBACK_PATH,
    { logSerializers: { req: withoutQuery }, config: { anonymous: true } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const sealed = request.cookies[TRANSACTION_COOKIE];
      // One attempt per transaction, whatever happens next.
      if (sealed !== undefined) reply.clearCookie(TRANSACTION_COOKIE, clearing(txCookie));
      const refuse = (status: number, message: string, reason: string, returnTo = '/') => {
        // A refused sign-in is the browser's business (info); a 5xx is ours to look at (warn).
        if (status >= 500) request.log.warn({ reason }, 'sign-in failed');
        else request.log.info({ reason }, 'sign-in refused');
        return sendPage(reply, status, signInErrorPage(message, loginLink(returnTo)));
      };

      const transaction = sealed === undefined ? null : await openTransaction(txKey, sealed);
      if (!transaction) return refuse(400, NO_TRANSACTION, 'missing or invalid transaction cookie');

      // Rebuilt from the public URL: only the query comes from the request.
      const callbackUrl = new URL(CALLBACK_PATH, config.publicUrl);
      callbackUrl.search = new URL(request.url, config.publicUrl).search;
      let identity;
      try {
        identity = await rp.complete(callbackUrl, transaction);
      } catch (error) {
        if (!(error instanceof SignInRejected)) throw error;
        return refuse(error.status, error.message, error.reason, transaction.returnTo);
      }

      let user;
      try {
        user = await services.accounts.signIn(identity);
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        return refuse(error.status, error.message, error.code, transaction.returnTo);
      }

      // A new sign-in in this browser replaces the previous session.
      await sessions.end(request.cookies[SESSION_COOKIE]);
      const { secret } = await sessions.start(user.uid);
      reply.setCookie(SESSION_COOKIE, secret, sessionCookie);
      reply.setCookie(SIGNED_IN_COOKIE, '1', signedInCookie);
      return reply.redirect(transaction.returnTo, 302);
    },
  );

  app.post(
    '/api/auth/token',
    { config: { anonymous: true } },
    async (request, reply): Promise<AuthTokenResponse> => {
      requireCsrfHeader(request);
      reply.header('cache-control', 'no-store');
      const cookie = request.cookies[SESSION_COOKIE];
      const answer = await sessions.renew(cookie);
      if (answer) {
        if (request.cookies[SIGNED_IN_COOKIE] === undefined) {
          reply.setCookie(SIGNED_IN_COOKIE, '1', signedInCookie);
        }
        return answer;
      }
      clearSession(request, reply);
      throw unauthorized();
    },
  );

  app.post('/api/auth/logout', { config: { anonymous: true } }, async (request, reply) => {
    requireCsrfHeader(request);
    await sessions.end(request.cookies[SESSION_COOKIE]);
    clearSession(request, reply);
    return reply.header('cache-control', 'no-store').status(204).send();
  });
}

/**
 * Request log line for the callback without its query: the authorization code is a credential
 * (single use and PKCE-bound, but a credential), so it stays out of the logs.
 */
function withoutQuery(request: FastifyRequest): Record<string, unknown> {
  const path = request.url.split('?')[0] ?? '';
  return {
    method: request.method,
    url: `${path}?[redacted]`,
    host: request.host,
    remoteAddress: request.ip,
  };
}

function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.status(status).type('text/html; charset=utf-8').send(html);
}
