import { expect } from 'vitest';
import type { AuthTokenResponse } from '@riffscribe/core';
import { CookieJar } from './cookie-jar.js';

/** The CSRF header the web app sends with POST /api/auth/token and /api/auth/logout. */
export const CSRF_HEADERS = { 'x-requested-with': 'riffscribe' };

export interface Person {
  email: string;
  name: string;
}

interface Server {
  url: string;
}

/** The absolute URL a redirect points to. */
export function location(response: Response, from: string): string {
  const value = response.headers.get('location');
  if (value === null) throw new Error(`no Location on ${String(response.status)} from ${from}`);
  return new URL(value, from).href;
}

/** GET /api/auth/login; returns the authorization URL it redirects to. */
export async function startLogin(
  server: Server,
  jar: CookieJar,
  returnTo?: string,
): Promise<string> {
  const query = returnTo === undefined ? '' : `?returnTo=${encodeURIComponent(returnTo)}`;
  const url = `${server.url}/api/auth/login${query}`;
  const response = await jar.fetch(url);
  expect(response.status).toBe(302);
  return location(response, url);
}

/**
 * Follows provider redirects from `url` (without fetching the stop URL) until `stop` says so.
 * Returns the URL it stopped at.
 */
export async function followUntil(
  jar: CookieJar,
  url: string,
  stop: (next: URL) => boolean,
): Promise<string> {
  let current = url;
  for (let hop = 0; hop < 10; hop++) {
    if (stop(new URL(current))) return current;
    const response = await jar.fetch(current);
    if (response.status < 300 || response.status >= 400) {
      throw new Error(
        `expected a redirect from ${current}, got ${String(response.status)}: ${await response.text()}`,
      );
    }
    current = location(response, current);
  }
  throw new Error(`too many redirects from ${url}`);
}

const isSignInPage = (u: URL) => u.pathname.startsWith('/oidc/interaction/');
const isCallback = (u: URL) => u.pathname === '/api/auth/callback';

/** From an authorization URL to the development sign-in page: its URL and HTML. */
export async function openSignInPage(
  jar: CookieJar,
  authorizationUrl: string,
): Promise<{ pageUrl: string; html: string; response: Response }> {
  const pageUrl = await followUntil(jar, authorizationUrl, isSignInPage);
  const response = await jar.fetch(pageUrl);
  return { pageUrl, html: await response.text(), response };
}

/** POSTs the sign-in form (or a cancel) like a browser does. */
export function submitSignInForm(
  jar: CookieJar,
  pageUrl: string,
  fields: Record<string, string>,
): Promise<Response> {
  return jar.fetch(pageUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
}

/**
 * Plays the provider part of a sign-in: authorization URL -> sign-in page -> form -> back through
 * the provider. Returns the callback URL (code, state, iss) without calling it.
 */
export async function completeProvider(
  jar: CookieJar,
  authorizationUrl: string,
  person: Person,
): Promise<string> {
  const { pageUrl, response } = await openSignInPage(jar, authorizationUrl);
  expect(response.status).toBe(200);
  const posted = await submitSignInForm(jar, pageUrl, { ...person, action: 'sign-in' });
  expect(posted.status).toBe(303);
  return followUntil(jar, location(posted, pageUrl), isCallback);
}

/** POST /api/auth/token with the jar's session cookie. */
export function renewToken(
  server: Server,
  jar: CookieJar,
  headers = CSRF_HEADERS,
): Promise<Response> {
  return jar.fetch(`${server.url}/api/auth/token`, { method: 'POST', headers });
}

export interface SignedIn {
  jar: CookieJar;
  callback: Response;
  token: AuthTokenResponse;
}

/** A whole sign-in in a fresh (or given) browser, ending with a first access token. */
export async function signIn(
  server: Server,
  person: Person,
  options: { jar?: CookieJar; returnTo?: string } = {},
): Promise<SignedIn> {
  const jar = options.jar ?? new CookieJar();
  const authorizationUrl = await startLogin(server, jar, options.returnTo);
  const callbackUrl = await completeProvider(jar, authorizationUrl, person);
  const callback = await jar.fetch(callbackUrl);
  expect(callback.status, await callback.clone().text()).toBe(302);
  const renewed = await renewToken(server, jar);
  expect(renewed.status).toBe(200);
  return { jar, callback, token: (await renewed.json()) as AuthTokenResponse };
}

/** GET /api/me with a bearer token. */
export function me(server: Server, token: string): Promise<Response> {
  return fetch(`${server.url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
}
