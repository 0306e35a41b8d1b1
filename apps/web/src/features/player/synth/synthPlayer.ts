import type { Tuning } from '@riffscribe/core';
import type { NoteIndex } from '../model/noteIndex';
import { scheduleWindow, type ScheduledVoice } from './schedule';

/** How far ahead of the video voices are handed to the audio clock, seconds of audio time. */
export const LOOKAHEAD_SECONDS = 0.2;
/** Video and audio clocks further apart than this are re-anchored (and pending voices dropped). */
const RESYNC_SECONDS = 0.06;

/** What the scheduler needs of the audio side (the Tone.js engine in the app). */
export interface VoiceSink {
  now(): number;
  play(voice: ScheduledVoice): void;
  stopAll(): void;
}

/**
 * Feeds the synth from the video: called every few tens of milliseconds with the video's time,
 * it hands over the notes that start within the look-ahead, each at its exact audio-clock time.
 * A seek, pause or speed change drops what was scheduled and starts again from the new place.
 */
export class SynthScheduler {
  private anchor: { media: number; audio: number } | null = null;
  private scheduledUntil = 0;
  private speed = 1;
  private handedOver = 0;

  constructor(
    private readonly sink: VoiceSink,
    private lesson: { index: NoteIndex; tuning: Tuning; capo: number },
  ) {}

  setLesson(lesson: { index: NoteIndex; tuning: Tuning; capo: number }): void {
    this.lesson = lesson;
    this.reset();
  }

  /** Voices handed to the sink since this scheduler was made (the player shows it for tests). */
  get scheduled(): number {
    return this.handedOver;
  }

  /** Forget the schedule: silence now and start over at the next tick. */
  reset(): void {
    if (this.anchor) this.sink.stopAll();
    this.anchor = null;
  }

  tick(mediaTime: number, speed: number, playing: boolean): void {
    if (!playing) {
      this.reset();
      return;
    }
    const audioNow = this.sink.now();
    const predicted = this.anchor
      ? this.anchor.media + (audioNow - this.anchor.audio) * this.speed
      : Number.NaN;
    if (
      !this.anchor ||
      speed !== this.speed ||
      !(Math.abs(predicted - mediaTime) < RESYNC_SECONDS)
    ) {
      this.reset();
      this.anchor = { media: mediaTime, audio: audioNow + 0.02 };
      this.speed = speed;
      this.scheduledUntil = mediaTime;
    }
    const to = mediaTime + LOOKAHEAD_SECONDS * speed;
    if (to <= this.scheduledUntil) return;
    const voices = scheduleWindow({
      ...this.lesson,
      from: this.scheduledUntil,
      to,
      anchor: this.anchor,
      speed,
    });
    for (const v of voices) {
      this.sink.play(v);
      this.handedOver += 1;
    }
    this.scheduledUntil = to;
  }
}
