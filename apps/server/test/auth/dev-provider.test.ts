import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createMemoryAdapter } from '../../src/auth/dev-provider-adapter.js';
import { deriveSigningJwk } from '../../src/auth/dev-provider-keys.js';
import { createDevProvider, type DevProviderConfig } from '../../src/auth/dev-provider.js';
import { INVALID_EMAIL, validateDevSignIn } from '../../src/auth/dev-sign-in-form.js';
import {
  openTransaction,
  sealTransaction,
  transactionKey,
} from '../../src/auth/transaction-cookie.js';

const SECRET = 'a-test-secret-that-is-long-enough-for-hkdf-0001';
const log = pino({ enabled: false });

function config(nodeEnv: string): DevProviderConfig {
  return {
    nodeEnv,
    publicUrl: 'http://127.0.0.1:3999',
    secret: SECRET,
    oidc: { issuer: null, clientId: 'riffscribe-dev', clientSecret: SECRET.slice(0, 32) },
    trustProxy: false,
  };
}

describe('the development provider factory', () => {
  it('refuses to start in production, with a sentence that says why and what to do', async () => {
    await expect(createDevProvider(config('production'), log)).rejects.toThrow(
      /cannot run when NODE_ENV=production.*OIDC_ISSUER/s,
    );
  });

  it('starts otherwise, with its issuer under /oidc', async () => {
    const dev = await createDevProvider(config('development'), log);
    expect(dev.issuer).toBe('http://127.0.0.1:3999/oidc');
    expect(dev.provider.issuer).toBe(dev.issuer);
    expect(dev.interactionPath('abc')).toBe('/oidc/interaction/abc');
  });
});

describe('the development provider signing key', () => {
  it('is the same key after a restart (derived from the server secret)', async () => {
    const first = await deriveSigningJwk(SECRET);
    const again = await deriveSigningJwk(SECRET);
    expect(again).toEqual(first);
    expect(first).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    const other = await deriveSigningJwk(`${SECRET}-other`);
    expect(other.kid).not.toBe(first.kid);
  });
});

describe('the development sign-in form', () => {
  it('lower-cases a valid e-mail and trims both fields', () => {
    expect(validateDevSignIn({ email: ' Ana@Example.COM ', name: ' Ana ' })).toEqual({
      ok: true,
      value: { email: 'ana@example.com', name: 'Ana' },
    });
  });

  for (const email of [
    '',
    'ana',
    'ana@',
    '@example.com',
    'ana@example',
    'a b@example.com',
    'ana@@example.com',
  ]) {
    it(`refuses the e-mail ${JSON.stringify(email)}`, () => {
      const result = validateDevSignIn({ email, name: 'Ana' });
      expect(result).toEqual({ ok: false, errors: { email: INVALID_EMAIL } });
    });
  }

  it('refuses an empty or overlong name', () => {
    expect(validateDevSignIn({ email: 'a@b.co', name: ' ' }).ok).toBe(false);
    expect(validateDevSignIn({ email: 'a@b.co', name: 'x'.repeat(81) }).ok).toBe(false);
  });
});

describe('the sign-in transaction cookie', () => {
  const key = transactionKey(SECRET);
  const tx = { state: 's', nonce: 'n', verifier: 'v'.repeat(43), returnTo: '/x' };

  it('round-trips', async () => {
    expect(await openTransaction(key, await sealTransaction(key, tx))).toEqual(tx);
  });

  it('is refused after 10 minutes, under another key, or when altered', async () => {
    const elevenMinutesAgo = Math.floor(Date.now() / 1000) - 11 * 60;
    expect(await openTransaction(key, await sealTransaction(key, tx, elevenMinutesAgo))).toBeNull();
    const sealed = await sealTransaction(key, tx);
    expect(await openTransaction(transactionKey(`${SECRET}-other`), sealed)).toBeNull();
    expect(await openTransaction(key, `${sealed.slice(0, -2)}AA`)).toBeNull();
    expect(await openTransaction(key, 'garbage')).toBeNull();
  });
});

describe('the development provider storage', () => {
  it('finds, consumes, expires and revokes by grant', async () => {
    let now = 1_000_000;
    const Adapter = createMemoryAdapter(() => now);
    const codes = new Adapter('AuthorizationCode');
    const sessions = new Adapter('Session');
    await codes.upsert('c1', { grantId: 'g1', accountId: 'a' }, 60);
    await sessions.upsert('s1', { uid: 'u1' }, 60);
    expect(await codes.find('c1')).toMatchObject({ accountId: 'a' });
    expect(await sessions.find('c1')).toBeUndefined();
    expect(await sessions.findByUid('u1')).toMatchObject({ uid: 'u1' });
    await codes.consume('c1');
    expect((await codes.find('c1'))?.consumed).toBeTypeOf('number');
    await codes.revokeByGrantId('g1');
    expect(await codes.find('c1')).toBeUndefined();
    now += 61_000;
    expect(await sessions.find('s1')).toBeUndefined();
  });
});
