import type { CreditBalances, CreditKind } from '@riffscribe/core';
import type { Database } from '../db/database.js';
import {
  CreditsRepository,
  InsufficientCreditsError,
  type CreditMovement,
} from '../repositories/credits.repository.js';

export type SpendOutcome = 'spent' | 'already' | 'insufficient';

/** Credit spends and grants, each in a transaction of its own. */
export class CreditsService {
  readonly repo = new CreditsRepository();

  constructor(private readonly database: Database) {}

  async spend(m: CreditMovement): Promise<SpendOutcome> {
    try {
      return await this.database.db.transaction().execute((trx) => this.repo.spend(trx, m));
    } catch (error) {
      if (error instanceof InsufficientCreditsError) return 'insufficient';
      throw error;
    }
  }

  grant(m: CreditMovement): Promise<'granted' | 'already'> {
    return this.database.db.transaction().execute((trx) => this.repo.grant(trx, m));
  }

  balances(userId: string): Promise<CreditBalances> {
    return this.repo.balances(this.database.db, userId);
  }

  remaining(userId: string, kind: CreditKind): Promise<number> {
    return this.balances(userId).then((b) => b[kind]);
  }
}
