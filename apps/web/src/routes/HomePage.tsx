import { signInUrl } from '../api/session';
import { useSession } from '../features/auth/useSession';

/** The landing page shell; the upload wizard arrives with the web-app issue. */
export function HomePage() {
  const { user, loading } = useSession();
  return (
    <main className="main">
      <section className="hero">
        <h1>You just play, we do the rest</h1>
        <p className="lead">
          Upload a video of your playing and get an animated tab lesson synced to it.
        </p>
      </section>
      <section id="upload" className="card" aria-labelledby="upload-title">
        {loading ? (
          <p>Loading…</p>
        ) : user ? (
          <>
            <h2 id="upload-title">Welcome, @{user.handle}</h2>
            <p>You are signed in as {user.email}.</p>
          </>
        ) : (
          <>
            <h2 id="upload-title">Sign in to continue</h2>
            <p>Use your account to upload videos and view jobs.</p>
            <a className="button" href={signInUrl('/#upload')}>
              Continue with sign-in
            </a>
          </>
        )}
      </section>
    </main>
  );
}
