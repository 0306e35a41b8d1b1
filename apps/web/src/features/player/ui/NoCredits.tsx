import { MESSAGES } from '@riffscribe/core';
import { Link } from 'react-router';

/** The no-credits state after a 402 on notes or chords (spec section 8). */
export function NoCredits() {
  return (
    <main className="lp-state" role="alert">
      <h1>{MESSAGES.viewCreditsRequired}</h1>
      <p>{MESSAGES.noViewCredits}</p>
      <div className="lp-state-actions">
        <Link className="button" to="/my-videos">
          Buy credits
        </Link>
        <Link className="button secondary" to="/">
          Back
        </Link>
      </div>
    </main>
  );
}
