import { PITCH_STEPS_PER_FRET, VIBRATO_CENTS, VIBRATO_RATE_HZ } from '../constants.js';
import type { NoteEvent } from '../events.js';
import type { GuitarType } from '../guitar.js';
import { barStartTicks, placedNotes } from './export-meta.js';
import { soundingPitch, type NotationMeta } from './written.js';
import type { Score } from './score.js';
import { meta as smfMeta, textBytes, writeSmf, type SmfEvent } from './smf.js';

/**
 * The lesson as a Standard MIDI File (format 1, pure): a conductor track with the tempo map and
 * the time signatures from the score's bars, and one guitar track on channel 1 whose notes sit at
 * their slots' ticks with their written lengths (ties joined), so that the file lines up with the
 * notation and, through the tempo map, with the video. Tick 0 is the start of the score's first
 * bar (`score.bars[0].start` seconds into the video; before 0 when the music starts with a
 * pickup, after it when the first bar line comes later).
 */

/** General MIDI programs (0-based) per guitar type: nylon, steel, clean electric. */
export const GM_GUITAR_PROGRAM: Record<GuitarType, number> = {
  classical: 24,
  acoustic: 25,
  electric: 27,
};

/**
 * Pitch-bend range written to the file (RPN 0), in semitones either way. A bend preset goes up to
 * 3 frets and a pitch curve to +10/3 semitones, past the General MIDI default of 2; 12 keeps
 * any bend_to_fret a player can reach, at 683 steps a semitone.
 */
export const MIDI_BEND_RANGE = 12;
/** Velocity (0..1) of a picked note, of a hammer-on or pull-off, and of a dead note. */
export const MIDI_VELOCITY = { picked: 0.8, legato: 0.65, dead: 0.3 } as const;
/** A dead note sounds for a 32nd note at most: a short quiet click at its fretted pitch. */
const DEAD_NOTE_QUARTERS = 1 / 8;
/** Spacing of the pitch-bend events that draw a curve, in quarter notes (a 128th note). */
const BEND_STEP_QUARTERS = 1 / 32;
/** Tempo changes smaller than this (quarter notes a minute) write no new tempo event. */
const TEMPO_EPSILON = 0.01;

/**
 * The MIDI file of a score (see the module comment). `notes` are the notes given to `scoreOf`;
 * the meta's chords are not written (a chord name has no MIDI event).
 */
export function toMidi(score: Score, notes: readonly NoteEvent[], meta: NotationMeta): Uint8Array {
  const ppq = score.ticksPerQuarter;
  const starts = barStartTicks(score);
  const title = textBytes(utf8ByteString(meta.title));
  // The conductor track: the name, the tempo map and the time signatures of the bars.
  const conductor: SmfEvent[] = [{ tick: 0, bytes: smfMeta(0x03, title) }];
  let lastTempo: number | null = null;
  let lastSig: [number, number] | null = null;
  for (const [b, bar] of score.bars.entries()) {
    const tick = starts[b] ?? 0;
    if (lastTempo === null || Math.abs(lastTempo - bar.tempo) >= TEMPO_EPSILON) {
      const mpqn = Math.round(60_000_000 / bar.tempo);
      conductor.push({
        tick,
        bytes: smfMeta(0x51, [(mpqn >> 16) & 0xff, (mpqn >> 8) & 0xff, mpqn & 0xff]),
      });
      lastTempo = bar.tempo;
    }
    if (lastSig?.[0] !== bar.numerator || lastSig[1] !== bar.denominator) {
      const log2 = Math.round(Math.log2(bar.denominator));
      conductor.push({ tick, bytes: smfMeta(0x58, [bar.numerator, log2, 24, 8]) });
      lastSig = [bar.numerator, bar.denominator];
    }
  }
  if (lastTempo === null) conductor.push({ tick: 0, bytes: smfMeta(0x51, [0x07, 0xa1, 0x20]) });

  // The guitar: channel 1 (0), its General MIDI program.
  const guitar: SmfEvent[] = [
    { tick: 0, bytes: smfMeta(0x03, title) },
    { tick: 0, bytes: [0xc0, GM_GUITAR_PROGRAM[meta.guitar ?? 'acoustic']] },
  ];
  const cc = (tick: number, number: number, value: number) =>
    guitar.push({ tick, bytes: [0xb0, number, value & 0x7f] });
  // RPN 0 (pitch-bend sensitivity) = MIDI_BEND_RANGE semitones, then the null RPN: the
  // parameter chosen at tick 0, its value given at tick 1 and the selection closed at tick 2.
  cc(0, 101, 0);
  cc(0, 100, 0);
  cc(1, 6, MIDI_BEND_RANGE);
  cc(1, 38, 0);
  cc(2, 101, 127);
  cc(2, 100, 127);

  // Pitch bend is one value a channel: the latest event of a tick wins, so a bend that starts
  // where the previous bent note ends replaces that note's reset.
  const bends = new Map<number, number>();
  const deadTicks = Math.max(1, Math.round(ppq * DEAD_NOTE_QUARTERS));
  const velocity = (v: number) => Math.max(1, Math.min(127, Math.floor(v * 127)));
  // In tick order, each note's on before its off: at a tick where one note ends and the next
  // starts, the earlier note's off comes first.
  const inOrder = [...placedNotes(score)].sort((a, b) => a.tick - b.tick);
  for (const placed of inOrder) {
    const note = notes[placed.note];
    if (!note) continue;
    const midiPitch = soundingPitch(meta.tuning, meta.capo, note.string, note.fret);
    if (midiPitch < 0 || midiPitch > 127) continue;
    const legato = note.leading_hammer_on || note.leading_pull_off;
    const length = note.mute ? Math.min(placed.ticks, deadTicks) : placed.ticks;
    const v = note.mute ? MIDI_VELOCITY.dead : legato ? MIDI_VELOCITY.legato : MIDI_VELOCITY.picked;
    guitar.push({ tick: placed.tick, bytes: [0x90, midiPitch, velocity(v)] });
    guitar.push({ tick: placed.tick + length, bytes: [0x80, midiPitch, 0] });
    if (note.mute) continue;
    const curve = bendOf(note);
    if (!curve) continue;
    const step = Math.max(1, Math.round(ppq * BEND_STEP_QUARTERS));
    let last: number | null = null;
    for (let t = 0; t < placed.ticks; t += step) {
      const value = bendValue(curve(t / placed.ticks));
      if (value !== last) bends.set(placed.tick + t, value);
      last = value;
    }
    const end = placed.tick + placed.ticks;
    if (!bends.has(end)) bends.set(end, 0);
  }
  for (const [tick, value] of [...bends].sort((a, b) => a[0] - b[0])) {
    // The signed 14-bit value (-8192..8191) as the unsigned one of the event, LSB first.
    const raw = value + 8192;
    guitar.push({ tick, bytes: [0xe0, raw & 0x7f, (raw >> 7) & 0x7f] });
  }
  return writeSmf(ppq, [conductor, guitar]);
}

