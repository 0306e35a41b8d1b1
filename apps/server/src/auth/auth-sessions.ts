import type { AuthTokenResponse } from '@riffscribe/core';
import type { Database } from '../db/database.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import { SESSION_TTL_SECONDS } from './auth-constants.js';
import { liveRoleCache } from './live-role-cache.js';
import { newSessionSecret, sessionIdFor, SessionsRepository } from './sessions.repository.js';
import { ACCESS_TOKEN_TTL_SECONDS, accessTokenKey, issueAccessToken } from './tokens.js';

/** Ended sessions are kept this long (for support questions) before housekeeping deletes them. */
const KEEP_ENDED_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Sign-in sessions: the long-lived `rs_session` cookie (a random secret; only its sha256 is
 * stored) that the web app trades for short-lived access tokens.
 */
export class AuthSessions {
  private readonly sessions: SessionsRepository;
  private readonly key: Uint8Array;

  constructor(
    database: Database,
    private readonly users: UsersRepository,
    private readonly config: { secret: string; publicUrl: string },
  ) {
    this.sessions = new SessionsRepository(database.db);
    this.key = accessTokenKey(config.secret);
  }

  /** Opens a 30-day session for a user; returns the cookie secret (never stored) and its expiry. */
  async start(userId: string, now = new Date()): Promise<{ secret: string; expiresAt: Date }> {
    const secret = newSessionSecret();
    const expiresAt = new Date(now.getTime() + SESSION_TTL_SECONDS * 1000);
    await this.sessions.insert({ id: sessionIdFor(secret), userId, expiresAt });
    await this.sessions.deleteEndedBefore(new Date(now.getTime() - KEEP_ENDED_MS));
    return { secret, expiresAt };
  }

  /**
   * A fresh access token for a live session whose user still exists, or null. The role comes
   * from the database each time, so a role change applies at the next renewal.
   */
  async renew(secret: string | undefined, now = new Date()): Promise<AuthTokenResponse | null> {
    if (secret === undefined || secret === '') return null;
    const session = await this.sessions.findLive(sessionIdFor(secret), now);
    if (!session) return null;
    const user = await this.users.findById(session.userId);
    if (!user) return null;
    await this.sessions.touch(session.id, now);
    const accessToken = await issueAccessToken(this.key, this.config.publicUrl, {
      uid: user.uid,
      email: user.email,
      role: user.role,
      sid: session.id,
    });
    return {
      accessToken,
      expiresIn: ACCESS_TOKEN_TTL_SECONDS,
      user: { uid: user.uid, email: user.email, handle: user.handle, role: user.role },
    };
  }

  /** Revokes the session behind a cookie secret, if any; ending twice is harmless. */
  async end(secret: string | undefined, now = new Date()): Promise<void> {
    if (secret === undefined || secret === '') return;
    const sid = sessionIdFor(secret);
    await this.sessions.revoke(sid, now);
    liveRoleCache.forgetSession(sid);
  }
}
