import { steadyGrid, type BeatGrid } from '@riffscribe/core';
import { useMemo } from 'react';

/**
 * The lesson's beats and bars. Until the lesson carries its own, a steady 4/4 at 120 over the
 * video (the notation view's fallback; see issue 15).
 */
export function useBeatGrid(_jobId: string, duration: number): BeatGrid {
  return useMemo(() => steadyGrid(120, 4, Math.max(duration, 2)), [duration]);
}
