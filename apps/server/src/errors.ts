/**
 * One error model: expected failures are AppErrors with a code and an HTTP status, mapped to
 * `{ error }` JSON in one place (app.ts). Anything else is a fault: logged, answered with 500 and
 * a generic sentence, never a stack trace.
 */
export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'payment_required'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'unprocessable'
  | 'rate_limited'
  | 'unavailable';

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  rate_limited: 429,
  unavailable: 503,
};

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = STATUS[code];
  }
}

export const badRequest = (message: string) => new AppError('bad_request', message);
export const unauthorized = (message = 'Please sign in with the identity provider to continue.') =>
  new AppError('unauthorized', message);
export const paymentRequired = (message: string) => new AppError('payment_required', message);
export const forbidden = (message = 'You are not allowed to do that.') =>
  new AppError('forbidden', message);
export const notFound = (message = 'Not found.') => new AppError('not_found', message);
export const conflict = (message: string) => new AppError('conflict', message);
export const payloadTooLarge = (message: string) => new AppError('payload_too_large', message);
export const unsupportedMediaType = (message: string) =>
  new AppError('unsupported_media_type', message);

/** Well-formed input that cannot be done (a re-fingering no fingering satisfies). */
export const unprocessable = (message: string) => new AppError('unprocessable', message);
export const serviceUnavailable = (message: string) => new AppError('unavailable', message);

export const JOB_NOT_FOUND = 'Job not found.';

/** PostgreSQL SQLSTATE classes and codes that mean "the database is not there right now". */
const OUTAGE_CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  // The database dropped under the server, or gone from the start.
  '57P04',
  '3D000',
  // The server's role no longer allowed in (login revoked, role dropped, password changed).
  '28000',
  '28P01',
  '53300',
  // Up but unable to store anything: a read-only server or transaction, a full disk, an I/O fault.
  '25006',
  '53100',
  '58030',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);
const OUTAGE_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

/**
 * Whether `error` says the database could not be reached (a server down or restarting, a cut
 * connection, a full pool) or cannot store anything right now (read-only, disk full, I/O fault),
 * as opposed to a fault in a query: the first is a 503 the client may
 * retry, the second a 500.
 */
export function isDatabaseOutage(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('08') || OUTAGE_CODES.has(code))) return true;
    if (OUTAGE_MESSAGES.some((m) => m.test(e instanceof Error ? e.message : ''))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
