import { signInUrl } from '../../api/session';
import { Icon } from '../../ui/Icon';

/**
 * The signed-out state: 'Sign in to continue' and the button to the identity provider, which
 * brings the visitor back to `returnTo` (default: this page's #upload section).
 */
export function SignInPrompt(props: { returnTo?: string }) {
  const returnTo = props.returnTo ?? `${window.location.pathname}${window.location.search}#upload`;
  return (
    <div className="sign-in-prompt">
      <span className="sign-in-icon" aria-hidden="true">
        <Icon name="upload" size={26} />
      </span>
      <h2 id="upload-title">Sign in to continue</h2>
      <p className="muted">Use your account to upload videos and view jobs.</p>
      <a className="button large" href={signInUrl(returnTo)}>
        Continue with sign-in
      </a>
      <p className="muted small">New here? Your account starts with free credits to try it out.</p>
    </div>
  );
}
