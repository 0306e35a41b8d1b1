import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { DesktopRequired } from '../../ui/DesktopRequired';
import { LoadingOverlay } from '../../ui/LoadingOverlay';
import { useSession } from '../auth/useSession';
import { useIsMobile } from '../device/useIsMobile';
import { playerApi } from './api/playerApi';
import type { TabSource } from './model/playerState';
import { PlayerScreen } from './PlayerScreen';
import { ConfirmViewCredit } from './ui/ConfirmViewCredit';
import { LoadFailed } from './ui/LoadFailed';
import { NoCredits } from './ui/NoCredits';
import './player.css';

/**
 * The lesson player for a job id: small screens get 'Desktop Experience Required' before anything
 * loads; someone else's lesson asks 'Use 1 view credit?' the first time; then the tab player.
 * Signed-out visitors get the view-only player of a shared lesson (free, with an invitation to
 * sign in); a private lesson, or one that does not exist, shows the spec's not-found text.
 */
export function LessonPlayer({
  jobId,
  initialTabSource,
}: {
  jobId: string;
  initialTabSource?: TabSource;
}) {
  const mobile = useIsMobile();
  const { user, loading } = useSession();
  const navigate = useNavigate();
  const [confirmed, setConfirmed] = useState(false);
  const access = useQuery({
    queryKey: ['view-access', jobId, user?.uid ?? null],
    queryFn: () => playerApi.viewAccess(jobId),
    enabled: !mobile && !loading,
    retry: false,
  });

  // A window made narrow while the lesson is open covers the player instead of closing it, so
  // nothing in it (an open dialog, unsaved edits) is lost when the window widens again.
  const covered = mobile && !!access.data && (access.data.status !== 'needs_credit' || confirmed);
  if (mobile && !covered) {
    return (
      <main className="lp-state">
        <DesktopRequired
          onBack={() => {
            // A lesson link may be the first page of the tab, so there may be nothing to go back to.
            void navigate('/');
          }}
        />
      </main>
    );
  }
  if (loading) return <LoadingOverlay />;
  if (access.error) {
    // Signed out, a private lesson is "not found" too; its owner may sign in to open it.
    return (
      <LoadFailed
        detail={access.error.message}
        signInTo={user ? null : `/lesson/${encodeURIComponent(jobId)}`}
      />
    );
  }
  if (!access.data) return <LoadingOverlay />;
  const fallbackName = access.data.projectName ?? '';
  // No view credit left: the no-credits state at once, not a confirmation whose Continue could
  // only lead there.
  if (access.data.status === 'needs_credit' && access.data.remaining <= 0) return <NoCredits />;
  if (access.data.status === 'needs_credit' && !confirmed) {
    return (
      <div className="lp-modals">
        <LoadingOverlay />
        <ConfirmViewCredit
          name={access.data.projectName ?? access.data.fileName}
          remaining={access.data.remaining}
          onCancel={() => {
            void navigate('/');
          }}
          onContinue={() => {
            setConfirmed(true);
          }}
        />
      </div>
    );
  }
  // The same element tree narrow or wide, so the player is never remounted by a resize.
  return (
    <>
      <div style={{ display: mobile ? 'none' : 'contents' }}>
        <PlayerScreen
          jobId={jobId}
          isOwner={access.data.status === 'owner'}
          fallbackName={fallbackName}
          suspended={mobile}
          signedOut={access.data.status === 'signed_out'}
          {...(initialTabSource ? { initialTabSource } : {})}
        />
      </div>
      {mobile && (
        <main className="lp-state">
          <DesktopRequired
            onBack={() => {
              void navigate('/');
            }}
          />
        </main>
      )}
    </>
  );
}
