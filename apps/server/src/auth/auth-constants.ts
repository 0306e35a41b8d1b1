/** Paths, scopes and lifetimes shared by the relying party and the development provider. */

/** Where the development provider is mounted; its issuer is `${publicUrl}${DEV_PROVIDER_MOUNT}`. */
export const DEV_PROVIDER_MOUNT = '/oidc';

/** The relying party's redirect URI path (registered at the identity provider). */
export const CALLBACK_PATH = '/api/auth/callback';

/** Every cookie the sign-in uses lives under this path, so API calls never carry them. */
export const AUTH_COOKIE_PATH = '/api/auth';

/** The scopes Riffscribe asks for: an id, a verified e-mail and a display name. */
export const SIGN_IN_SCOPE = 'openid email profile';

/** A sign-in session (the `rs_session` cookie and its row) lasts this long, in seconds. */
export const SESSION_TTL_SECONDS = 30 * 24 * 60 * 60;

/** A started sign-in (state, nonce, PKCE verifier) must come back within this many seconds. */
export const TRANSACTION_TTL_SECONDS = 10 * 60;

/** The development provider's issuer for a public URL. */
export function devProviderIssuer(publicUrl: string): string {
  return `${publicUrl}${DEV_PROVIDER_MOUNT}`;
}
