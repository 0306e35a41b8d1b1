import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

export interface UpgradeRequest {
  id: string;
  message: string;
  status: 'pending' | 'approved' | 'rejected';
  createdAt: Date;
}

/** Pro upgrade requests; the database allows one pending request per user. */
export class UpgradeRequestsRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async latest(userId: string): Promise<UpgradeRequest | null> {
    const row = await this.db
      .selectFrom('upgrade_requests')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row
      ? {
          id: row.id,
          message: row.message,
          status: row.status as UpgradeRequest['status'],
          createdAt: row.created_at,
        }
      : null;
  }

  /** Inserts a pending request; returns false when one is already pending. */
  async create(id: string, userId: string, message: string): Promise<boolean> {
    const row = await this.db
      .insertInto('upgrade_requests')
      .values({ id, user_id: userId, message, status: 'pending' })
      .onConflict((oc) => oc.column('user_id').where('status', '=', 'pending').doNothing())
      .returning('id')
      .executeTakeFirst();
    return row !== undefined;
  }
}
