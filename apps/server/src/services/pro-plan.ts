import { PRO_MONTHLY_CREATOR_CREDITS } from '@riffscribe/core';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { CreditsRepository } from '../repositories/credits.repository.js';

/** How often the server looks for Pro users whose month's credits are due, in seconds. */
export const PRO_RENEWAL_INTERVAL_SECONDS = 60 * 60;

/** The ledger reference of a calendar month's Pro credits (UTC): one grant per user and month. */
export function proMonthRef(now: Date): string {
  return `month:${now.toISOString().slice(0, 7)}`;
}

/**
 * The Pro plan's "10 creation credits per month" (spec section 1): granted when an upgrade is
 * approved (for that month) and again in each later calendar month the user is still Pro
 * (role pilot). Each grant is a ledger row keyed by the month, so approving twice, two servers
 * renewing at once or a restart in the middle never grant a month twice.
 */
export class ProPlan {
  private readonly credits = new CreditsRepository();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly db: Kysely<DB>,
    /** The clock (tests set it). */
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** This month's credits for one user, inside the caller's transaction. */
  grantMonth(trx: Kysely<DB>, userId: string): Promise<'granted' | 'already'> {
    return this.credits.grant(trx, {
      userId,
      kind: 'creator',
      amount: PRO_MONTHLY_CREATOR_CREDITS,
      reason: 'pro_monthly',
      ref: proMonthRef(this.now()),
    });
  }

  /** Grants this month's credits to every Pro user who has not had them; returns how many got them. */
  async renew(): Promise<number> {
    const pilots = await this.db
      .selectFrom('users')
      .select('id')
      .where('role', '=', 'pilot')
      .execute();
    let granted = 0;
    for (const { id } of pilots) {
      const result = await this.db.transaction().execute((trx) => this.grantMonth(trx, id));
      if (result === 'granted') granted += 1;
    }
    return granted;
  }

  /** Renews now (a server started on the 1st grants the month at once), then every hour. */
  start(
    log: { warn(object: object, message: string): void },
    intervalSeconds = PRO_RENEWAL_INTERVAL_SECONDS,
  ): void {
    const tick = () => {
      this.running ??= this.renew()
        .catch((error: unknown) => {
          log.warn({ err: error }, 'Pro credit renewal failed');
        })
        .finally(() => {
          this.running = null;
        });
    };
    tick();
    this.timer = setInterval(tick, intervalSeconds * 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
