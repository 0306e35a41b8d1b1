import { DEFAULT_TUNING } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import { buildNoteIndex } from '../model/noteIndex';
import { note } from '../testing/notes';
import type { ScheduledVoice } from './schedule';
import { SynthScheduler, type VoiceSink } from './synthPlayer';

/** An audio clock the test moves by hand, keeping what it was asked to play. */
class ManualClock implements VoiceSink {
  time = 100;
  played: ScheduledVoice[] = [];
  stops = 0;
  now() {
    return this.time;
  }
  play(v: ScheduledVoice) {
    this.played.push(v);
  }
  stopAll() {
    this.stops += 1;
  }
}

const index = buildNoteIndex(
  [0, 0.1, 0.2, 0.3, 1, 2].map((time) => note({ time, end_time: time + 0.1 })),
);

describe('synth scheduler', () => {
  it('hands over each note once, ahead of time, at its audio-clock start', () => {
    const clock = new ManualClock();
    const s = new SynthScheduler(clock, { index, tuning: DEFAULT_TUNING, capo: 0 });
    for (let k = 0; k <= 20; k += 1) {
      clock.time = 100 + k * 0.025;
      s.tick(k * 0.025, 1, true);
    }
    expect(clock.played.map((v) => v.voice.note)).toEqual([0, 1, 2, 3]);
    expect(s.scheduled).toBe(4);
    const starts = clock.played.map((v) => v.startAt - clock.played[0]!.startAt);
    starts.forEach((d, k) => {
      expect(d).toBeCloseTo([0, 0.1, 0.2, 0.3][k]!, 6);
    });
  });

  it('starts over after a seek and stretches time at half speed', () => {
    const clock = new ManualClock();
    const s = new SynthScheduler(clock, { index, tuning: DEFAULT_TUNING, capo: 0 });
    s.tick(0, 1, true);
    clock.time += 0.025;
    s.tick(1.95, 0.5, true);
    expect(clock.stops).toBe(1);
    const last = clock.played.at(-1)!;
    expect(last.voice.note).toBe(5);
    expect(last.startAt - clock.time).toBeCloseTo(0.02 + 0.1, 6);
    expect(last.length).toBeCloseTo(0.2, 6);
  });

  it('falls silent on pause', () => {
    const clock = new ManualClock();
    const s = new SynthScheduler(clock, { index, tuning: DEFAULT_TUNING, capo: 0 });
    s.tick(0, 1, true);
    s.tick(0.01, 1, false);
    expect(clock.stops).toBe(1);
  });
});
