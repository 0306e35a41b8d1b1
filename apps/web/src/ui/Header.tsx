import { signInUrl } from '../api/session';
import { useSession } from '../features/auth/useSession';

/** The top bar: brand, and the handle, credits and sign-out of the signed-in user. */
export function Header() {
  const { user, credits, loading, signOut } = useSession();
  return (
    <header className="header">
      <a className="brand" href="/">
        <span aria-hidden="true" className="brand-mark">
          ♪
        </span>
        Riffscribe
      </a>
      <nav aria-label="Account" className="account">
        {loading ? null : user ? (
          <>
            <span className="handle">@{user.handle}</span>
            {credits ? (
              <span className="credits" title="Creator credits / view credits">
                {credits.creatorRemaining} creator · {credits.viewRemaining} view
              </span>
            ) : null}
            <button className="button secondary" type="button" onClick={() => void signOut()}>
              Sign out
            </button>
          </>
        ) : (
          <a className="button" href={signInUrl()}>
            Sign in
          </a>
        )}
      </nav>
    </header>
  );
}
