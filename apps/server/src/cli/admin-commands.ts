import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { CREDIT_KINDS, ROLES, type CreditKind, type Role } from '@riffscribe/core';
import type { Database } from '../db/database.js';
import { CreditsRepository } from '../repositories/credits.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';

export const USAGE = `Riffscribe admin

  npm run admin -- show <email>                      role, handle and credit balances
  npm run admin -- set-role <email> <admin|pilot|user>
  npm run admin -- grant <email> <creator|view> <count> [--note TEXT]
  npm run admin -- set-balance <email> <creator|view> <count> --note TEXT

Uses the same database as the server (DATABASE_URL, else the embedded one in DATA_DIR). While
the server runs on the embedded database, the command goes through the server (DATA_DIR/admin.sock).`;

/** A mistake in the command line: printed with exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

async function withUser(database: Database, email: string | undefined) {
  if (!email) throw new UsageError('An e-mail address is required.');
  const user = await new UsersRepository(database.db).findByEmail(email);
  if (!user) {
    throw new UsageError(
      `No user with the e-mail ${email} has signed in yet. ` +
        'To give a role before the first sign-in, list the address in ADMIN_EMAILS or PILOT_EMAILS.',
    );
  }
  return user;
}

export function parseCommandLine(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { note: { type: 'string' } },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${USAGE}`);
  }
}

function creditKind(kind: string | undefined): CreditKind {
  if (!kind || !(CREDIT_KINDS as readonly string[]).includes(kind)) {
    throw new UsageError(`The credit kind must be one of ${CREDIT_KINDS.join(', ')}.`);
  }
  return kind as CreditKind;
}

/** Runs one admin command on `database`; returns what to print. Throws UsageError for bad input. */
export async function runAdminCommand(
  database: Database,
  argv: readonly string[],
): Promise<string> {
  const { positionals, values } = parseCommandLine(argv);
  const [command, email, a, b] = positionals;
  if (!command || command === 'help') return USAGE;
  const credits = new CreditsRepository();
  switch (command) {
    case 'show': {
      const user = await withUser(database, email);
      const balances = await credits.balances(database.db, user.uid);
      return `${user.email} @${user.handle} role=${user.role} creator=${balances.creator} view=${balances.view}`;
    }
    case 'set-role': {
      const user = await withUser(database, email);
      if (!a || !(ROLES as readonly string[]).includes(a)) {
        throw new UsageError(`The role must be one of ${ROLES.join(', ')}.`);
      }
      await new UsersRepository(database.db).setRole(user.uid, a as Role);
      return `${user.email} is now ${a}. It applies at the next token renewal (within 10 minutes).`;
    }
    case 'grant': {
      const user = await withUser(database, email);
      const kind = creditKind(a);
      const count = Number(b);
      if (!Number.isInteger(count) || count <= 0 || count > 100_000) {
        throw new UsageError('The count must be a whole number from 1 to 100000.');
      }
      const ref = `grant:${randomUUID()}${values.note ? `:${values.note.slice(0, 80)}` : ''}`;
      await database.db
        .transaction()
        .execute((trx) =>
          credits.grant(trx, { userId: user.uid, kind, amount: count, reason: 'admin_grant', ref }),
        );
      const balances = await credits.balances(database.db, user.uid);
      return `Granted ${count} ${kind} credits to ${user.email}: creator=${balances.creator} view=${balances.view}`;
    }
    case 'set-balance': {
      const user = await withUser(database, email);
      const kind = creditKind(a);
      const count = Number(b);
      if (b === undefined || !Number.isInteger(count) || count < 0 || count > 1_000_000) {
        throw new UsageError('The balance must be a whole number from 0 to 1000000.');
      }
      const note = values.note?.trim();
      if (!note) throw new UsageError('Say why with --note TEXT (kept in the ledger).');
      const ref = `set:${randomUUID()}:cli: ${note.slice(0, 200)}`;
      const { before } = await database.db.transaction().execute((trx) =>
        credits.setBalance(trx, {
          userId: user.uid,
          kind,
          target: count,
          reason: 'admin_set',
          ref,
        }),
      );
      const balances = await credits.balances(database.db, user.uid);
      return `Set ${user.email}'s ${kind} credits from ${before} to ${count}: creator=${balances.creator} view=${balances.view}`;
    }
    default:
      throw new UsageError(`Unknown command "${command}".\n\n${USAGE}`);
  }
}
