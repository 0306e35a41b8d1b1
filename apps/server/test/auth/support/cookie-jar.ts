/**
 * A tiny cookie jar for fetch against one test server (one host): stores Set-Cookie answers,
 * honours Path, Max-Age and Expires, and sends back the cookies whose path matches. Enough to
 * play a browser through the sign-in redirects; not a general RFC 6265 implementation (no
 * domains, no Secure over http checks).
 */
export interface StoredCookie {
  name: string;
  value: string;
  path: string;
  /** Epoch milliseconds; null for a session cookie. */
  expiresAt: number | null;
  attributes: Map<string, string>;
}

/** Parses one Set-Cookie header value. */
export function parseSetCookie(header: string, requestPath: string): StoredCookie {
  const [pair = '', ...rest] = header.split(';');
  const eq = pair.indexOf('=');
  const name = pair.slice(0, eq).trim();
  const value = pair.slice(eq + 1).trim();
  const attributes = new Map<string, string>();
  for (const part of rest) {
    const i = part.indexOf('=');
    const key = (i === -1 ? part : part.slice(0, i)).trim().toLowerCase();
    attributes.set(key, i === -1 ? '' : part.slice(i + 1).trim());
  }
  const defaultPath = requestPath.slice(0, requestPath.lastIndexOf('/')) || '/';
  const path = attributes.get('path') ?? defaultPath;
  let expiresAt: number | null = null;
  const maxAge = attributes.get('max-age');
  const expires = attributes.get('expires');
  if (maxAge !== undefined) expiresAt = Date.now() + Number(maxAge) * 1000;
  else if (expires !== undefined) expiresAt = Date.parse(expires);
  return { name, value, path, expiresAt, attributes };
}

function pathMatches(cookiePath: string, requestPath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath.charAt(cookiePath.length) === '/';
}

export class CookieJar {
  private readonly cookies = new Map<string, StoredCookie>();

  /** Stores every Set-Cookie of a response to `url`. */
  store(url: string, response: Response): void {
    const requestPath = new URL(url).pathname;
    for (const header of response.headers.getSetCookie()) {
      const cookie = parseSetCookie(header, requestPath);
      const key = `${cookie.name};${cookie.path}`;
      if (cookie.expiresAt !== null && cookie.expiresAt <= Date.now()) this.cookies.delete(key);
      else this.cookies.set(key, cookie);
    }
  }

  /** The Cookie header for a request to `url`, or undefined when no cookie applies. */
  header(url: string): string | undefined {
    const path = new URL(url).pathname;
    const now = Date.now();
    const matching = [...this.cookies.values()]
      .filter((c) => (c.expiresAt === null || c.expiresAt > now) && pathMatches(c.path, path))
      .sort((a, b) => b.path.length - a.path.length);
    return matching.length ? matching.map((c) => `${c.name}=${c.value}`).join('; ') : undefined;
  }

  /** The stored cookie with this name (any path), if any. */
  get(name: string): StoredCookie | undefined {
    return [...this.cookies.values()].find((c) => c.name === name);
  }

  /** Puts a cookie back by hand (to replay an old transaction cookie, for instance). */
  set(cookie: StoredCookie): void {
    this.cookies.set(`${cookie.name};${cookie.path}`, cookie);
  }

  delete(name: string): void {
    for (const [key, cookie] of this.cookies) if (cookie.name === name) this.cookies.delete(key);
  }

  names(): string[] {
    return [...this.cookies.values()].map((c) => c.name);
  }

  /** fetch with this jar and manual redirects: cookies go out and come back in. */
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.header(url);
    if (cookie !== undefined) headers.set('cookie', cookie);
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    this.store(url, response);
    return response;
  }
}
