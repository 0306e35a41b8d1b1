import { describe, expect, it } from 'vitest';
import type { DetectedNote } from '../types.js';
import { midi, midiToHz, SAMPLE_RATE, seconds } from '../units.js';
import { glideLinks, heardGliding } from './glide-links.js';

type Voice = (t: number) => number | null;

/**
 * Harmonic tones, one per `pitchAt` (MIDI, or null where silent) at its gain (1 by default),
 * summed, `seconds` long.
 */
function clip(seconds: number, ...voices: (Voice | [Voice, number])[]): Float32Array {
  const out = new Float32Array(Math.round(seconds * SAMPLE_RATE));
  for (const voice of voices) {
    const [pitchAt, gain] = Array.isArray(voice) ? voice : [voice, 1];
    let phase = 0;
    for (let i = 0; i < out.length; i++) {
      const p = pitchAt(i / SAMPLE_RATE);
      if (p === null) continue;
      phase += (2 * Math.PI * midiToHz(p)) / SAMPLE_RATE;
      let v = 0;
      for (let h = 1; h <= 5; h++) v += Math.sin(h * phase) / h;
      out[i] = (out[i] ?? 0) + 0.2 * gain * v;
    }
  }
  return out;
}

/** Smoothstep from `a` to `b` over [t0, t0 + d]. */
const glide = (a: number, b: number, t0: number, d: number) => (t: number) => {
  const x = Math.min(1, Math.max(0, (t - t0) / d));
  return a + (b - a) * x * x * (3 - 2 * x);
};

const note = (time: number, endTime: number, pitch: number): DetectedNote => ({
  time: seconds(time),
  endTime: seconds(endTime),
  pitch: midi(pitch),
  amplitude: 0.8,
  onset: 0.8,
  bend: [],
});

describe('glideLinks', () => {
  // A line of two notes: 60 until 0.48 s, 64 from 0.5 s; the clip moves between them at 0.44 s.
  const line = [note(0.1, 0.48, 60), note(0.5, 1.0, 64)];

  it('links a note the clip slides to with the note it slides from', () => {
    const audio = clip(1.1, glide(60, 64, 0.44, 0.06));
    expect([...glideLinks(line, audio)]).toEqual([[1, { from: 0, slide: true }]]);
  });

  it('calls a slow glide within a bend a bend, not a slide', () => {
    const audio = clip(1.1, glide(60, 62, 0.4, 0.1));
    const bent = [note(0.1, 0.48, 60), note(0.5, 1.0, 62)];
    expect([...glideLinks(bent, audio)]).toEqual([[1, { from: 0, slide: false }]]);
  });

  it('does not link a step (a hammer-on or a new pick), nor two notes without audio', () => {
    const audio = clip(1.1, (t) => (t < 0.47 ? 60 : 64));
    expect(glideLinks(line, audio).size).toBe(0);
    expect(glideLinks(line, new Float32Array(0)).size).toBe(0);
  });

  it('does not read the way where a chord changes or a note sounds on it', () => {
    const audio = clip(1.1, glide(60, 64, 0.44, 0.06), (t) => (t >= 0.45 ? 45 : null));
    // A bass note struck inside the junction: a chord changing.
    expect(glideLinks([...line, note(0.45, 1.0, 45)], audio).size).toBe(0);
    // A string ringing across it at a pitch on the way (62): its period is in the search.
    const ringing = clip(1.1, glide(60, 64, 0.44, 0.06), () => 62);
    expect(glideLinks([...line, note(0.05, 1.0, 62)], ringing).size).toBe(0);
    // ... while one ringing on, softer, an octave below is no harm.
    const below = clip(1.1, glide(60, 64, 0.44, 0.06), [() => 48, 0.3]);
    expect([...glideLinks([...line, note(0.05, 1.0, 48)], below)]).toEqual([
      [1, { from: 0, slide: true }],
    ]);
  });

  it('does not link where the line went on elsewhere in between (an arpeggio)', () => {
    const audio = clip(1.1, glide(60, 64, 0.44, 0.06), (t) => (t >= 0.25 && t < 0.35 ? 67 : null));
    expect(glideLinks([...line, note(0.25, 0.35, 67)], audio).size).toBe(0);
  });
});

describe('heardGliding', () => {
  it('asks for the pitch heard in the middle of the way, not a ramp alone', () => {
    // A fast slide read from the middle of the way, and the same time read from a ramp only (a
    // window straddling two picked notes on two strings can show one).
    const heard = { glideSeconds: 0.04, voiced: 50, middle: 8, rampSeconds: 0 };
    expect(heardGliding(heard, 0.024)).toBe(true);
    expect(heardGliding({ ...heard, middle: 1, rampSeconds: 0.04 }, 0.024)).toBe(false);
    expect(heardGliding({ ...heard, glideSeconds: 0.01 }, 0.024)).toBe(false);
  });
});
