import { defaultGrid, type BeatGrid, type BeatsResponse } from '@riffscribe/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { session } from '../../../api/session';

/**
 * The lesson's beats and bars (GET /api/beats: the owner's corrected grid for the edited version
 * where one was saved, else the engine's, or the server's steady 4/4 at 120 for a lesson without
 * one). Undefined while it loads; if it cannot be read, core's default grid over `duration`, so
 * the tab and the notation view always have bars to draw.
 */
export function useBeatGrid(
  jobId: string,
  edited: boolean,
  duration: number,
): {
  grid: BeatGrid | undefined;
  /** The grid shown is the other version's, kept while the tabs source switches. */
  switching: boolean;
} {
  const beats = useQuery({
    queryKey: ['beats', jobId, edited],
    queryFn: () =>
      session.api<BeatsResponse>(
        `/api/beats?jobId=${encodeURIComponent(jobId)}&edit_version=${String(edited)}`,
      ),
    staleTime: Infinity,
    retry: 1,
    // Switching the tabs source keeps the player on screen (as the notes do) until it arrives.
    placeholderData: (previous) => previous,
  });
  const failed = beats.isError;
  const fallback = useMemo(
    () => (failed ? defaultGrid(Math.max(duration, 1)) : undefined),
    [failed, duration],
  );
  return { grid: beats.data?.grid ?? fallback, switching: beats.isPlaceholderData };
}
