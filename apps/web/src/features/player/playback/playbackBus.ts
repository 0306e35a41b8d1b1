import type { NoteIndex } from '../model/noteIndex';
import type { TimelineOverlay } from '../timeline/renderer';

/**
 * Per-frame instrumentation the benchmarks switch on (window.__RIFFSCRIBE_PERF__, set by
 * e2e/support/frames.ts before the page loads). Off, it costs one property read per frame.
 */
export interface PerfLog {
  /** performance.now() at each animation frame. */
  frames: number[];
  /** Milliseconds of player work (clock, sounding notes, drawing) in each frame. */
  work: number[];
  /**
   * Each time the timeline finished drawing: when, and the notes and editor overlay it drew (the
   * edit benchmark, e2e/player-edit-bench.test.ts, finds the first draw that shows an edit).
   */
  draws?: TimelineDraw[];
}

export interface TimelineDraw {
  /** performance.now() right after the draw. */
  at: number;
  index: NoteIndex;
  overlay: TimelineOverlay | null;
}

export function perfLog(): PerfLog | null {
  const w = window as unknown as { __RIFFSCRIBE_PERF__?: PerfLog };
  return w.__RIFFSCRIBE_PERF__ ?? null;
}

/**
 * The playhead's per-frame state, published by the animation loop and read by the canvases
 * (every frame) and by React views (only when what they show changes, through
 * useSyncExternalStore), so that playback never re-renders the page sixty times a second.
 */
export class PlaybackBus {
  time = 0;
  playing = false;
  sounding: readonly number[] = [];
  private soundingKey = '';
  private tenths = -1;
  private readonly frameListeners = new Set<() => void>();
  private readonly changeListeners = new Set<() => void>();

  publish(time: number, sounding: readonly number[], playing: boolean): void {
    const key = sounding.join(',');
    const tenths = Math.floor(time * 10);
    const changed = key !== this.soundingKey || playing !== this.playing || tenths !== this.tenths;
    this.time = time;
    this.playing = playing;
    if (key !== this.soundingKey) this.sounding = sounding;
    this.soundingKey = key;
    this.tenths = tenths;
    for (const l of this.frameListeners) l();
    if (changed) for (const l of this.changeListeners) l();
  }

  /** Called on every animation frame (canvases). */
  onFrame(listener: () => void): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  /** Called when the sounding notes, play state or the time's tenth of a second change. */
  subscribe = (listener: () => void): (() => void) => {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  };

  /** Time rounded down to tenths of a second: a stable snapshot for readouts. */
  getTenths = () => this.tenths;
  getSounding = () => this.sounding;
}
