import { signInUrl } from '../../api/session';
import { Icon } from '../../ui/Icon';

/** The signed-out upload state: 'Sign in to continue' and the button to the identity provider. */
export function SignInPrompt() {
  return (
    <div className="sign-in-prompt">
      <span className="sign-in-icon" aria-hidden="true">
        <Icon name="upload" size={26} />
      </span>
      <h2 id="upload-title">Sign in to continue</h2>
      <p className="muted">Use your account to upload videos and view jobs.</p>
      <a
        className="button large"
        href={signInUrl(`${window.location.pathname}${window.location.search}#upload`)}
      >
        Continue with sign-in
      </a>
      <p className="muted small">New here? Your account starts with free credits to try it out.</p>
    </div>
  );
}
