import { Navigate } from 'react-router';
import { useSession } from '../auth/useSession';
import { SignInPrompt } from '../auth/SignInPrompt';
import { useIsMobile } from '../device/useIsMobile';
import { UploadWizard } from '../upload/UploadWizard';
import { DesktopRequired } from '../../ui/DesktopRequired';
import { LoadingOverlay } from '../../ui/LoadingOverlay';
import { ErrorScreen } from './ErrorScreen';
import { JobIdForm } from './JobIdForm';
import { ProcessingScreen } from './ProcessingScreen';
import { useHomeFlow } from './useHomeFlow';

/** The home page's #upload section: sign-in, the wizard, processing, error and success. */
export function HomeUploadSection() {
  const { user, credits, loading } = useSession();
  const isMobile = useIsMobile();
  const flow = useHomeFlow({ signedIn: Boolean(user), isMobile });
  const { state } = flow;

  let body: React.ReactNode;
  if (loading) {
    body = (
      <p className="muted" role="status">
        Loading…
      </p>
    );
  } else if (!user) {
    body = <SignInPrompt />;
  } else if (state.kind === 'loading') {
    body = <LoadingOverlay />;
  } else if (state.kind === 'processing') {
    body = <ProcessingScreen job={state.job} completing={state.completing} />;
  } else if (state.kind === 'error') {
    body = <ErrorScreen job={state.job} email={user.email} onReset={flow.reset} />;
  } else if (state.kind === 'success') {
    body = isMobile ? (
      <DesktopRequired onBack={flow.reset} />
    ) : (
      // The success state is the tab player, on the lesson's own address (shareable, full width).
      <Navigate to={`/lesson/${encodeURIComponent(state.job.jobId)}`} replace />
    );
  } else {
    body = (
      <>
        <div className="upload-head">
          <h2 id="upload-title">Upload your playing</h2>
          <p className="muted">
            Three quick steps. Good light and the whole fretboard in the frame make the best tabs.
          </p>
        </div>
        <UploadWizard
          user={user}
          creatorCredits={credits?.creatorRemaining ?? null}
          onStarted={flow.started}
          onStartFailed={flow.startFailed}
        />
        <JobIdForm onOpen={flow.open} loadError={state.loadError} />
      </>
    );
  }

  const titled = loading || !user || state.kind === 'upload';
  return (
    <section
      id="upload"
      className="section upload-section"
      {...(titled && !loading
        ? { 'aria-labelledby': 'upload-title' }
        : { 'aria-label': 'Your video' })}
    >
      <div className="upload-card">{body}</div>
    </section>
  );
}
