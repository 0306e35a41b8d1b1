import { MESSAGES } from '@riffscribe/core';
import { Link } from 'react-router';
import { signInUrl } from '../../../api/session';

/** A lesson that could not be loaded: the spec's message, what the server said, and a way on. */
export function LoadFailed(props: { detail: string; signInTo?: string | null }) {
  return (
    <main className="lp-state" role="alert">
      <h1>{MESSAGES.failedToLoadJob}</h1>
      <p>{props.detail}</p>
      <div className="lp-state-actions">
        {props.signInTo && (
          <a className="button" href={signInUrl(props.signInTo)}>
            Sign in
          </a>
        )}
        <Link className="button" to="/my-videos">
          My videos
        </Link>
        <Link className="button secondary" to="/">
          Back
        </Link>
      </div>
    </main>
  );
}
