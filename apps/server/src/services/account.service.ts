import { randomUUID } from 'node:crypto';
import type { Role } from '@riffscribe/core';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { conflict } from '../errors.js';
import { CreditsRepository } from '../repositories/credits.repository.js';
import { UsersRepository, type User } from '../repositories/users.repository.js';

/** What a verified ID token tells us about the person signing in. */
export interface SignInIdentity {
  issuer: string;
  subject: string;
  email: string;
  name: string | null;
}

/** A handle base from a name or e-mail: lower-case letters, digits and underscores, 3..20 long. */
export function handleBase(email: string, name: string | null): string {
  const source = email.split('@')[0] ?? name ?? 'player';
  const cleaned = source
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 20);
  return cleaned.length >= 3 ? cleaned : `${cleaned || 'player'}_gtr`.slice(0, 20);
}

/** Users as the rest of the server sees them: sign-in, role seeding and the sign-up grant. */
export class AccountService {
  readonly users: UsersRepository;
  private readonly credits = new CreditsRepository();

  constructor(
    private readonly database: Database,
    private readonly config: Pick<Config, 'adminEmails' | 'pilotEmails' | 'signupCredits'>,
  ) {
    this.users = new UsersRepository(database.db);
  }

  /** The role the seed lists give an e-mail address, if any. */
  seededRole(email: string): Role | null {
    const e = email.toLowerCase();
    if (this.config.adminEmails.includes(e)) return 'admin';
    if (this.config.pilotEmails.includes(e)) return 'pilot';
    return null;
  }

  /**
   * Finds or creates the user for a verified identity. A new user gets the sign-up grant once;
   * a seeded e-mail is promoted on every sign-in (never demoted: the admin command decides that).
   */
  async signIn(identity: SignInIdentity): Promise<User> {
    const existing = await this.users.findByIdentity(identity.issuer, identity.subject);
    if (existing) return this.refresh(existing, identity);
    const sameEmail = await this.users.findByEmail(identity.email);
    if (sameEmail) {
      throw conflict('This e-mail address is already linked to another sign-in account.');
    }
    try {
      return await this.create(identity);
    } catch (error) {
      // Two first sign-ins at once: the other one created the user.
      const raced = await this.users.findByIdentity(identity.issuer, identity.subject);
      if (raced) return raced;
      throw error;
    }
  }

  private async refresh(user: User, identity: SignInIdentity): Promise<User> {
    const seeded = this.seededRole(identity.email);
    const promote = seeded !== null && rank(seeded) > rank(user.role);
    if (user.email !== identity.email.toLowerCase() || (identity.name ?? null) !== user.name) {
      await this.users.updateProfile(user.uid, { email: identity.email, name: identity.name });
    }
    if (promote) await this.users.setRole(user.uid, seeded);
    return (await this.users.findById(user.uid)) ?? user;
  }

  private async create(identity: SignInIdentity): Promise<User> {
    const handle = await this.uniqueHandle(handleBase(identity.email, identity.name));
    const uid = randomUUID();
    return this.database.db.transaction().execute(async (trx) => {
      const user = await this.users.insert(trx, {
        uid,
        email: identity.email,
        name: identity.name,
        handle,
        role: this.seededRole(identity.email) ?? 'user',
        issuer: identity.issuer,
        subject: identity.subject,
      });
      await this.credits.openAccount(trx, uid);
      const { creator, view } = this.config.signupCredits;
      if (creator > 0) {
        await this.credits.grant(trx, {
          userId: uid,
          kind: 'creator',
          amount: creator,
          reason: 'signup',
          ref: 'signup',
        });
      }
      if (view > 0) {
        await this.credits.grant(trx, {
          userId: uid,
          kind: 'view',
          amount: view,
          reason: 'signup',
          ref: 'signup',
        });
      }
      return user;
    });
  }

  private async uniqueHandle(base: string): Promise<string> {
    if (!(await this.users.handleExists(base))) return base;
    for (let n = 2; n < 1000; n++) {
      const candidate = `${base}${n}`;
      if (!(await this.users.handleExists(candidate))) return candidate;
    }
    return `${base}_${randomUUID().slice(0, 8)}`;
  }
}

function rank(role: Role): number {
  return role === 'admin' ? 2 : role === 'pilot' ? 1 : 0;
}
