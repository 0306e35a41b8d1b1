/** Zod's own wording (as opposed to a message written for users in a schema). */
const GENERIC_ZOD = /^(Invalid|Too (small|big)|Unrecognized|Expected)/;

/** One validation problem as the zod type provider reports it. */
export interface ValidationIssue {
  instancePath: string;
  message?: string | undefined;
}

/**
 * A readable sentence from the first validation problem of a request; messages written for users
 * pass unchanged. Used for the routes' schemas (app.ts) and for bodies checked on a worker thread.
 */
export function validationSentenceOf(issues: readonly ValidationIssue[]): string {
  const first = issues[0];
  if (!first) return 'The request is not valid.';
  const where = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const message = first.message ?? 'is not valid';
  if (!GENERIC_ZOD.test(message)) return message;
  return where ? `Invalid ${where}: ${message.toLowerCase()}.` : `Invalid request: ${message}.`;
}
