import { AdminConsole } from '../features/admin/AdminConsole';
import { SignInPrompt } from '../features/auth/SignInPrompt';
import { useSession } from '../features/auth/useSession';

/** /admin: the admin console for admins; a sign-in prompt or a plain refusal for anyone else. */
export function AdminPage() {
  const { user, loading } = useSession();
  return (
    <main className="main page" id="main">
      <header className="page-head">
        <div>
          <p className="eyebrow">Admin</p>
          <h1>Admin console</h1>
          <p className="muted">Users, credits, upgrade requests, failed jobs and health.</p>
        </div>
      </header>
      {loading ? null : !user ? (
        <section className="upload-card">
          <SignInPrompt returnTo="/admin" />
        </section>
      ) : user.role !== 'admin' ? (
        <p role="alert">This page is for administrators only.</p>
      ) : (
        <AdminConsole />
      )}
    </main>
  );
}
