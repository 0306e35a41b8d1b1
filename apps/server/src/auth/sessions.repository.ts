import { createHash, randomBytes } from 'node:crypto';
import { parseRole, type Role } from '@riffscribe/core';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** One sign-in session (a browser that signed in); the row never holds the cookie's secret. */
export interface SessionRecord {
  /** sha256 (hex) of the cookie secret; also the `sid` of the access tokens it hands out. */
  id: string;
  userId: string;
  createdAt: Date;
  expiresAt: Date;
  lastUsedAt: Date;
  revokedAt: Date | null;
}

/** A new 256-bit session secret, base64url (43 characters): the `rs_session` cookie's value. */
export function newSessionSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The session id for a cookie secret: sha256 of its text, hex. A database leak reveals no cookie. */
export function sessionIdFor(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** The `sessions` table. Times are Dates; a session is live while not revoked and not expired. */
export class SessionsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async insert(session: { id: string; userId: string; expiresAt: Date }): Promise<void> {
    await this.db
      .insertInto('sessions')
      .values({ id: session.id, user_id: session.userId, expires_at: session.expiresAt })
      .execute();
  }

  /** The session if it is live at `now` (not revoked, expires_at in the future), else null. */
  /**
   * The current role of the user of a live session (one query per authenticated request), or
   * null when the session has ended, was revoked, or belongs to someone else.
   */
  async liveRole(id: string, userId: string, now: Date = new Date()): Promise<Role | null> {
    const row = await this.db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select('u.role')
      .where('s.id', '=', id)
      .where('s.user_id', '=', userId)
      .where('s.revoked_at', 'is', null)
      .where('s.expires_at', '>', now)
      .executeTakeFirst();
    return row ? parseRole(row.role) : null;
  }

  async findLive(id: string, now: Date = new Date()): Promise<SessionRecord | null> {
    const row = await this.db
      .selectFrom('sessions')
      .selectAll()
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!row) return null;
    return {
      id: row.id,
      userId: row.user_id,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      lastUsedAt: row.last_used_at,
      revokedAt: row.revoked_at,
    };
  }

  async touch(id: string, now: Date = new Date()): Promise<void> {
    await this.db.updateTable('sessions').set({ last_used_at: now }).where('id', '=', id).execute();
  }

  /** Revokes a session; revoking twice keeps the first time. True when a live row changed. */
  async revoke(id: string, now: Date = new Date()): Promise<boolean> {
    const result = await this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Deletes rows that expired or were revoked before `before` (housekeeping). */
  async deleteEndedBefore(before: Date): Promise<number> {
    const result = await this.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expires_at', '<', before), eb('revoked_at', '<', before)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
