import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, loopFrom, loopTarget, settingsReducer, stepSpeed } from './playerState';

const run = (...actions: Parameters<typeof settingsReducer>[1][]) =>
  actions.reduce(settingsReducer, DEFAULT_SETTINGS);

describe('player settings', () => {
  it('steps through the allowed speeds and stops at the ends', () => {
    expect(stepSpeed(1, 1)).toBe(1.25);
    expect(stepSpeed(0.25, -1)).toBe(0.25);
    expect(stepSpeed(2, 1)).toBe(2);
    expect(run({ type: 'setSpeed', speed: 0.6 }).speed).toBe(0.5);
    expect(run({ type: 'stepSpeed', by: -1 }, { type: 'stepSpeed', by: -1 }).speed).toBe(0.5);
  });

  it('clamps zoom 10..600 by wheel and 50..200 by slider', () => {
    expect(run({ type: 'zoomWheel', zoom: 5 }).zoom).toBe(10);
    expect(run({ type: 'zoomWheel', zoom: 900 }).zoom).toBe(600);
    expect(run({ type: 'zoomSlider', zoom: 20 }).zoom).toBe(50);
    expect(run({ type: 'zoomSlider', zoom: 500 }).zoom).toBe(200);
    expect(DEFAULT_SETTINGS.zoom).toBe(100);
  });

  it('sets a 2 s loop from now, toggles it off, clears it', () => {
    const on = run({ type: 'toggleLoop', now: 3, duration: 30 });
    expect(on.loop).toEqual({ start: 3, end: 5 });
    expect(settingsReducer(on, { type: 'toggleLoop', now: 9, duration: 30 }).loop).toBeNull();
    expect(settingsReducer(on, { type: 'clearLoop' }).loop).toBeNull();
    expect(loopFrom(29, 30)).toEqual({ start: 29, end: 30 });
    expect(loopFrom(30, 30)).toBeNull();
  });

  it('sets a given loop (the review queue’s) unless it is shorter than 0.05 s', () => {
    expect(run({ type: 'setLoop', loop: { start: 4.1, end: 6.1 } }).loop).toEqual({
      start: 4.1,
      end: 6.1,
    });
    expect(run({ type: 'setLoop', loop: { start: 4, end: 4.01 } }).loop).toBeNull();
  });

  it('sends playback back to the loop start at the loop end', () => {
    expect(loopTarget({ start: 3, end: 5 }, 5.01)).toBe(3);
    expect(loopTarget({ start: 3, end: 5 }, 4.9)).toBeNull();
    expect(loopTarget(null, 99)).toBeNull();
  });

  it('refuses the guitar source without a stem file', () => {
    expect(
      run({ type: 'setAudioSource', source: 'guitar', stemAvailable: false }).audioSource,
    ).toBe('original');
    expect(run({ type: 'setAudioSource', source: 'guitar', stemAvailable: true }).audioSource).toBe(
      'guitar',
    );
  });

  it('clamps synth controls and loads a preset mix', () => {
    const s = run(
      { type: 'setSynth', patch: { highPassHz: 10, cabLowPassHz: 20_000, compressorRatio: 40 } },
      { type: 'setSynth', patch: { compressorThresholdDb: -80 } },
    ).synth;
    expect([s.highPassHz, s.cabLowPassHz, s.compressorRatio, s.compressorThresholdDb]).toEqual([
      40, 12_000, 12, -36,
    ]);
    expect(DEFAULT_SETTINGS.synth).toMatchObject({
      highPassHz: 90,
      cabLowPassHz: 5500,
      compressorThresholdDb: -18,
      compressorRatio: 3,
    });
    expect(run({ type: 'setSynth', patch: { preset: 'electric' } }).synth.drive).toBeGreaterThan(0);
  });

  it('keeps the video zoom in 1.0..5.0 steps of 0.1', () => {
    expect(run({ type: 'setVideoZoom', zoom: 1.1000001 }).videoZoom).toBe(1.1);
    expect(run({ type: 'setVideoZoom', zoom: 9 }).videoZoom).toBe(5);
    expect(run({ type: 'setVideoZoom', zoom: 0 }).videoZoom).toBe(1);
  });
});
