/**
 * The playhead's time source. The video element is the master clock: every animation frame reads
 * its currentTime, so the tab can never drift from the picture. Chromium updates currentTime in
 * steps coarser than a frame at times, and a fresh value may land a hair behind what was shown;
 * this clock extrapolates between updates (at the playback rate, at most MAX_EXTRAPOLATION) and
 * never moves backwards by less than HOLD_BACK while playing, so the motion stays smooth.
 */
export const MAX_EXTRAPOLATION = 0.1;
export const HOLD_BACK = 0.05;

export class MediaClock {
  private raw = -1;
  private rawAt = 0;
  private shown = 0;

  /**
   * The time to draw at `nowMs` (performance.now()) given the element's current state.
   * Seconds of video time.
   */
  read(currentTime: number, nowMs: number, rate: number, playing: boolean): number {
    if (currentTime !== this.raw) {
      this.raw = currentTime;
      this.rawAt = nowMs;
    }
    let t = currentTime;
    if (playing) {
      const ahead = Math.min(((nowMs - this.rawAt) / 1000) * rate, MAX_EXTRAPOLATION);
      t = currentTime + Math.max(0, ahead);
      // A value slightly behind what was already shown is jitter, not a seek.
      if (t < this.shown && this.shown - t < HOLD_BACK) t = this.shown;
    }
    this.shown = t;
    return t;
  }

  /** After a seek, forget the smoothing so the new position shows at once. */
  reset(): void {
    this.raw = -1;
    this.shown = 0;
  }
}
