/** Where a sign-in lands when no (acceptable) returnTo was given. */
export const DEFAULT_RETURN_TO = '/';

const MAX_RETURN_TO = 2048;
// eslint-disable-next-line no-control-regex -- control characters are what this rejects
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * The path to send the browser to after sign-in: `value` when it is a same-site relative path
 * (`/lesson?jobId=1#bar`), else `/`. This is the open-redirect guard: protocol-relative
 * (`//evil`), backslash tricks (`/\evil`, which browsers read as `//evil`), absolute URLs,
 * control characters (header injection, browsers dropping tabs) and paths that resolve to
 * another origin are all refused. The answer is normalised by the URL parser, so what is checked
 * is what the browser will follow.
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || value === '' || value.length > MAX_RETURN_TO) {
    return DEFAULT_RETURN_TO;
  }
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) {
    return DEFAULT_RETURN_TO;
  }
  if (CONTROL.test(value)) return DEFAULT_RETURN_TO;
  const base = 'http://riffscribe.invalid';
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return DEFAULT_RETURN_TO;
  }
  if (url.origin !== base) return DEFAULT_RETURN_TO;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // After normalisation (`/./` and `/../` removed) the path must still be single-slash relative.
  return path.startsWith('//') ? DEFAULT_RETURN_TO : path;
}
