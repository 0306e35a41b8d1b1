import type { FastifyRequest } from 'fastify';
import { stdSerializers, type LoggerOptions } from 'pino';

/**
 * Log hygiene: no credential ever reaches a log line. Signed storage links carry their signature
 * in the query (`sig`, `X-Amz-Signature`...), the sign-in callback its authorization code,
 * requests their bearer tokens and cookies. So:
 * - request lines keep the path and only the values of query parameters known to be harmless;
 * - headers, tokens, secrets and signed links in logged objects are censored by path;
 * - message strings, string fields and error messages/stacks have credential-looking query
 *   values and bearer tokens blanked, whatever logged them.
 */

const CENSORED = '[redacted]';

/** Query parameters whose values are ids or names, safe to keep in request lines. */
const HARMLESS_QUERY = new Set([
  'jobId',
  'id',
  'requestId',
  'fileName',
  'edit_version',
  'page',
  'pageSize',
  'limit',
  'offset',
  'cursor',
  'sort',
]);

/**
 * The development provider's interaction id is in its paths and is also the value of its
 * interaction cookie: censored like the cookie.
 */
const PROVIDER_INTERACTION = /^(\/oidc\/(?:interaction|auth)\/)[^/?]+/;

/** A request URL for the log: the path, and the query with every unknown value censored. */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  const path = (mark < 0 ? url : url.slice(0, mark)).replace(PROVIDER_INTERACTION, `$1${CENSORED}`);
  if (mark < 0) return path;
  const query = new URLSearchParams(url.slice(mark + 1));
  const kept = [...query.entries()]
    .map(([name, value]) => `${name}=${HARMLESS_QUERY.has(name) ? value : CENSORED}`)
    .join('&');
  return `${path}?${kept}`;
}

const SECRET_QUERY =
  /([?&](?:sig|signature|token|access_token|refresh_token|id_token|code|code_verifier|state|nonce|client_secret|x-amz-[a-z-]+)=)[^&\s"'#<>]+/gi;
const BEARER = /\b(Bearer\s+)[A-Za-z0-9._~+/-]+=*/gi;

/** Free text with credential-looking query values and bearer tokens blanked. */
export function scrubText(text: string): string {
  return text.replace(SECRET_QUERY, `$1${CENSORED}`).replace(BEARER, `$1${CENSORED}`);
}

/** Pino's error serializer, then message and stack scrubbed (errors can quote a signed link). */
function serializeError(error: Error): Record<string, unknown> {
  const out: Record<string, unknown> = { ...stdSerializers.err(error) };
  for (const key of ['message', 'stack'] as const) {
    const value = out[key];
    if (typeof value === 'string') out[key] = scrubText(value);
  }
  return out;
}

/** The request as a log line shows it: never headers, never a credential in the query. */
export function serializeRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket.remotePort,
  };
}

/** Top-level string fields of a logged object, scrubbed; the caller's object is not changed. */
function scrubFields(value: unknown): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  if (value instanceof Error) return value;
  let copy: Record<string, unknown> | null = null;
  for (const [key, field] of Object.entries(value)) {
    if (typeof field !== 'string') continue;
    const clean = scrubText(field);
    if (clean === field) continue;
    copy ??= { ...(value as Record<string, unknown>) };
    copy[key] = clean;
  }
  return copy ?? value;
}

/** Paths of logged objects that are credentials whatever their value. */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  'authorization',
  'cookie',
  '*.authorization',
  '*.cookie',
  'password',
  '*.password',
  'secret',
  '*.secret',
  'token',
  '*.token',
  'accessToken',
  '*.accessToken',
  'access_token',
  '*.access_token',
  'refresh_token',
  '*.refresh_token',
  'id_token',
  '*.id_token',
  'clientSecret',
  '*.clientSecret',
  'client_secret',
  '*.client_secret',
  'signedUrl',
  '*.signedUrl',
  'downloadUrl',
  '*.downloadUrl',
  'upload_url',
  '*.upload_url',
];

/** Pino options for every logger of the server and the workers. */
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: CENSORED },
    serializers: { req: serializeRequest, err: serializeError },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map(scrubFields) as Parameters<typeof method>);
      },
    },
  };
}
