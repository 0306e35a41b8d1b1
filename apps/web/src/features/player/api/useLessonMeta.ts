import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { playerApi } from './playerApi';

/**
 * Header data: names, owner, rating, opens and viewers, the caller's own rating, edit access.
 * Signed out (`signedIn` false) only the public part is asked for: no own rating, no edit access.
 */
export function useLessonMeta(jobId: string, signedIn = true) {
  const client = useQueryClient();
  const meta = useQuery({
    queryKey: ['job-meta', jobId],
    queryFn: () => playerApi.meta(jobId),
  });
  const stats = useQuery({
    queryKey: ['job-stats', jobId],
    queryFn: () => playerApi.stats(jobId),
  });
  const myStars = useQuery({
    queryKey: ['job-stars', jobId],
    queryFn: () => playerApi.myStars(jobId),
    enabled: signedIn,
  });
  const editAccess = useQuery({
    queryKey: ['edit-access', jobId],
    queryFn: () => playerApi.editAccess(jobId),
    enabled: signedIn,
  });
  const rate = useMutation({
    mutationFn: (stars: number) => playerApi.rate(jobId, stars),
    onSuccess: (summary, stars) => {
      client.setQueryData(['job-stars', jobId], { stars });
      client.setQueryData(['job-meta', jobId], (old: typeof meta.data) =>
        old ? { ...old, stars: summary.average, starsCount: summary.count } : old,
      );
    },
  });
  return {
    meta: meta.data,
    stats: stats.data,
    myStars: myStars.data?.stars ?? null,
    canEdit: editAccess.data?.canEdit ?? false,
    rate: (stars: number) => {
      rate.mutate(stars);
    },
    rating: rate.isPending,
  };
}

/** Records one open of the lesson per browser session (POST /api/job-load). */
export function useRecordLoad(jobId: string, ready: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!ready) return;
    const key = `riffscribe:job-load:${jobId}`;
    if (sessionStorage.getItem(key)) return;
    sessionStorage.setItem(key, '1');
    playerApi.recordLoad(jobId).then(
      () => client.invalidateQueries({ queryKey: ['job-stats', jobId] }),
      () => {
        sessionStorage.removeItem(key);
      },
    );
  }, [client, jobId, ready]);
}

/**
 * Refreshes the header's credit count once someone else's lesson has loaded: opening it may have
 * spent a view credit (the server spends it with the first notes it sends).
 */
export function useCreditsRefresh(loaded: boolean): void {
  const client = useQueryClient();
  useEffect(() => {
    if (loaded) void client.invalidateQueries({ queryKey: ['my-credits'] });
  }, [client, loaded]);
}
