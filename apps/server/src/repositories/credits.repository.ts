import type { CreditBalances, CreditKind } from '@riffscribe/core';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

/** Why credits moved. (user, kind, reason, ref) is unique, which makes every movement idempotent. */
export type CreditReason =
  'signup' | 'admin_grant' | 'admin_set' | 'job_create' | 'job_refund' | 'job_view' | 'pro_monthly';

export interface CreditMovement {
  userId: string;
  kind: CreditKind;
  /** Positive number of credits. */
  amount: number;
  reason: CreditReason;
  ref: string;
}

/** Thrown inside a transaction when a spend would drive a balance below zero. */
export class InsufficientCreditsError extends Error {
  constructor(readonly kind: CreditKind) {
    super(`Not enough ${kind} credits`);
    this.name = 'InsufficientCreditsError';
  }
}

/**
 * The credit ledger (append-only) and the balances kept in step with it. Every method takes the
 * executor to run on, so a spend can be part of a larger transaction (creating a job).
 * Callers must run spend/grant inside a transaction: the ledger row and the balance change
 * commit together or not at all.
 */
export class CreditsRepository {
  /**
   * Records a spend once per (user, kind, reason, ref). Returns 'already' when that spend was
   * recorded before; throws InsufficientCreditsError when the balance is too low (the caller's
   * transaction must then roll back, which also removes the ledger row written here).
   */
  async spend(trx: Kysely<DB>, m: CreditMovement): Promise<'spent' | 'already'> {
    const inserted = await trx
      .insertInto('credit_ledger')
      .values({ user_id: m.userId, kind: m.kind, delta: -m.amount, reason: m.reason, ref: m.ref })
      .onConflict((oc) => oc.columns(['user_id', 'kind', 'reason', 'ref']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return 'already';
    // The row lock and the re-checked condition keep concurrent spends from overdrawing.
    const updated = await trx
      .updateTable('credit_balances')
      .set({ balance: sql`balance - ${m.amount}` })
      .where('user_id', '=', m.userId)
      .where('kind', '=', m.kind)
      .where('balance', '>=', m.amount)
      .returning('balance')
      .executeTakeFirst();
    if (!updated) throw new InsufficientCreditsError(m.kind);
    return 'spent';
  }

  /** Adds credits once per (user, kind, reason, ref); returns 'already' for a repeat. */
  async grant(trx: Kysely<DB>, m: CreditMovement): Promise<'granted' | 'already'> {
    const inserted = await trx
      .insertInto('credit_ledger')
      .values({ user_id: m.userId, kind: m.kind, delta: m.amount, reason: m.reason, ref: m.ref })
      .onConflict((oc) => oc.columns(['user_id', 'kind', 'reason', 'ref']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return 'already';
    await trx
      .insertInto('credit_balances')
      .values({ user_id: m.userId, kind: m.kind, balance: m.amount })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'kind'])
          .doUpdateSet({ balance: sql`credit_balances.balance + excluded.balance` }),
      )
      .execute();
    return 'granted';
  }

  /**
   * Sets a balance to `target` (0 or more) with one ledger row of the difference, which may be
   * negative: the ledger's sum stays the balance. The balance row is locked for the change, so a
   * spend at the same moment comes before or after it, never in between. Nothing is written when
   * the balance is already `target`.
   */
  async setBalance(
    trx: Kysely<DB>,
    m: Omit<CreditMovement, 'amount'> & { target: number },
  ): Promise<{ before: number; after: number }> {
    if (!Number.isInteger(m.target) || m.target < 0) throw new Error('A balance is 0 or more.');
    await this.openAccount(trx, m.userId);
    const row = await trx
      .selectFrom('credit_balances')
      .select('balance')
      .where('user_id', '=', m.userId)
      .where('kind', '=', m.kind)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const before = row.balance;
    if (before === m.target) return { before, after: before };
    await trx
      .insertInto('credit_ledger')
      .values({
        user_id: m.userId,
        kind: m.kind,
        delta: m.target - before,
        reason: m.reason,
        ref: m.ref,
      })
      .execute();
    await trx
      .updateTable('credit_balances')
      .set({ balance: m.target })
      .where('user_id', '=', m.userId)
      .where('kind', '=', m.kind)
      .execute();
    return { before, after: m.target };
  }

  /** Creates zero balances for a new user so that spends have a row to lock. */
  async openAccount(trx: Kysely<DB>, userId: string): Promise<void> {
    await trx
      .insertInto('credit_balances')
      .values([
        { user_id: userId, kind: 'creator', balance: 0 },
        { user_id: userId, kind: 'view', balance: 0 },
      ])
      .onConflict((oc) => oc.columns(['user_id', 'kind']).doNothing())
      .execute();
  }

  async balances(db: Kysely<DB>, userId: string): Promise<CreditBalances> {
    const rows = await db
      .selectFrom('credit_balances')
      .select(['kind', 'balance'])
      .where('user_id', '=', userId)
      .execute();
    return {
      creator: rows.find((r) => r.kind === 'creator')?.balance ?? 0,
      view: rows.find((r) => r.kind === 'view')?.balance ?? 0,
    };
  }

  /** The sum of the ledger per kind; always equal to the balances. */
  async ledgerSums(db: Kysely<DB>, userId: string): Promise<CreditBalances> {
    const rows = await db
      .selectFrom('credit_ledger')
      .select(['kind', sql<string>`sum(delta)`.as('total')])
      .where('user_id', '=', userId)
      .groupBy('kind')
      .execute();
    const sum = (kind: CreditKind) => Number(rows.find((r) => r.kind === kind)?.total ?? 0);
    return { creator: sum('creator'), view: sum('view') };
  }

  async countMovements(
    db: Kysely<DB>,
    where: { userId: string; kind: CreditKind; reason: CreditReason; ref?: string },
  ): Promise<number> {
    let q = db
      .selectFrom('credit_ledger')
      .select(sql<string>`count(*)`.as('n'))
      .where('user_id', '=', where.userId)
      .where('kind', '=', where.kind)
      .where('reason', '=', where.reason);
    if (where.ref !== undefined) q = q.where('ref', '=', where.ref);
    const row = await q.executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
