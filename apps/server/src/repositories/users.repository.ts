import { parseRole, type Role } from '@riffscribe/core';
import type { Kysely, Selectable } from 'kysely';
import type { DB, UsersTable } from '../db/schema.js';
import { liveRoleCache } from '../auth/live-role-cache.js';

export interface User {
  uid: string;
  email: string;
  name: string | null;
  handle: string;
  role: Role;
  createdAt: Date;
}

function toUser(row: Selectable<UsersTable>): User {
  return {
    uid: row.id,
    email: row.email,
    name: row.name,
    handle: row.handle,
    role: parseRole(row.role),
    createdAt: row.created_at,
  };
}

/** Users table access. Email addresses are stored lower-cased. */
export class UsersRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async findById(uid: string): Promise<User | null> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', uid)
      .executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async findByHandle(handle: string): Promise<User | null> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('handle', '=', handle)
      .executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async findByEmail(email: string): Promise<User | null> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email.toLowerCase())
      .executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async findByIdentity(issuer: string, subject: string): Promise<User | null> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('oidc_issuer', '=', issuer)
      .where('oidc_subject', '=', subject)
      .executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async handleExists(handle: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('handle', '=', handle)
      .executeTakeFirst();
    return row !== undefined;
  }

  async insert(
    trx: Kysely<DB>,
    user: {
      uid: string;
      email: string;
      name: string | null;
      handle: string;
      role: Role;
      issuer: string;
      subject: string;
    },
  ): Promise<User> {
    const row = await trx
      .insertInto('users')
      .values({
        id: user.uid,
        email: user.email.toLowerCase(),
        name: user.name,
        handle: user.handle,
        role: user.role,
        oidc_issuer: user.issuer,
        oidc_subject: user.subject,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toUser(row);
  }

  async updateProfile(uid: string, fields: { email: string; name: string | null }): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ email: fields.email.toLowerCase(), name: fields.name, updated_at: new Date() })
      .where('id', '=', uid)
      .execute();
  }

  async setRole(uid: string, role: Role): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ role, updated_at: new Date() })
      .where('id', '=', uid)
      .execute();
    liveRoleCache.clear();
  }
}
