import { randomUUID } from 'node:crypto';
import {
  MESSAGES,
  parseRole,
  type AdminFailedJobsResponse,
  type AdminHealthResponse,
  type AdminUpgradeRequestsResponse,
  type AdminUser,
  type AdminUsersResponse,
  type CreditKind,
  type Role,
} from '@riffscribe/core';
import { sql } from 'kysely';
import type { AppContext, AuthUser } from '../context.js';
import { liveRoleCache } from '../auth/live-role-cache.js';
import { conflict, forbidden, notFound } from '../errors.js';
import { CreditsRepository } from '../repositories/credits.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { escapeLike } from '../db/like.js';
import { ProPlan } from './pro-plan.js';

const PAGE_SIZE = 25;
const FAILED_JOBS_SHOWN = 50;

/**
 * The admin console (issue 14): users with roles and balances, roles, credit grants with a
 * reason in the ledger, the upgrade-request queue, failed jobs and their retry, and a health
 * view. The routes check the admin role; this service trusts its caller.
 */
export class AdminService {
  private readonly credits = new CreditsRepository();
  private readonly users: UsersRepository;

  private readonly pro: ProPlan;

  constructor(
    private readonly ctx: AppContext,
    /** The clock of the Pro plan's monthly credits (tests set it). */
    now?: () => Date,
  ) {
    this.users = new UsersRepository(ctx.database.db);
    this.pro = new ProPlan(ctx.database.db, now);
  }

  private get db() {
    return this.ctx.database.db;
  }

  async listUsers(email: string | undefined, page: number): Promise<AdminUsersResponse> {
    let query = this.db.selectFrom('users');
    if (email)
      query = query.where(
        sql<boolean>`lower(email) like ${`%${escapeLike(email.toLowerCase())}%`}`,
      );
    const [{ n }, rows] = await Promise.all([
      query.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
      query
        .select(['id', 'email', 'handle', 'role', 'created_at'])
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(PAGE_SIZE)
        .offset((page - 1) * PAGE_SIZE)
        .execute(),
    ]);
    const balances =
      rows.length === 0
        ? []
        : await this.db
            .selectFrom('credit_balances')
            .select(['user_id', 'kind', 'balance'])
            .where(
              'user_id',
              'in',
              rows.map((r) => r.id),
            )
            .execute();
    const balance = (uid: string, kind: CreditKind) =>
      balances.find((b) => b.user_id === uid && b.kind === kind)?.balance ?? 0;
    return {
      items: rows.map((r): AdminUser => ({
        uid: r.id,
        email: r.email,
        handle: r.handle,
        role: parseRole(r.role),
        credits: { creator: balance(r.id, 'creator'), view: balance(r.id, 'view') },
        createdAt: r.created_at.toISOString(),
      })),
      total: Number(n),
      page,
      pageSize: PAGE_SIZE,
    };
  }

  private async user(uid: string) {
    const user = await this.users.findById(uid);
    if (!user) throw notFound('No such user.');
    return user;
  }

  /** Sets a role; an admin cannot take their own admin role away (someone must stay admin). */
  async setRole(admin: AuthUser, uid: string, role: Role): Promise<void> {
    await this.user(uid);
    if (uid === admin.uid && role !== 'admin') {
      throw forbidden('You cannot take away your own admin role.');
    }
    await this.users.setRole(uid, role);
  }

  /** Grants credits with a ledger entry that keeps who granted them and why. */
  async grant(
    admin: AuthUser,
    uid: string,
    grant: { kind: CreditKind; amount: number; reason: string },
  ) {
    await this.user(uid);
    const ref = `grant:${randomUUID()}:by ${admin.email}: ${grant.reason}`.slice(0, 300);
    await this.db.transaction().execute((trx) =>
      this.credits.grant(trx, {
        userId: uid,
        kind: grant.kind,
        amount: grant.amount,
        reason: 'admin_grant',
        ref,
      }),
    );
    return this.credits.balances(this.db, uid);
  }

  /**
   * Sets a balance to any value from 0 (lowering it too), with a ledger entry of the difference
   * that keeps who set it and why.
   */
  async setBalance(
    admin: AuthUser,
    uid: string,
    change: { kind: CreditKind; balance: number; reason: string },
  ) {
    await this.user(uid);
    const ref = `set:${randomUUID()}:by ${admin.email}: ${change.reason}`.slice(0, 300);
    await this.db.transaction().execute((trx) =>
      this.credits.setBalance(trx, {
        userId: uid,
        kind: change.kind,
        target: change.balance,
        reason: 'admin_set',
        ref,
      }),
    );
    return this.credits.balances(this.db, uid);
  }

  async pendingUpgrades(): Promise<AdminUpgradeRequestsResponse> {
    const rows = await this.db
      .selectFrom('upgrade_requests as r')
      .innerJoin('users as u', 'u.id', 'r.user_id')
      .select(['r.id', 'r.user_id', 'r.message', 'r.created_at', 'u.email', 'u.handle', 'u.role'])
      .where('r.status', '=', 'pending')
      .orderBy('r.created_at')
      .execute();
    return {
      items: rows.map((r) => ({
        id: r.id,
        uid: r.user_id,
        email: r.email,
        handle: r.handle,
        role: parseRole(r.role),
        message: r.message,
        createdAt: r.created_at.toISOString(),
      })),
    };
  }

