import type { MyJobItem } from '@riffscribe/core';
import { STATUS_POLL_INTERVAL_MS } from '@riffscribe/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../api/endpoints';
import { SignInPrompt } from '../features/auth/SignInPrompt';
import { useSession } from '../features/auth/useSession';
import { pageCount } from '../features/explore/format';
import { Pager } from '../features/explore/Pager';
import { isInProgress } from '../features/my-videos/jobStatus';
import { MyVideoRow } from '../features/my-videos/MyVideoRow';
import { Icon } from '../ui/Icon';

const PAGE_SIZE = 20;
const anyInProgress = (items: MyJobItem[]) => items.some((i) => isInProgress(i.status));

/** /my-videos: the user's jobs with status, progress, rename, open and sharing; buy credits. */
export function MyVideosPage() {
  const { user, credits, loading } = useSession();
  const [page, setPage] = useState(1);
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: ['my-jobs', page],
    queryFn: () => api.myJobs(page, PAGE_SIZE),
    enabled: Boolean(user),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.data && anyInProgress(q.state.data.items) ? STATUS_POLL_INTERVAL_MS : false,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['my-jobs'] });
  // The row shows the new state while this runs (useOptimistic) and the reloaded list after.
  const share = useMutation({
    mutationFn: (v: { jobId: string; shared: boolean }) =>
      api.patchJob(v.jobId, { sharedToExplore: v.shared }),
    onSettled: refresh,
  });

  if (loading) return <main className="main page" id="main" />;
  if (!user) {
    return (
      <main className="main page narrow" id="main">
        <section className="upload-card">
          <SignInPrompt />
        </section>
      </main>
    );
  }

  return (
    <main className="main page" id="main">
      <header className="page-head">
        <div>
          <p className="eyebrow">Library</p>
          <h1>My videos</h1>
          <p className="muted">
            Everything you uploaded, newest first. Rename a project by editing its name.
          </p>
        </div>
        <div className="credit-panel">
          <span>
            <strong>{credits?.creatorRemaining ?? '–'}</strong> creator ·{' '}
            <strong>{credits?.viewRemaining ?? '–'}</strong> view credits
          </span>
          <Link className="button small" to="/credits">
            <Icon name="coins" size={16} /> Buy credits
          </Link>
        </div>
      </header>

      {list.isPending ? (
        <p className="muted" role="status">
          Loading your videos…
        </p>
      ) : list.isError ? (
        <p className="form-error" role="alert">
          Your videos could not be loaded. Please refresh the page.
        </p>
      ) : list.data.items.length === 0 ? (
        <div className="empty-state">
          <span className="empty-icon" aria-hidden="true">
            <Icon name="film" size={28} />
          </span>
          <h2>No videos yet</h2>
          <p className="muted">Upload a clip of your playing and it will show up here.</p>
          <Link className="button" to="/#upload">
            Upload a video
          </Link>
        </div>
      ) : (
        <>
          <ul className="video-list">
            {list.data.items.map((item) => (
              <MyVideoRow
                key={item.jobId}
                item={item}
                onRename={async (name) => {
                  await api.patchJob(item.jobId, { projectName: name });
                  await refresh();
                }}
                onShare={(shared) =>
                  // On a failure the reloaded list still has the old state, which the row shows.
                  share.mutateAsync({ jobId: item.jobId, shared }).catch(() => undefined)
                }
                onDelete={async () => {
                  await api.deleteJob(item.jobId);
                  await refresh();
                }}
              />
            ))}
          </ul>
          <Pager page={page} pages={pageCount(list.data.total, PAGE_SIZE)} onPage={setPage} />
        </>
      )}
    </main>
  );
}
