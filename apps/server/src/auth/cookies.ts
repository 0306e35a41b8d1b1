import type { CookieSerializeOptions } from '@fastify/cookie';
import {
  AUTH_COOKIE_PATH,
  CALLBACK_PATH,
  SESSION_TTL_SECONDS,
  TRANSACTION_TTL_SECONDS,
} from './auth-constants.js';

/** The sign-in session cookie: a 256-bit random secret, base64url. */
export const SESSION_COOKIE = 'rs_session';

/**
 * `rs_signed_in=1`: no secret, readable by the page, set and cleared with the session. It lets
 * the web app skip POST /api/auth/token for a visitor who is not signed in (that call answers
 * 401, which the browser logs as an error on every signed-out page).
 */
export const SIGNED_IN_COOKIE = 'rs_signed_in';

/** The started sign-in (encrypted state, nonce, PKCE verifier, returnTo); lives 10 minutes. */
export const TRANSACTION_COOKIE = 'rs_auth_tx';

/**
 * Both cookies: HttpOnly (no script reads them), SameSite=Lax (sent on the top-level redirect
 * back from the identity provider, never on cross-site subrequests), Secure when the public URL
 * is https. `maxAge` is in seconds.
 */
function base(publicUrl: string): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'lax', secure: publicUrl.startsWith('https:') };
}

/** `rs_session`: Path=/api/auth, so only the sign-in calls carry it; 30 days. */
export function sessionCookieOptions(publicUrl: string): CookieSerializeOptions {
  return { ...base(publicUrl), path: AUTH_COOKIE_PATH, maxAge: SESSION_TTL_SECONDS };
}

/** `rs_signed_in`: readable by scripts, Path=/, as long as the session. */
export function signedInCookieOptions(publicUrl: string): CookieSerializeOptions {
  return { ...base(publicUrl), httpOnly: false, path: '/', maxAge: SESSION_TTL_SECONDS };
}

/** `rs_auth_tx`: Path=/api/auth/callback, the only place that reads it; 10 minutes. */
export function transactionCookieOptions(publicUrl: string): CookieSerializeOptions {
  return { ...base(publicUrl), path: CALLBACK_PATH, maxAge: TRANSACTION_TTL_SECONDS };
}

/** Options that clear a cookie set with `options` (same name, path and flags). */
export function clearing(options: CookieSerializeOptions): CookieSerializeOptions {
  const rest = { ...options };
  delete rest.maxAge;
  return rest;
}
