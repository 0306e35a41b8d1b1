import { createECDH, hkdfSync } from 'node:crypto';
import { calculateJwkThumbprint } from 'jose';

/** A private signing key as a JSON Web Key (ES256, P-256). */
export type SigningJwk = Record<string, string>;

function derive(secret: string, purpose: string, bytes: number): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'riffscribe', purpose, bytes));
}

/**
 * The development provider's ID-token signing key, derived from the server secret.
 *
 * Deriving it (instead of generating one per start) keeps ID tokens and the published JWKS the
 * same across restarts, at no cost: the secret is already persisted in DATA_DIR. P-256 because a
 * private scalar is just 32 bytes, which HKDF gives directly; the rare value outside the curve
 * order is skipped by deriving again with a counter.
 */
export async function deriveSigningJwk(secret: string): Promise<SigningJwk> {
  for (let attempt = 0; ; attempt++) {
    const d = derive(secret, `dev-provider-signing-v1:${attempt}`, 32);
    const ecdh = createECDH('prime256v1');
    try {
      ecdh.setPrivateKey(d);
    } catch {
      continue;
    }
    // Uncompressed point: 0x04 || x (32 bytes) || y (32 bytes).
    const point = ecdh.getPublicKey();
    const publicJwk = {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    };
    const kid = await calculateJwkThumbprint(publicJwk);
    return { ...publicJwk, d: d.toString('base64url'), alg: 'ES256', use: 'sig', kid };
  }
}

/** The key that signs the provider's own cookies (Koa keygrip), also derived from the secret. */
export function deriveCookieKey(secret: string): string {
  return derive(secret, 'dev-provider-cookies-v1', 32).toString('base64url');
}
