import type { ApiError, AuthTokenResponse, SessionUser } from '@riffscribe/core';

export type { SessionUser };

/**
 * Holds the short-lived access token in memory only and renews it through the HttpOnly session
 * cookie (POST /api/auth/token) shortly before it expires.
 */
class Session {
  private token: string | null = null;
  private expiresAt = 0;
  private pending: Promise<SessionUser | null> | null = null;
  user: SessionUser | null = null;

  /** Renews the token when it is missing or about to expire; null when signed out. */
  renew(force = false): Promise<SessionUser | null> {
    if (!force && this.token && Date.now() < this.expiresAt - 30_000) {
      return Promise.resolve(this.user);
    }
    // Not signed in in this browser (the server sets this readable hint with the session):
    // nothing to renew, and no 401 logged on every page a visitor opens.
    if (!document.cookie.split(/;\s*/).some((c) => c.startsWith('rs_signed_in='))) {
      this.clear();
      return Promise.resolve(null);
    }
    this.pending ??= fetch('/api/auth/token', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'x-requested-with': 'riffscribe' },
    })
      .then(async (res) => {
        if (!res.ok) {
          this.clear();
          return null;
        }
        const body = (await res.json()) as AuthTokenResponse;
        this.token = body.accessToken;
        this.expiresAt = Date.now() + body.expiresIn * 1000;
        this.user = body.user;
        return body.user;
      })
      .finally(() => {
        this.pending = null;
      });
    return this.pending;
  }

  private clear() {
    this.token = null;
    this.expiresAt = 0;
    this.user = null;
  }

  async signOut(): Promise<void> {
    await fetch('/api/auth/logout', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'x-requested-with': 'riffscribe' },
    });
    this.clear();
  }

  /**
   * fetch for a streamed /api answer (server-sent events): adds the bearer token, which
   * EventSource cannot send; the caller reads the body. Error answers reject as ApiRequestError.
   */
  async stream(path: string, signal: AbortSignal): Promise<Response> {
    await this.renew();
    const headers = new Headers({ accept: 'text/event-stream' });
    if (this.token) headers.set('authorization', `Bearer ${this.token}`);
    const res = await fetch(path, { headers, signal, cache: 'no-store' });
    if (!res.ok) {
      await res.body?.cancel();
      throw new ApiRequestError(res.status, `Request failed (${res.status}).`);
    }
    return res;
  }

  /** fetch for /api calls: adds the bearer token and turns error answers into Error(message). */
  async api<T>(path: string, init: RequestInit = {}): Promise<T> {
    const res = await this.fetchOk(path, init);
    return (res.status === 204 ? undefined : await res.json()) as T;
  }

  /**
   * A file from /api (an attachment): its bytes and the name the server gave it
   * (Content-Disposition, its UTF-8 `filename*` first). Error answers reject as ApiRequestError.
   */
  async file(path: string): Promise<{ blob: Blob; name: string | null }> {
    const res = await this.fetchOk(path, {});
    return { blob: await res.blob(), name: attachmentName(res.headers.get('content-disposition')) };
  }

  private async fetchOk(path: string, init: RequestInit): Promise<Response> {
    await this.renew();
    const headers = new Headers(init.headers);
    if (this.token) headers.set('authorization', `Bearer ${this.token}`);
    const res = await fetch(path, { ...init, headers });
    if (res.ok) return res;
    const body = (await res.json().catch(() => null)) as
      (Partial<ApiError> & { message?: unknown }) | null;
    const serverText =
      typeof body?.error === 'string' && body.error
        ? body.error
        : typeof body?.message === 'string' && body.message
          ? body.message
          : null;
    throw new ApiRequestError(
      res.status,
      serverText ?? `Request failed (${res.status}).`,
      serverText,
      res.headers.get('x-request-id'),
    );
  }
}

/** The file name of a Content-Disposition header: `filename*` (UTF-8) first, else `filename`. */
export function attachmentName(header: string | null): string | null {
  if (!header) return null;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (star) {
    try {
      return decodeURIComponent(star.trim());
    } catch {
      // Fall through to the plain name.
    }
  }
  return /filename="([^"]*)"/i.exec(header)?.[1] ?? null;
}

/** An /api answer with an error status; serverText is the answer's own `error` (or `message`). */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly serverText: string | null = null,
    /** The server's id of the request (x-request-id), shown where the error is. */
    readonly requestId: string | null = null,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

export const session = new Session();

/** The sign-in address; the server redirects to the identity provider and back to returnTo. */
export function signInUrl(returnTo = window.location.pathname + window.location.search): string {
  return `/api/auth/login?returnTo=${encodeURIComponent(returnTo)}`;
}
