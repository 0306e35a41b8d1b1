import { TUNING_PRESETS } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import { midiFileBytes } from './midi-file.js';
import { guitaristVoicing } from './idioms.js';
import { soundfontRecipes, soundfontScore, type SoundfontPart } from './recipes.js';
import { DEAD_CHANNEL, MUTED_GUITAR_PROGRAM } from './performance-midi.js';

/** The SoundFont corpus's scores and answers, without FluidSynth (nothing is rendered here). */

const parts: SoundfontPart[] = ['tuned', 'held'];

describe('SoundFont corpus recipes', () => {
  it('are deterministic: the same seed gives the same notes, chords and MIDI bytes', () => {
    for (const part of parts) {
      for (const r of soundfontRecipes(part)) {
        const a = soundfontScore(r);
        const b = soundfontScore({ ...r });
        expect(b.truth).toEqual(a.truth);
        expect(Buffer.from(midiFileBytes(b.midi)).equals(Buffer.from(midiFileBytes(a.midi)))).toBe(
          true,
        );
      }
    }
  });

  it('gives different notes for a different seed', () => {
    const r = soundfontRecipes('tuned')[0];
    if (r === undefined) throw new Error('no recipes');
    const other = soundfontScore({ ...r, seed: r.seed + 1 });
    expect(other.truth.notes).not.toEqual(soundfontScore(r).truth.notes);
  });

  it('keeps the held part apart: other names, other seeds', () => {
    const tuned = soundfontRecipes('tuned');
    const held = soundfontRecipes('held');
    const names = [...tuned, ...held].map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
    const tunedSeeds = new Set(tuned.map((r) => r.seed));
    for (const r of held) expect(tunedSeeds.has(r.seed)).toBe(false);
  });

  it('covers the GM guitars, the seven tunings and a capo in each part', () => {
    for (const part of parts) {
      const recipes = soundfontRecipes(part);
      expect(new Set(recipes.map((r) => r.program))).toEqual(new Set([24, 25, 26, 27, 28, 29, 30]));
      expect(new Set(recipes.map((r) => r.tuning))).toEqual(
        new Set(TUNING_PRESETS.map((t) => t.id)),
      );
      expect(recipes.some((r) => r.capo > 0)).toBe(true);
      expect(new Set(recipes.map((r) => r.effects.codec))).toEqual(
        new Set(['none', 'opus', 'aac']),
      );
    }
  });

  it('writes answers in the spec format that agree with the MIDI notes', () => {
    for (const part of parts) {
      const all = soundfontRecipes(part).map(soundfontScore);
      const notes = all.flatMap((s) => s.truth.notes);
      expect(notes.some((n) => n.bend_to_fret !== null && n.release_to_fret !== null)).toBe(true);
      expect(notes.some((n) => n.vibrato === 'small')).toBe(true);
      expect(notes.some((n) => n.vibrato === 'big')).toBe(true);
      for (const flag of [
        'leading_slide',
        'leading_hammer_on',
        'leading_pull_off',
        'mute',
      ] as const)
        expect(notes.some((n) => n[flag])).toBe(true);
      expect(all.some((s) => s.truth.openStrumNotes.length > 0)).toBe(true);
      for (const s of all) {
        const events = s.midi.tracks.flat();
        // Every dead note is a note-on on the muted-guitar channel at its time (1 tick = 1 ms).
        const dead = events.filter((e) => e.type === 'noteOn' && e.channel === DEAD_CHANNEL);
        expect(dead.length).toBe(s.truth.notes.filter((n) => n.mute).length);
        expect(
          events.some(
            (e) =>
              e.type === 'programChange' &&
              e.channel === DEAD_CHANNEL &&
              e.program === MUTED_GUITAR_PROGRAM,
          ),
        ).toBe(true);
        for (const n of s.truth.notes) {
          expect(n.fret).toBeGreaterThanOrEqual(0);
          // A slide needs a finger on the string: it neither leaves nor reaches an open string.
          if (n.leading_slide || n.trailing_slide) expect(n.fret).toBeGreaterThanOrEqual(1);
          expect(n.pitch_arr.length).toBe(Math.floor(((n.end_time - n.time) * 22050) / 256) + 1);
          if (n.mute) continue;
          const tick = Math.round(n.time * 1000);
          const at = (type: string) =>
            events.some(
              (e) =>
                e.type === type &&
                'channel' in e &&
                e.channel === n.string - 1 &&
                Math.abs(e.tick - tick) <= 1,
            );
          // A picked note starts a MIDI note on its string's channel; a slurred or slid one goes
          // on ringing, the pitch wheel moving to its fret (issue 39: no new pick's attack).
          if (n.leading_slide || n.leading_hammer_on || n.leading_pull_off) {
            if (!n.leading_slide) expect(at('pitchBend') || at('noteOn')).toBe(true);
          } else expect(at('noteOn')).toBe(true);
        }
      }
    }
  });
});

describe('guitaristVoicing', () => {
  it('plays open shapes above a capo, the same shapes in Half Down and barres in open tunings', () => {
    // Capo 2: a sounding A is the open G shape.
    expect(guitaristVoicing('standard', 2)('A')).toEqual([3, 2, 0, 0, 0, 3]);
    // Half Down: a sounding Eb is the open E shape.
    expect(guitaristVoicing('half-down', 0)('Eb')).toEqual([0, 2, 2, 1, 0, 0]);
    // Open G: G open, C a barre at 5.
    expect(guitaristVoicing('open-g', 0)('G')).toEqual([0, 0, 0, 0, 0, 0]);
    expect(guitaristVoicing('open-g', 0)('C')).toEqual([5, 5, 5, 5, 5, 5]);
    expect(guitaristVoicing('dadgad', 0)('Gsus4')).toEqual([5, 5, 5, 5, 5, 5]);
    // Standard, no open shape: an F is an E-shape barre at the first fret.
    expect(guitaristVoicing('standard', 0)('F')).toEqual([1, 3, 3, 2, 1, 1]);
  });
});
