import { hkdfSync } from 'node:crypto';
import { EncryptJWT, jwtDecrypt } from 'jose';
import { TRANSACTION_TTL_SECONDS } from './auth-constants.js';
import type { SignInTransaction } from './oidc-client.js';

const AUDIENCE = 'riffscribe-sign-in';

/** The transaction cookie's key (A256GCM), derived from the server secret for this use only. */
export function transactionKey(secret: string): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', secret, 'riffscribe', 'sign-in-transaction-v1', 32));
}

/**
 * Seals a started sign-in into an encrypted JWT (dir + A256GCM): the browser can neither read the
 * nonce and PKCE verifier nor change the returnTo path, and the token expires after 10 minutes
 * whatever the cookie's own lifetime says.
 */
export async function sealTransaction(
  key: Uint8Array,
  transaction: SignInTransaction,
  now = Math.floor(Date.now() / 1000),
): Promise<string> {
  return new EncryptJWT({
    state: transaction.state,
    nonce: transaction.nonce,
    verifier: transaction.verifier,
    returnTo: transaction.returnTo,
  })
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + TRANSACTION_TTL_SECONDS)
    .encrypt(key);
}

/** Opens a sealed transaction; null when it is expired, tampered with or not ours. */
export async function openTransaction(
  key: Uint8Array,
  sealed: string,
): Promise<SignInTransaction | null> {
  try {
    const { payload } = await jwtDecrypt(sealed, key, {
      audience: AUDIENCE,
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
    });
    const { state, nonce, verifier, returnTo } = payload;
    if (
      typeof state !== 'string' ||
      typeof nonce !== 'string' ||
      typeof verifier !== 'string' ||
      typeof returnTo !== 'string'
    ) {
      return null;
    }
    return { state, nonce, verifier, returnTo };
  } catch {
    return null;
  }
}
