import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed links for the local storage driver: pure functions, no clock and no I/O (the caller
 * passes "now"). A link is an HMAC-SHA256 over one grant: one object key, one operation, an
 * expiry, and the limits of that operation. Changing any signed field breaks the signature.
 *
 * Query parameters (all values are strings; absent optional fields are left out):
 * `key` object key, `op` get|put, `exp` expiry in unix seconds, `type` content type (put: the only
 * accepted type; get: the type to serve with), `max` largest body in bytes (put), `size` exact body
 * size in bytes (put), `name` download file name (get), `sig` the signature, base64url.
 */

/** Permission to PUT one object, until `expiresAt`. */
export interface PutGrant {
  op: 'put';
  key: string;
  /** Unix time in seconds; the link is refused from this second on. */
  expiresAt: number;
  /** The only content type the body may carry. */
  contentType: string;
  /** Largest accepted body in bytes; null means no limit from the link. */
  maxBytes: number | null;
  /** Exact body size in bytes, when the uploader declared it. */
  exactBytes?: number;
}

/** Permission to GET (and HEAD) one object, until `expiresAt`. */
export interface GetGrant {
  op: 'get';
  key: string;
  /** Unix time in seconds; the link is refused from this second on. */
  expiresAt: number;
  /** File name for a Content-Disposition attachment. */
  downloadName?: string;
  /** Content type to serve instead of the stored one. */
  contentType?: string;
}

export type StorageGrant = PutGrant | GetGrant;

/** Why a link was refused, or the grant it carries. Never thrown: bad input is a result. */
export type GrantVerification =
  | { status: 'ok'; grant: StorageGrant }
  /** Signed by us, but too late; the grant is returned for messages and logs only. */
  | { status: 'expired'; grant: StorageGrant }
  | { status: 'bad_signature' }
  | { status: 'malformed'; reason: string };

const VERSION = 'riffscribe-storage-url-v1';
/** Domain separation: the app secret also signs other things (access tokens). */
const KEY_LABEL = 'riffscribe storage links v1';
const SIGNATURE_BYTES = 32;
const UNSIGNED_INT = /^(0|[1-9][0-9]{0,15})$/;

function signingKey(secret: string): Buffer {
  return createHmac('sha256', secret).update(KEY_LABEL).digest();
}

/** The signed bytes: a JSON array, so no field can run into the next one. */
function canonical(grant: StorageGrant): string {
  const fields =
    grant.op === 'put'
      ? [grant.contentType, grant.maxBytes, grant.exactBytes ?? null, null]
      : [grant.contentType ?? null, null, null, grant.downloadName ?? null];
  return JSON.stringify([VERSION, grant.op, grant.key, grant.expiresAt, ...fields]);
}

function mac(secret: string, grant: StorageGrant): Buffer {
  return createHmac('sha256', signingKey(secret)).update(canonical(grant)).digest();
}

/** The query parameters of a signed link for `grant` (see the module comment for the names). */
export function signGrant(secret: string, grant: StorageGrant): URLSearchParams {
  const query = new URLSearchParams({
    key: grant.key,
    op: grant.op,
    exp: String(grant.expiresAt),
  });
  if (grant.op === 'put') {
    query.set('type', grant.contentType);
    if (grant.maxBytes !== null) query.set('max', String(grant.maxBytes));
    if (grant.exactBytes !== undefined) query.set('size', String(grant.exactBytes));
  } else {
    if (grant.contentType !== undefined) query.set('type', grant.contentType);
    if (grant.downloadName !== undefined) query.set('name', grant.downloadName);
  }
  query.set('sig', mac(secret, grant).toString('base64url'));
  return query;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

/** One value per name: a repeated parameter could mean one thing to us and another to a proxy. */
function single(query: URLSearchParams, name: string): Parsed<string | undefined> {
  const values = query.getAll(name);
  if (values.length > 1) return { ok: false, reason: `repeated ${name}` };
  return { ok: true, value: values[0] };
}

function integer(raw: string | undefined, name: string): Parsed<number | undefined> {
  if (raw === undefined) return { ok: true, value: undefined };
  if (!UNSIGNED_INT.test(raw)) return { ok: false, reason: `${name} is not a whole number` };
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) return { ok: false, reason: `${name} is too large` };
  return { ok: true, value };
}

function parseGrant(query: URLSearchParams): Parsed<StorageGrant> {
  const raw: Record<string, string | undefined> = {};
  for (const name of ['key', 'op', 'exp', 'type', 'max', 'size', 'name']) {
    const field = single(query, name);
    if (!field.ok) return field;
    raw[name] = field.value;
  }
  const { key, op, type, name } = raw;
  if (!key) return { ok: false, reason: 'missing key' };
  const exp = integer(raw.exp, 'exp');
  if (!exp.ok) return exp;
  if (exp.value === undefined) return { ok: false, reason: 'missing exp' };
  const max = integer(raw.max, 'max');
  if (!max.ok) return max;
  const size = integer(raw.size, 'size');
  if (!size.ok) return size;
  if (op === 'put') {
    if (!type) return { ok: false, reason: 'missing type' };
    if (name !== undefined) return { ok: false, reason: 'name on an upload link' };
    return {
      ok: true,
      value: {
        op,
        key,
        expiresAt: exp.value,
        contentType: type,
        maxBytes: max.value ?? null,
        ...(size.value !== undefined ? { exactBytes: size.value } : {}),
      },
    };
  }
  if (op === 'get') {
    if (max.value !== undefined || size.value !== undefined) {
      return { ok: false, reason: 'size limits on a download link' };
    }
    return {
      ok: true,
      value: {
        op,
        key,
        expiresAt: exp.value,
        ...(type !== undefined ? { contentType: type } : {}),
        ...(name !== undefined ? { downloadName: name } : {}),
      },
    };
  }
  return { ok: false, reason: 'op must be get or put' };
}

/**
 * Checks a link's query at `nowSeconds` (unix seconds). The signature is checked before the
 * expiry, so `expired` is only ever reported for a link we really signed. Parameters other than
 * the ones listed in the module comment are ignored.
 */
export function verifyGrant(
  secret: string,
  query: URLSearchParams,
  nowSeconds: number,
): GrantVerification {
  const parsed = parseGrant(query);
  if (!parsed.ok) return { status: 'malformed', reason: parsed.reason };
  const sig = single(query, 'sig');
  if (!sig.ok || !sig.value) return { status: 'bad_signature' };
  const given = Buffer.from(sig.value, 'base64url');
  // Re-encoding rejects non-canonical spellings (stray characters, changed padding bits).
  if (given.length !== SIGNATURE_BYTES || given.toString('base64url') !== sig.value) {
    return { status: 'bad_signature' };
  }
  if (!timingSafeEqual(given, mac(secret, parsed.value))) return { status: 'bad_signature' };
  if (nowSeconds >= parsed.value.expiresAt) return { status: 'expired', grant: parsed.value };
  return { status: 'ok', grant: parsed.value };
}
