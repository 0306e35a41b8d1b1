import { describe, expect, it } from 'vitest';
import { signGrant, verifyGrant, type GetGrant, type PutGrant } from './signing.js';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
const NOW = 1_800_000_000;

const put: PutGrant = {
  op: 'put',
  key: 'uploads/u1/abc',
  expiresAt: NOW + 900,
  contentType: 'video/mp4',
  maxBytes: 100,
  exactBytes: 42,
};
const get: GetGrant = {
  op: 'get',
  key: 'jobs/j1/video.mp4',
  expiresAt: NOW + 900,
  downloadName: 'My lesson.mp4',
  contentType: 'video/mp4',
};

function withParam(query: URLSearchParams, name: string, value: string): URLSearchParams {
  const copy = new URLSearchParams(query);
  copy.set(name, value);
  return copy;
}

describe('signed storage links', () => {
  it('round-trips a PUT grant and a GET grant', () => {
    expect(verifyGrant(SECRET, signGrant(SECRET, put), NOW)).toEqual({ status: 'ok', grant: put });
    expect(verifyGrant(SECRET, signGrant(SECRET, get), NOW)).toEqual({ status: 'ok', grant: get });
  });

  it('round-trips a grant without optional fields', () => {
    const bare: PutGrant = { ...put, maxBytes: null };
    delete bare.exactBytes;
    const query = signGrant(SECRET, bare);
    expect(query.has('max')).toBe(false);
    expect(query.has('size')).toBe(false);
    expect(verifyGrant(SECRET, query, NOW)).toEqual({ status: 'ok', grant: bare });
  });

  it('reports expiry from the expiry second on, only for genuine links', () => {
    const query = signGrant(SECRET, put);
    expect(verifyGrant(SECRET, query, put.expiresAt - 1).status).toBe('ok');
    expect(verifyGrant(SECRET, query, put.expiresAt)).toEqual({ status: 'expired', grant: put });
    const extended = withParam(query, 'exp', String(put.expiresAt + 3600));
    expect(verifyGrant(SECRET, extended, put.expiresAt)).toEqual({ status: 'bad_signature' });
  });

  it.each([
    ['key', 'uploads/u2/abc'],
    ['op', 'get'],
    ['type', 'text/html'],
    ['max', '1000000'],
    ['size', '43'],
  ])('refuses a link whose %s was changed', (name, value) => {
    const query = withParam(signGrant(SECRET, put), name, value);
    const result = verifyGrant(SECRET, query, NOW);
    // op=get with size limits no longer parses; everything else parses and fails the signature.
    expect(['bad_signature', 'malformed']).toContain(result.status);
    expect(result.status === 'ok').toBe(false);
  });

  it('refuses a removed limit and an added download name', () => {
    const noMax = signGrant(SECRET, put);
    noMax.delete('max');
    expect(verifyGrant(SECRET, noMax, NOW).status).toBe('bad_signature');
    const named = withParam(signGrant(SECRET, get), 'name', 'other.mp4');
    expect(verifyGrant(SECRET, named, NOW).status).toBe('bad_signature');
  });

  it('refuses a link signed with another secret', () => {
    const query = signGrant(`${SECRET}-other`, put);
    expect(verifyGrant(SECRET, query, NOW)).toEqual({ status: 'bad_signature' });
  });

  it('refuses every one-character change of the signature, padding bits included', () => {
    const query = signGrant(SECRET, get);
    const sig = query.get('sig')!;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (const index of [0, 20, sig.length - 1]) {
      for (const c of alphabet) {
        if (c === sig[index]) continue;
        const changed = sig.slice(0, index) + c + sig.slice(index + 1);
        expect(verifyGrant(SECRET, withParam(query, 'sig', changed), NOW).status).toBe(
          'bad_signature',
        );
      }
    }
  });

  /** [what, parameter, new value (null: removed, '+x': appended), verdict] */
  it.each([
    ['a missing signature', 'sig', null, 'bad_signature'],
    ['a short signature', 'sig', 'abc', 'bad_signature'],
    ['a missing key', 'key', null, 'malformed'],
    ['a missing expiry', 'exp', null, 'malformed'],
    ['a fractional expiry', 'exp', '1.5', 'malformed'],
    ['a huge expiry', 'exp', '99999999999999999', 'malformed'],
    ['a negative limit', 'max', '-1', 'malformed'],
    ['an unknown op', 'op', 'delete', 'malformed'],
    ['a repeated key', 'key', '+uploads/u1/abc', 'malformed'],
    ['a name on an upload', 'name', 'x', 'malformed'],
  ] as const)('never throws for %s', (_label, name, value, status) => {
    const query = signGrant(SECRET, put);
    if (value === null) query.delete(name);
    else if (value.startsWith('+')) query.append(name, value.slice(1));
    else query.set(name, value);
    expect(verifyGrant(SECRET, query, NOW).status).toBe(status);
  });

  it('refuses a signature with padding added', () => {
    const query = signGrant(SECRET, put);
    query.set('sig', `${query.get('sig')!}=`);
    expect(verifyGrant(SECRET, query, NOW).status).toBe('bad_signature');
  });

  it('treats an empty query as malformed', () => {
    expect(verifyGrant(SECRET, new URLSearchParams(), NOW).status).toBe('malformed');
  });

  it('ignores parameters it does not know', () => {
    const query = withParam(signGrant(SECRET, get), 'cachebust', '1');
    expect(verifyGrant(SECRET, query, NOW).status).toBe('ok');
  });
});
