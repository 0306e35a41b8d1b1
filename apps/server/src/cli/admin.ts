import path from 'node:path';
import { parseArgs } from 'node:util';
import { CREDIT_KINDS, ROLES, type CreditKind, type Role } from '@riffscribe/core';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../config.js';
import { openDatabase, type Database } from '../db/database.js';
import { CreditsRepository } from '../repositories/credits.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';

const USAGE = `Riffscribe admin

  npm run admin -- show <email>                      role, handle and credit balances
  npm run admin -- set-role <email> <admin|pilot|user>
  npm run admin -- grant <email> <creator|view> <count> [--note TEXT]

Uses the same database as the server (DATABASE_URL, else the embedded one in DATA_DIR;
stop the server first when it uses the embedded database).`;

class UsageError extends Error {}

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

function parseCommandLine(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: { note: { type: 'string' } },
  });
}

async function run(argv: string[]): Promise<string> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${USAGE}`);
  }
  const { positionals, values } = parsed;
  const [command, email, a, b] = positionals;
  if (!command || command === 'help') return USAGE;
  const config = loadConfig();
  const database = await openDatabase(
    config.databaseUrl
      ? { driver: 'postgres', url: config.databaseUrl, poolSize: 2 }
      : { driver: 'pglite', dataDir: path.join(config.dataDir, 'pglite') },
  );
  try {
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
        const count = Number(b);
        if (!a || !(CREDIT_KINDS as readonly string[]).includes(a)) {
          throw new UsageError(`The credit kind must be one of ${CREDIT_KINDS.join(', ')}.`);
        }
        if (!Number.isInteger(count) || count <= 0 || count > 100_000) {
          throw new UsageError('The count must be a whole number from 1 to 100000.');
        }
        const ref = `grant:${randomUUID()}${values.note ? `:${values.note.slice(0, 80)}` : ''}`;
        await database.db.transaction().execute((trx) =>
          credits.grant(trx, {
            userId: user.uid,
            kind: a as CreditKind,
            amount: count,
            reason: 'admin_grant',
            ref,
          }),
        );
        const balances = await credits.balances(database.db, user.uid);
        return `Granted ${count} ${a} credits to ${user.email}: creator=${balances.creator} view=${balances.view}`;
      }
      default:
        throw new UsageError(`Unknown command "${command}".\n\n${USAGE}`);
    }
  } finally {
    await database.close();
  }
}

run(process.argv.slice(2)).then(
  (output) => {
    console.log(output);
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
