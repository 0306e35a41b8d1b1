import { defaultGrid, type BeatGrid, type BeatsResponse } from '@riffscribe/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { session } from '../../../api/session';

/**
 * The lesson's beats and bars (GET /api/beats: the engine's grid, or the server's steady 4/4 at
 * 120 for a lesson without one). Until it arrives, or if it cannot be read, core's default grid
 * over the video, so the notation view always has bars to draw.
 */
export function useBeatGrid(jobId: string, duration: number): BeatGrid {
  const beats = useQuery({
    queryKey: ['beats', jobId],
    queryFn: () => session.api<BeatsResponse>(`/api/beats?jobId=${encodeURIComponent(jobId)}`),
    staleTime: Infinity,
    retry: 1,
  });
  const fallback = useMemo(() => defaultGrid(duration), [duration]);
  return beats.data?.grid ?? fallback;
}
