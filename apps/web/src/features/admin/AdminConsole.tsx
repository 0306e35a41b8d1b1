import {
  CREDIT_KINDS,
  ROLES,
  formatMegabytes,
  type AdminUser,
  type CreditKind,
  type Role,
} from '@riffscribe/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { adminApi } from './adminApi';
import './admin.css';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const when = (iso: string | null) => (iso ? dateTime.format(new Date(iso)) : '–');

/** An action's failure, shown where it happened (the server's own sentence). */
function ErrorLine({ error }: { error: Error | null }) {
  return error ? (
    <p className="admin-error" role="alert">
      {error.message}
    </p>
  ) : null;
}

/** The admin console at /admin: health, upgrade requests, users and failed jobs. */
export function AdminConsole() {
  return (
    <div className="admin">
      <HealthSection />
      <UpgradeRequestsSection />
      <UsersSection />
      <FailedJobsSection />
    </div>
  );
}

function HealthSection() {
  const health = useQuery({
    queryKey: ['admin', 'health'],
    queryFn: adminApi.health,
    refetchInterval: 10_000,
  });
  const h = health.data;
  const figures: [string, string][] = h
    ? [
        ['Queued', String(h.queued)],
        ['Running', String(h.running)],
        ['Failed (24 h)', String(h.failedLastDay)],
        ['Completed (24 h)', String(h.completedLastDay)],
        ['Workers busy', String(h.workers.length)],
        ['Storage', `${formatMegabytes(h.storage.bytes)} in ${String(h.storage.files)} files`],
        ['Users', String(h.users)],
      ]
    : [];
  return (
    <section className="admin-section" aria-labelledby="admin-health">
      <h2 id="admin-health">Health</h2>
      <ErrorLine error={health.error} />
      {h ? (
        <>
          <dl className="admin-figures">
            {figures.map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          <p className="muted small">
            {h.workers.length > 0
              ? `Holding a job now: ${h.workers.join(', ')}.`
              : 'No worker is holding a job right now.'}{' '}
            Refreshed every 10 seconds.
          </p>
        </>
      ) : (
        !health.error && <p className="muted">Loading…</p>
      )}
    </section>
  );
}

function UpgradeRequestsSection() {
  const client = useQueryClient();
  const requests = useQuery({ queryKey: ['admin', 'upgrades'], queryFn: adminApi.upgradeRequests });
  const decide = useMutation({
    mutationFn: (v: { id: string; decision: 'approve' | 'decline' }) =>
      adminApi.decide(v.id, v.decision),
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin'] }),
  });
  const items = requests.data?.items ?? [];
  return (
    <section className="admin-section" aria-labelledby="admin-upgrades">
      <h2 id="admin-upgrades">Upgrade requests</h2>
      <ErrorLine error={requests.error ?? decide.error} />
      {requests.isPending ? (
        <p className="muted">Loading…</p>
      ) : items.length === 0 ? (
        <p className="muted">No request is waiting.</p>
      ) : (
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Message</th>
              <th scope="col">Requested</th>
              <th scope="col">Decision</th>
            </tr>
          </thead>
          <tbody>
            {items.map((r) => (
              <tr key={r.id}>
                <td>
                  {r.email}
                  <br />
                  <span className="muted small">@{r.handle}</span>
                </td>
                <td className="admin-message">{r.message}</td>
                <td>{when(r.createdAt)}</td>
                <td>
                  <div className="admin-actions">
                    <button
                      type="button"
                      className="button small"
                      disabled={decide.isPending}
                      aria-label={`Approve ${r.email}`}
                      onClick={() => {
                        decide.mutate({ id: r.id, decision: 'approve' });
                      }}
                    >
                      Approve
                    </button>
                    <button
                      type="button"
                      className="button small secondary"
                      disabled={decide.isPending}
                      aria-label={`Decline ${r.email}`}
                      onClick={() => {
                        decide.mutate({ id: r.id, decision: 'decline' });
                      }}
                    >
                      Decline
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted small">
        Approving makes the user a pilot (Pro features) at once, with the Pro plan&apos;s 10
        creation credits for this month (and each month after); they see the outcome on their
        Credits page.
      </p>
    </section>
  );
}

function UsersSection() {
  const searchId = useId();
  const [typed, setTyped] = useState('');
  const [email, setEmail] = useState('');
  const [page, setPage] = useState(1);
  // Searches as one types, once the typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => {
      setEmail(typed.trim());
      setPage(1);
    }, 300);
    return () => {
      clearTimeout(timer);
    };
  }, [typed]);
  const users = useQuery({
    queryKey: ['admin', 'users', email, page],
    queryFn: () => adminApi.users(email, page),
    placeholderData: (previous) => previous,
  });
  const data = users.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  return (
    <section className="admin-section" aria-labelledby="admin-users">
      <h2 id="admin-users">Users</h2>
      <div className="admin-search">
        <label htmlFor={searchId}>Search by e-mail</label>
        <input
          id={searchId}
          type="search"
          value={typed}
          placeholder="name@example.com"
          onChange={(event) => {
            setTyped(event.target.value);
          }}
        />
        {data && (
          <span className="muted small" role="status">
            {data.total === 1 ? '1 user' : `${String(data.total)} users`}
          </span>
        )}
      </div>
      <ErrorLine error={users.error} />
      {data?.items.length === 0 ? (
        <p className="muted">No user matches “{email}”.</p>
      ) : (
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Role</th>
              <th scope="col">Creator</th>
              <th scope="col">View</th>
              <th scope="col">Grant or set credits</th>
            </tr>
          </thead>
          <tbody>
            {data?.items.map((u) => (
              <UserRow key={u.uid} user={u} />
            ))}
          </tbody>
        </table>
      )}
      {pages > 1 && (
        <div className="pager">
          <button
            type="button"
            className="button small secondary"
            disabled={page <= 1}
            onClick={() => {
              setPage(page - 1);
            }}
          >
            Previous
          </button>
          <span className="pager-text">
            Page {page} of {pages}
          </span>
          <button
            type="button"
            className="button small secondary"
            disabled={page >= pages}
            onClick={() => {
              setPage(page + 1);
            }}
          >
            Next
          </button>
        </div>
      )}
    </section>
  );
}

function UserRow({ user }: { user: AdminUser }) {
  const client = useQueryClient();
  const [kind, setKind] = useState<CreditKind>('creator');
  const [amount, setAmount] = useState('5');
  const [reason, setReason] = useState('');
  const [granted, setGranted] = useState<string | null>(null);
  const setRole = useMutation({
    mutationFn: (role: Role) => adminApi.setRole(user.uid, role),
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin'] }),
  });
  // Grant adds credits; Set balance sets the balance to the number (0 lowers it to nothing).
  const grant = useMutation({
    mutationFn: (action: 'grant' | 'set') =>
      action === 'grant'
        ? adminApi.grant(user.uid, { kind, amount: Number(amount), reason })
        : adminApi.setBalance(user.uid, { kind, balance: Number(amount), reason }),
    onSuccess: async (_, action) => {
      setGranted(
        action === 'grant'
          ? `Granted ${amount} ${kind} credits.`
          : `Set ${kind} credits to ${amount}.`,
      );
      setReason('');
      await client.invalidateQueries({ queryKey: ['admin', 'users'] });
    },
  });
  const label = (what: string) => `${what} for ${user.email}`;
  return (
    <tr>
      <td>
        {user.email}
        <br />
        <span className="muted small">
          @{user.handle} · since {when(user.createdAt)}
        </span>
      </td>
      <td>
        <select
          aria-label={label('Role')}
          value={user.role}
          disabled={setRole.isPending}
          onChange={(event) => {
            const role = event.target.value as Role;
            if (window.confirm(`Make ${user.email} ${role}?`)) setRole.mutate(role);
          }}
        >
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        <ErrorLine error={setRole.error} />
      </td>
      <td className="admin-number">{user.credits.creator}</td>
      <td className="admin-number">{user.credits.view}</td>
      <td>
        <form
          className="admin-grant"
          onSubmit={(event) => {
            event.preventDefault();
            const submitter = event.nativeEvent.submitter;
            setGranted(null);
            grant.mutate(submitter?.getAttribute('value') === 'set' ? 'set' : 'grant');
          }}
        >
          <input
            aria-label={label('Credits to grant')}
            type="number"
            min={0}
            max={1000000}
            required
            value={amount}
            onChange={(event) => {
              setAmount(event.target.value);
            }}
          />
          <select
            aria-label={label('Credit kind')}
            value={kind}
            onChange={(event) => {
              setKind(event.target.value as CreditKind);
            }}
          >
            {CREDIT_KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
          <input
            aria-label={label('Reason')}
            placeholder="Reason"
            required
            maxLength={200}
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
            }}
          />
          <button type="submit" value="grant" className="button small" disabled={grant.isPending}>
            Grant
          </button>
          <button
            type="submit"
            value="set"
            className="button small secondary"
            disabled={grant.isPending}
            title="Set the balance to this number (0 or more)"
          >
            Set balance
          </button>
        </form>
        {granted && (
          <p className="admin-ok small" role="status">
            {granted}
          </p>
        )}
        <ErrorLine error={grant.error} />
      </td>
    </tr>
  );
}

function FailedJobsSection() {
  const client = useQueryClient();
  const jobs = useQuery({ queryKey: ['admin', 'failed'], queryFn: adminApi.failedJobs });
  const retry = useMutation({
    mutationFn: (jobId: string) => adminApi.retry(jobId),
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin'] }),
  });
  const items = jobs.data?.items ?? [];
  return (
    <section className="admin-section" aria-labelledby="admin-failed">
      <h2 id="admin-failed">Failed jobs</h2>
      <ErrorLine error={jobs.error ?? retry.error} />
      {jobs.isPending ? (
        <p className="muted">Loading…</p>
      ) : items.length === 0 ? (
        <p className="muted">No failed job.</p>
      ) : (
        <table className="admin-table">
          <thead>
            <tr>
              <th scope="col">Failed</th>
              <th scope="col">Owner</th>
              <th scope="col">Video</th>
              <th scope="col">Error</th>
              <th scope="col">Attempts</th>
              <th scope="col">
                <span className="visually-hidden">Retry</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {items.map((j) => (
              <tr key={j.id}>
                <td>{when(j.failedAt)}</td>
                <td>{j.ownerEmail}</td>
                <td>
                  {j.projectName ?? j.fileName}
                  <br />
                  <span className="muted small">{j.id}</span>
                </td>
                <td className="admin-message">{j.error ?? '–'}</td>
                <td className="admin-number">{j.attempts}</td>
                <td>
                  <button
                    type="button"
                    className="button small"
                    disabled={retry.isPending}
                    aria-label={`Retry ${j.id}`}
                    onClick={() => {
                      retry.mutate(j.id);
                    }}
                  >
                    Retry
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="muted small">
        A retry is free for the owner: the credit refunded when the job failed is not taken again.
      </p>
    </section>
  );
}
