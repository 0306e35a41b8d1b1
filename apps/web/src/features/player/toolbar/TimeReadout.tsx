import { useSyncExternalStore } from 'react';
import type { PlaybackBus } from '../playback/playbackBus';
import { formatClock } from '../timeline/scale';

/** "0:12.3 / 1:05.0", refreshed ten times a second from the playback bus. */
export function TimeReadout(props: { bus: PlaybackBus; duration: number }) {
  const tenths = useSyncExternalStore(props.bus.subscribe, props.bus.getTenths);
  return (
    <span className="lp-time" aria-label="Time" data-testid="time-readout">
      {formatClock(Math.max(0, tenths) / 10, 1)}
      <span className="lp-time-total"> / {formatClock(props.duration, 1)}</span>
    </span>
  );
}
