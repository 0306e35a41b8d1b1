import type {
  AdminFailedJobsResponse,
  AdminHealthResponse,
  AdminUpgradeRequestsResponse,
  AdminUsersResponse,
  CreditKind,
  Role,
} from '@riffscribe/core';
import { session } from '../../api/session';

const send = (method: string, body?: unknown): RequestInit => ({
  method,
  ...(body === undefined
    ? {}
    : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
});
const q = encodeURIComponent;

/** The admin console's calls (/api/admin/*); the server refuses them to anyone but an admin. */
export const adminApi = {
  users: (email: string, page: number) =>
    session.api<AdminUsersResponse>(`/api/admin/users?email=${q(email)}&page=${String(page)}`),
  setRole: (uid: string, role: Role) =>
    session.api<unknown>(`/api/admin/users/${q(uid)}/role`, send('PATCH', { role })),
  grant: (uid: string, grant: { kind: CreditKind; amount: number; reason: string }) =>
    session.api<unknown>(`/api/admin/users/${q(uid)}/credits`, send('POST', grant)),
  setBalance: (uid: string, change: { kind: CreditKind; balance: number; reason: string }) =>
    session.api<unknown>(`/api/admin/users/${q(uid)}/credits`, send('PUT', change)),
  upgradeRequests: () => session.api<AdminUpgradeRequestsResponse>('/api/admin/upgrade-requests'),
  decide: (id: string, decision: 'approve' | 'decline') =>
    session.api<unknown>(`/api/admin/upgrade-requests/${q(id)}`, send('POST', { decision })),
  failedJobs: () => session.api<AdminFailedJobsResponse>('/api/admin/failed-jobs'),
  retry: (jobId: string) => session.api<unknown>(`/api/admin/jobs/${q(jobId)}/retry`, send('POST')),
  health: () => session.api<AdminHealthResponse>('/api/admin/health'),
};
