import { z } from 'zod';
import { CREDIT_KINDS, ROLES, type CreditKind, type Role } from './roles.js';

/**
 * The admin console's calls (/api/admin/*, issue 14): not in the spec's table, which leaves
 * operations out. Every one is for admins only, checked on the server.
 */

const uid = z.string().trim().min(1).max(100);

export const adminUsersQuerySchema = z.object({
  /** Part of an e-mail address (case-insensitive); empty lists everyone, newest first. */
  email: z.string().trim().max(320).optional(),
  page: z.coerce.number().int().min(1).max(10_000).optional(),
});
export const adminUserParamsSchema = z.object({ uid });
export const adminSetRoleBodySchema = z.object({ role: z.enum(ROLES) });
export const adminGrantBodySchema = z.object({
  kind: z.enum(CREDIT_KINDS),
  amount: z.number().int().min(1).max(100_000),
  /** Why: kept with the ledger entry. */
  reason: z.string().trim().min(1, 'Say why the credits are granted.').max(200),
});
/** Sets a balance to a value (0 or more), lowering it too; the reason is kept in the ledger. */
export const adminSetBalanceBodySchema = z.object({
  kind: z.enum(CREDIT_KINDS),
  balance: z.number().int().min(0).max(1_000_000),
  reason: z.string().trim().min(1, 'Say why the balance is set.').max(200),
});
export const adminRequestParamsSchema = z.object({ id: uid });
export const adminDecisionBodySchema = z.object({ decision: z.enum(['approve', 'decline']) });
export const adminJobParamsSchema = z.object({ id: uid });

export interface AdminUser {
  uid: string;
  email: string;
  handle: string;
  role: Role;
  credits: Record<CreditKind, number>;
  createdAt: string;
}
export interface AdminUsersResponse {
  items: AdminUser[];
  total: number;
  page: number;
  pageSize: number;
}
export interface AdminUpgradeRequest {
  id: string;
  uid: string;
  email: string;
  handle: string;
  role: Role;
  message: string;
  createdAt: string;
}
export interface AdminUpgradeRequestsResponse {
  items: AdminUpgradeRequest[];
}
export interface AdminFailedJob {
  id: string;
  ownerEmail: string;
  fileName: string;
  projectName: string | null;
  error: string | null;
  attempts: number;
  failedAt: string | null;
}
export interface AdminFailedJobsResponse {
  items: AdminFailedJob[];
}
export interface AdminHealthResponse {
  queued: number;
  running: number;
  failedLastDay: number;
  completedLastDay: number;
  /** Workers ("host:pid") holding a job now. */
  workers: string[];
  storage: { files: number; bytes: number };
  users: number;
}
