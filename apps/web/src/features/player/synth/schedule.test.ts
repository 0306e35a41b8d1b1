import { DEFAULT_TUNING } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import { buildNoteIndex } from '../model/noteIndex';
import { curve, note } from '../testing/notes';
import {
  MUTED_SECONDS,
  audioTimeFor,
  curveWobbleCents,
  detuneCurve,
  midiToHz,
  scheduleWindow,
  startingBetween,
  voiceFor,
} from './schedule';

describe('synth voices', () => {
  it('plays open string + capo + fret at the right frequency', () => {
    const index = buildNoteIndex([
      note({ time: 0, string: 5, fret: 0 }),
      note({ time: 1, string: 1, fret: 5 }),
    ]);
    expect(voiceFor(index, 0, DEFAULT_TUNING, 0)?.frequency).toBeCloseTo(110, 6);
    expect(voiceFor(index, 1, DEFAULT_TUNING, 2)?.midi).toBe(71);
    expect(midiToHz(69)).toBe(440);
  });

  it('follows a full bend of the pitch curve: 200 cents at the top', () => {
    const n = note({
      time: 0,
      end_time: 1,
      pitch_arr: curve(1, (t) => (t < 0.5 ? 1 + 12 * t : 7)),
    });
    const d = detuneCurve(n);
    expect(d[0]).toBeCloseTo(0, 3);
    expect(d[d.length - 1]).toBeCloseTo(200, 3);
    expect(d[Math.round((d.length - 1) * 0.25)]).toBeCloseTo(100, -1);
  });

  it('adds the spec vibrato (small 15, big 35 cents at 6.5 Hz) to a flat curve', () => {
    const big = detuneCurve(note({ time: 0, end_time: 1, vibrato: 'big' }));
    const small = detuneCurve(note({ time: 0, end_time: 1, vibrato: 'small' }));
    expect(Math.max(...big)).toBeCloseTo(35, 0);
    expect(Math.max(...small)).toBeCloseTo(15, 0);
    // 6.5 Hz over 1 s: 13 zero crossings, give or take the ends.
    let crossings = 0;
    for (let k = 1; k < big.length; k += 1) if (big[k - 1]! < 0 !== big[k]! < 0) crossings += 1;
    expect(crossings).toBeGreaterThanOrEqual(12);
    expect(crossings).toBeLessThanOrEqual(14);
    expect(detuneCurve(note({ time: 0 }))).toHaveLength(0);
  });

  it('does not double a vibrato the curve already carries', () => {
    const wobble = curve(1, (t) => 1 + 1.05 * Math.sin(2 * Math.PI * 6.5 * t));
    const n = note({ time: 0, end_time: 1, vibrato: 'big', pitch_arr: wobble });
    expect(curveWobbleCents(n)).toBeGreaterThan(20);
    const d = detuneCurve(n);
    expect(Math.max(...d)).toBeCloseTo(35, -1);
    expect(Math.max(...d)).toBeLessThan(40);
  });

  it('plays muted notes as short clicks', () => {
    const v = voiceFor(
      buildNoteIndex([note({ time: 0, end_time: 1, mute: true })]),
      0,
      DEFAULT_TUNING,
      0,
    );
    expect(v?.duration).toBe(MUTED_SECONDS);
    expect(v?.muted).toBe(true);
  });
});

describe('scheduling', () => {
  const index = buildNoteIndex(
    [0, 0.5, 1, 1.5, 2].map((time) => note({ time, end_time: time + 0.4 })),
  );

  it('picks the notes starting in a stretch of video time', () => {
    expect(startingBetween(index, 0.5, 1.5)).toEqual([1, 2]);
    expect(startingBetween(index, 0.6, 0.9)).toEqual([]);
  });

  it('maps video time to the audio clock at the playback speed', () => {
    expect(audioTimeFor(3, { media: 2, audio: 10 }, 0.5)).toBe(12);
    const s = scheduleWindow({
      index,
      tuning: DEFAULT_TUNING,
      capo: 0,
      from: 0.9,
      to: 2.1,
      anchor: { media: 1, audio: 50 },
      speed: 0.5,
    });
    expect(s.map((v) => v.startAt)).toEqual([50, 51, 52]);
    expect(s[0]!.length).toBeCloseTo(0.8, 9);
  });

  it('never schedules in the past', () => {
    const [first] = scheduleWindow({
      index,
      tuning: DEFAULT_TUNING,
      capo: 0,
      from: 0.45,
      to: 0.6,
      anchor: { media: 0.52, audio: 7 },
      speed: 1,
    });
    expect(first!.startAt).toBe(7);
  });
});