/**
 * A text as its UTF-8 bytes, one character a byte: @tonejs/midi writes a meta event's text one
 * byte a character (its low 8 bits), and MIDI readers take names as UTF-8 or Latin-1.
 */
export function utf8ByteString(text: string): string {
  try {
    return encodeURIComponent(text).replace(/%([0-9A-F]{2})/g, (_, hex: string) =>
      String.fromCharCode(parseInt(hex, 16)),
    );
  } catch {
    // A lone surrogate: keep what is ASCII.
    return text.replace(/[^\x20-\x7e]/g, '?');
  }
}

/** Semitones as the signed 14-bit pitch-bend value under MIDI_BEND_RANGE. */
export function bendValue(semitones: number): number {
  const raw = Math.round((semitones / MIDI_BEND_RANGE) * 8192);
  return Math.min(8191, Math.max(-8192, raw));
}

/**
 * A note's bend in semitones as a function of the place along its written length (0..1), or
 * null when it is not bent. The pitch curve when it moves (spread over the note, as the player
 * draws and plays it); else bend_to_fret and release_to_fret as a bend preset shapes them (up in
 * the first 3/8, back down to the release in the last 3/8); plus the spec's vibrato (a sine of
 * 15 or 35 cents at 6.5 Hz) when the note is marked with vibrato and its curve is flat.
 */
export function bendOf(note: NoteEvent): ((along: number) => number) | null {
  const pts = note.pitch_arr;
  const curved = pts.some((v) => Math.abs(v - 1) > 1e-6);
  const duration = Math.max(0, note.end_time - note.time);
  let shape: ((along: number) => number) | null = null;
  if (curved) {
    shape = (along) => {
      const pos = Math.min(1, Math.max(0, along)) * (pts.length - 1);
      const i = Math.floor(pos);
      const a = pts[i] ?? 1;
      const b = pts[Math.min(i + 1, pts.length - 1)] ?? a;
      return (a + (b - a) * (pos - i) - 1) / PITCH_STEPS_PER_FRET;
    };
  } else if (note.bend_to_fret !== null && note.bend_to_fret !== note.fret) {
    const top = note.bend_to_fret - note.fret;
    const release = note.release_to_fret === null ? null : note.release_to_fret - note.fret;
    shape = (along) => {
      const rise = Math.min(1, (along * 8) / 3);
      if (release === null) return top * rise;
      const fall = Math.min(1, ((1 - along) * 8) / 3);
      return rise <= fall ? top * rise : release + (top - release) * fall;
    };
  }
  const depth = note.vibrato && !curved ? VIBRATO_CENTS[note.vibrato] / 100 : 0;
  if (!shape && depth === 0) return null;
  const base = shape ?? (() => 0);
  if (depth === 0) return base;
  return (along) =>
    base(along) +
    depth *
      Math.min(1, (along * duration) / 0.15) *
      Math.sin(2 * Math.PI * VIBRATO_RATE_HZ * along * duration);
}
