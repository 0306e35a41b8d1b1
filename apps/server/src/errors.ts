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

export const JOB_NOT_FOUND = 'Job not found.';
