import { hkdfSync } from 'node:crypto';
import { parseRole } from '@riffscribe/core';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import type { AuthUser } from '../context.js';
import { unauthorized } from '../errors.js';

/** Access tokens live this long; the web app renews them through the session cookie. */
export const ACCESS_TOKEN_TTL_SECONDS = 10 * 60;
const AUDIENCE = 'riffscribe-api';
const ALGORITHM = 'HS256';

/** The token key, derived from the server secret so that no two purposes share a key. */
export function accessTokenKey(secret: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', secret, 'riffscribe', 'access-token-v1', 32));
}

/** Signs a short-lived bearer token carrying uid (sub), email, role and session id. */
export async function issueAccessToken(
  key: Uint8Array,
  issuer: string,
  user: AuthUser,
  ttlSeconds = ACCESS_TOKEN_TTL_SECONDS,
  now = Math.floor(Date.now() / 1000),
): Promise<string> {
  return new SignJWT({ email: user.email, role: user.role, sid: user.sid })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'at+jwt' })
    .setSubject(user.uid)
    .setIssuer(issuer)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + ttlSeconds)
    .sign(key);
}

/** Verifies a bearer token; any fault (expired, other key, malformed) is a 401. */
export async function verifyAccessToken(
  key: Uint8Array,
  issuer: string,
  token: string,
): Promise<AuthUser> {
  try {
    const { payload } = await jwtVerify(token, key, {
      issuer,
      audience: AUDIENCE,
      algorithms: [ALGORITHM],
      typ: 'at+jwt',
    });
    const { sub, email, sid } = payload;
    if (typeof sub !== 'string' || typeof email !== 'string' || typeof sid !== 'string') {
      throw unauthorized('Your sign-in token is not valid. Please sign in again.');
    }
    return { uid: sub, email, role: parseRole(payload.role), sid };
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired) {
      throw unauthorized('Your session has expired. Please sign in again.');
    }
    throw unauthorized('Your sign-in token is not valid. Please sign in again.');
  }
}
