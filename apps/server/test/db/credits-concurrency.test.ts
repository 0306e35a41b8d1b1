import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountService } from '../../src/services/account.service.js';
import { CreditsService } from '../../src/services/credits.service.js';
import {
  openTestDatabase,
  testDatabaseDriver,
  type TestDatabase,
} from '../support/test-database.js';

describe(`credit ledger under concurrency (${testDatabaseDriver()})`, () => {
  let t: TestDatabase;
  let credits: CreditsService;
  let accounts: AccountService;

  beforeAll(async () => {
    t = await openTestDatabase();
    credits = new CreditsService(t.database);
    accounts = new AccountService(t.database, {
      adminEmails: [],
      pilotEmails: [],
      signupCredits: { creator: 0, view: 0 },
    });
  });
  afterAll(() => t.dispose());

  async function userWith(creator: number) {
    const user = await accounts.signIn({
      issuer: 'test',
      subject: randomUUID(),
      email: `c-${randomUUID()}@example.test`,
      name: null,
    });
    if (creator > 0) {
      await credits.grant({
        userId: user.uid,
        kind: 'creator',
        amount: creator,
        reason: 'admin_grant',
        ref: 'setup',
      });
    }
    return user;
  }

  it('200 simultaneous spends against a balance of 100 give exactly 100 successes', async () => {
    const user = await userWith(100);
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, () =>
        credits.spend({
          userId: user.uid,
          kind: 'creator',
          amount: 1,
          reason: 'job_create',
          ref: randomUUID(),
        }),
      ),
    );
    expect(outcomes.filter((o) => o === 'spent')).toHaveLength(100);
    expect(outcomes.filter((o) => o === 'insufficient')).toHaveLength(100);
    const balances = await credits.balances(user.uid);
    const sums = await credits.repo.ledgerSums(t.database.db, user.uid);
    expect(balances.creator).toBe(0);
    expect(sums.creator).toBe(balances.creator);
    expect(
      await credits.repo.countMovements(t.database.db, {
        userId: user.uid,
        kind: 'creator',
        reason: 'job_create',
      }),
    ).toBe(100);
  });

  it('50 concurrent identical spends for one job make one ledger entry', async () => {
    const user = await userWith(10);
    const jobId = randomUUID();
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, () =>
        credits.spend({
          userId: user.uid,
          kind: 'creator',
          amount: 1,
          reason: 'job_create',
          ref: jobId,
        }),
      ),
    );
    expect(outcomes.filter((o) => o === 'spent')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'already')).toHaveLength(49);
    expect(
      await credits.repo.countMovements(t.database.db, {
        userId: user.uid,
        kind: 'creator',
        reason: 'job_create',
        ref: jobId,
      }),
    ).toBe(1);
    const balances = await credits.balances(user.uid);
    expect(balances.creator).toBe(9);
    expect((await credits.repo.ledgerSums(t.database.db, user.uid)).creator).toBe(9);
  });

  it('a refund is recorded once however often it is asked for', async () => {
    const user = await userWith(1);
    const jobId = randomUUID();
    await credits.spend({
      userId: user.uid,
      kind: 'creator',
      amount: 1,
      reason: 'job_create',
      ref: jobId,
    });
    const refunds = await Promise.all(
      Array.from({ length: 10 }, () =>
        credits.grant({
          userId: user.uid,
          kind: 'creator',
          amount: 1,
          reason: 'job_refund',
          ref: jobId,
        }),
      ),
    );
    expect(refunds.filter((r) => r === 'granted')).toHaveLength(1);
    expect((await credits.balances(user.uid)).creator).toBe(1);
  });

  it('the sign-up grant is given once, with the configured amounts', async () => {
    const generous = new AccountService(t.database, {
      adminEmails: [],
      pilotEmails: [],
      signupCredits: { creator: 3, view: 10 },
    });
    const identity = {
      issuer: 'test',
      subject: randomUUID(),
      email: `g-${randomUUID()}@example.test`,
      name: 'G',
    };
    const [a, b] = await Promise.all([generous.signIn(identity), generous.signIn(identity)]);
    expect(a.uid).toBe(b.uid);
    await generous.signIn(identity);
    expect(await credits.balances(a.uid)).toEqual({ creator: 3, view: 10 });
  });
});
