import { Link, NavLink } from 'react-router';
import { signInUrl } from '../api/session';
import { useSession } from '../features/auth/useSession';
import { BrandMark } from './BrandMark';
import { Icon } from './Icon';

/** The top bar: brand, page links, and the handle, credits and sign-out of the signed-in user. */
export function Header() {
  const { user, credits, loading, signOut } = useSession();
  return (
    <header className="header">
      <div className="header-inner">
        <Link className="brand" to="/">
          <BrandMark />
          <span className="brand-name">Riffscribe</span>
        </Link>
        <nav aria-label="Main" className="nav">
          <NavLink to="/explore">Explore</NavLink>
          {user ? <NavLink to="/my-videos">My videos</NavLink> : null}
          {user ? <NavLink to="/credits">Credits</NavLink> : null}
          {user?.role === 'admin' ? <NavLink to="/admin">Admin</NavLink> : null}
        </nav>
        <div className="account" aria-label="Account" role="group">
          {loading ? null : user ? (
            <>
              {credits ? (
                <Link to="/credits" className="credit-chip" title="Creator credits / view credits">
                  <Icon name="coins" size={16} />
                  <span>
                    {credits.creatorRemaining} creator · {credits.viewRemaining} view
                  </span>
                  <span className="visually-hidden"> credits</span>
                </Link>
              ) : null}
              <span className="handle">@{user.handle}</span>
              <button className="button ghost small" type="button" onClick={() => void signOut()}>
                Sign out
              </button>
            </>
          ) : (
            <a className="button small" href={signInUrl()}>
              Sign in
            </a>
          )}
        </div>
      </div>
    </header>
  );
}
