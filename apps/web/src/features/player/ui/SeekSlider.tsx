import { useSyncExternalStore } from 'react';
import type { PlaybackBus } from '../playback/playbackBus';
import { formatClock } from '../timeline/scale';

/** The seek slider under the tab: follows playback, seeks when moved. */
export function SeekSlider(props: {
  bus: PlaybackBus;
  duration: number;
  onSeek: (t: number) => void;
}) {
  const { bus, duration, onSeek } = props;
  const tenths = useSyncExternalStore(bus.subscribe, bus.getTenths);
  const value = Math.min(duration, Math.max(0, tenths / 10));
  return (
    <input
      className="lp-seek"
      type="range"
      aria-label="Seek"
      aria-valuetext={formatClock(value, 1)}
      min={0}
      max={duration || 0}
      step={0.01}
      value={value}
      disabled={duration <= 0}
      onChange={(e) => {
        onSeek(Number(e.target.value));
      }}
    />
  );
}