  /**
   * Approve: the requester becomes a pilot (an admin stays admin) and gets the Pro plan's 10
   * creation credits for this month (ProPlan renews them each month). Decline: nothing changes.
   */
  async decide(requestId: string, decision: 'approve' | 'decline'): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('upgrade_requests')
        .set({ status: decision === 'approve' ? 'approved' : 'rejected' })
        .where('id', '=', requestId)
        .where('status', '=', 'pending')
        .returning('user_id')
        .executeTakeFirst();
      if (!row) {
        const exists = await trx
          .selectFrom('upgrade_requests')
          .select('id')
          .where('id', '=', requestId)
          .executeTakeFirst();
        if (!exists) throw notFound('No such upgrade request.');
        throw conflict('This request was already decided.');
      }
      if (decision === 'approve') {
        const upgraded = await trx
          .updateTable('users')
          .set({ role: 'pilot', updated_at: sql`now()` })
          .where('id', '=', row.user_id)
          .where('role', '=', 'user')
          .returning('id')
          .executeTakeFirst();
        if (upgraded) {
          await this.pro.grantMonth(trx, row.user_id);
          liveRoleCache.clear();
        }
      }
    });
  }

  async failedJobs(): Promise<AdminFailedJobsResponse> {
    const rows = await this.db
      .selectFrom('jobs as j')
      .innerJoin('users as u', 'u.id', 'j.owner_uid')
      .select([
        'j.id',
        'u.email',
        'j.file_name',
        'j.project_name',
        'j.error',
        'j.attempts',
        'j.completed_at',
      ])
      .where('j.status', '=', 'failed')
      .orderBy('j.completed_at', 'desc')
      .limit(FAILED_JOBS_SHOWN)
      .execute();
    return {
      items: rows.map((r) => ({
        id: r.id,
        ownerEmail: r.email,
        fileName: r.file_name,
        projectName: r.project_name,
        error: r.error,
        attempts: r.attempts,
        failedAt: r.completed_at?.toISOString() ?? null,
      })),
    };
  }

  /**
   * Runs a failed job again, on the house: the owner's credit was refunded when it failed and is
   * not taken again (the ledger allows one charge and one refund per job).
   */
  async retry(jobId: string): Promise<void> {
    const queue = this.ctx.queue;
    if (!queue) throw conflict('The job queue is not running.');
    const job = await this.db
      .selectFrom('jobs')
      .select(['id', 'status', 'request_id'])
      .where('id', '=', jobId)
      .executeTakeFirst();
    if (!job) throw notFound('Job not found.');
    if (job.status !== 'failed') throw conflict('Only a failed job can be retried.');
    await queue.forget(jobId);
    const requeued = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('jobs')
        .set({
          status: 'queued',
          stage: 'queued',
          progress: 0,
          message: MESSAGES.defaultProcessingMessage,
          error: null,
          completed_at: null,
          updated_at: sql`now()`,
        })
        .where('id', '=', jobId)
        .where('status', '=', 'failed')
        .returning('id')
        .executeTakeFirst();
      if (!row) return false;
      await queue.enqueue({ jobId, requestId: job.request_id }, trx);
      return true;
    });
    if (!requeued) throw conflict('Only a failed job can be retried.');
    queue.notifyEnqueued();
  }

  async health(): Promise<AdminHealthResponse> {
    const [counts, workers, storage, users] = await Promise.all([
      this.db
        .selectFrom('jobs')
        .select([
          sql<string>`count(*) filter (where status = 'queued')`.as('queued'),
          sql<string>`count(*) filter (where status = 'processing')`.as('running'),
          sql<string>`count(*) filter (where status = 'failed' and completed_at > now() - interval '1 day')`.as(
            'failed',
          ),
          sql<string>`count(*) filter (where status = 'completed' and completed_at > now() - interval '1 day')`.as(
            'completed',
          ),
        ])
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('jobs')
        .select('lease_holder')
        .distinct()
        .where('status', '=', 'processing')
        .where('lease_holder', 'is not', null)
        .execute(),
      this.db
        .selectFrom('job_files')
        .select([
          sql<string>`count(*)`.as('files'),
          sql<string>`coalesce(sum(size), 0)`.as('bytes'),
        ])
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('users')
        .select(sql<string>`count(*)`.as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return {
      queued: Number(counts.queued),
      running: Number(counts.running),
      failedLastDay: Number(counts.failed),
      completedLastDay: Number(counts.completed),
      workers: workers.flatMap((w) => (w.lease_holder ? [w.lease_holder] : [])).sort(),
      storage: { files: Number(storage.files), bytes: Number(storage.bytes) },
      users: Number(users.n),
    };
  }
}
