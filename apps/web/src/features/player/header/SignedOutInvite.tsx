import { signInUrl } from '../../../api/session';

/**
 * In the header of a signed-out visitor's view-only player, where the share menu would be: what
 * an account adds, and the way to sign in that comes back to this lesson.
 */
export function SignedOutInvite({ jobId }: { jobId: string }) {
  return (
    <p className="lp-signed-out">
      <span>
        Viewing as a guest. Sign in to rate this lesson and turn your own videos into tabs.
      </span>
      <a className="button small" href={signInUrl(`/lesson/${encodeURIComponent(jobId)}`)}>
        Sign in
      </a>
    </p>
  );
}
