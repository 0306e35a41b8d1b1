import type { FastifyRequest } from 'fastify';
import { forbidden } from '../errors.js';

/** The header every cookie-authenticated POST (/api/auth/token, /api/auth/logout) must carry. */
export const CSRF_HEADER = 'x-requested-with';
export const CSRF_HEADER_VALUE = 'riffscribe';

/**
 * CSRF guard for the calls that act on the session cookie.
 *
 * A custom request header cannot be sent cross-origin without a CORS preflight, and this server
 * approves none, so a page on another origin can never make the browser send it; HTML forms
 * cannot set headers at all. This works behind a dev proxy (Vite) where Origin would be the
 * proxy's, which is why it was chosen over an Origin check. SameSite=Lax on the cookie is a
 * second layer (no cookie on cross-site POSTs).
 */
export function requireCsrfHeader(request: FastifyRequest): void {
  const value = request.headers[CSRF_HEADER];
  if (typeof value !== 'string' || value.toLowerCase() !== CSRF_HEADER_VALUE) {
    throw forbidden(
      `This call must come from the Riffscribe web app (header ${CSRF_HEADER}: ${CSRF_HEADER_VALUE}).`,
    );
  }
}
