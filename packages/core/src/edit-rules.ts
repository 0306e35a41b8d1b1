import {
  ANALYSIS_HOP,
  ANALYSIS_SAMPLE_RATE,
  FRET_MAX,
  FRET_MIN,
  GENERATED_CURVE_POINTS,
  MAX_CHORD_NAME,
  MIN_CHORD_SECONDS,
  MIN_NOTE_SECONDS,
  NEW_CHORD_SECONDS,
  NEW_NOTE_SECONDS,
  NOTE_NUDGE_SECONDS,
  NOTE_NUDGE_SHIFT_FACTOR,
  NOTE_WITHOUT_END_SECONDS,
  PITCH_POINT_MAX,
  PITCH_POINT_MIN,
  PITCH_STEPS_PER_FRET,
  STRING_COUNT,
} from './constants.js';
import { clamp, plainNote, type ChordEvent, type NoteEvent } from './events.js';
import { openStringPitch, type Tuning } from './guitar.js';

/**
 * The editing rules of spec section 5 "Notes and chords" (and the techniques of section 4), as
 * pure functions shared by the player's editor and the server's validation. Times in seconds,
 * `duration` is the video's length in seconds. Every function returns a new event (never
 * mutates) or null when the rule refuses the edit.
 */

/** Two digits typed within this many milliseconds make one fret (1 then 2 is 12), as in Guitar Pro. */
export const FRET_DIGIT_WINDOW_MS = 800;
/** The most a pitch-curve point may be dragged from unbent, in semitones (spec section 5). */
export const PITCH_DRAG_SEMITONES = 3;

/** A fret as typed: blank means none (null), anything else is rounded and clamped to 0..24. */
export function parseFretEntry(text: string): number | null {
  const t = text.trim();
  if (t === '') return null;
  const n = Number(t);
  if (!Number.isFinite(n)) return null;
  return clamp(Math.round(n), FRET_MIN, FRET_MAX);
}

/** A fret clamped to 0..24 (whole frets). */
export const clampFret = (fret: number) => clamp(Math.round(fret), FRET_MIN, FRET_MAX);

/** A string clamped to 1..6. */
export const clampString = (string: number) => clamp(Math.round(string), 1, STRING_COUNT);

/** A time clamped to 0..duration. */
export const clampTime = (time: number, duration: number) => clamp(time, 0, Math.max(0, duration));

/** A note's end as the player counts it: a note without an end lasts 0.3 s. */
export function noteEnd(note: { time: number; end_time?: number | null }): number {
  const end = note.end_time;
  return typeof end === 'number' && Number.isFinite(end) && end > note.time
    ? end
    : note.time + NOTE_WITHOUT_END_SECONDS;
}

/** The digit typed before, while a second one may still join it. */
export interface PendingFret {
  digit: number;
  /** When it was typed, ms on any monotonic clock. */
  at: number;
}

/**
 * Fret entry by digits: a digit typed within FRET_DIGIT_WINDOW_MS of a first one (1 or 2) joins
 * it (1, 2 -> 12), clamped to 24 as the spec clamps every fret entry (2, 9 -> 24); otherwise it
 * starts again. `fret` is what to set now; `pending` what the next digit may join.
 */
export function typeFretDigit(
  pending: PendingFret | null,
  digit: number,
  now: number,
): { fret: number; pending: PendingFret | null } {
  const d = clamp(Math.round(digit), 0, 9);
  if (pending && now - pending.at <= FRET_DIGIT_WINDOW_MS) {
    if (pending.digit > 0) return { fret: clampFret(pending.digit * 10 + d), pending: null };
  }
  // A digit that can start a two-digit fret (1 or 2) waits for a second one.
  return { fret: d, pending: d >= 1 && d <= 2 ? { digit: d, at: now } : null };
}

/**
 * The note with another fret (clamped 0..24); null frets (a blank entry) change nothing. A bend
 * keeps its size: its target and release move with the fret (a note bent +2 from 7 to 9, retyped
 * to 5, bends from 5 to 7), as the pitch curve, relative to the fret, says.
 */
export function setFret(note: NoteEvent, fret: number | null): NoteEvent {
  if (fret === null) return note;
  const f = clampFret(fret);
  if (f === note.fret) return note;
  const shift = f - note.fret;
  return {
    ...note,
    fret: f,
    bend_to_fret: note.bend_to_fret === null ? null : clampFret(note.bend_to_fret + shift),
    release_to_fret: note.release_to_fret === null ? null : clampFret(note.release_to_fret + shift),
  };
}

/**
 * The note moved to another string (clamped 1..6) at the same pitch. Accepted only if the fret
 * that keeps the pitch is a whole number from 0 to 24; null otherwise. Frets are relative to the
 * capo on every string, so the capo does not change the answer.
 */
export function moveToString(note: NoteEvent, string: number, tuning: Tuning): NoteEvent | null {
  const to = clampString(string);
  if (to === note.string) return note;
  const fret = note.fret + openStringPitch(tuning, note.string) - openStringPitch(tuning, to);
  if (!Number.isInteger(fret) || fret < FRET_MIN || fret > FRET_MAX) return null;
  const shift = fret - note.fret;
  const bendTo = note.bend_to_fret === null ? null : note.bend_to_fret + shift;
  const release = note.release_to_fret === null ? null : note.release_to_fret + shift;
  return {
    ...note,
    string: to,
    fret,
    bend_to_fret: bendTo === null ? null : clampFret(bendTo),
    release_to_fret: release === null ? null : clampFret(release),
  };
}

/**
 * The note one string lower (`by` 1, the next string's number) or higher (-1) at the same pitch,
 * or why it cannot go: there is no string on that side ('no-string'), or the pitch needs a fret
 * outside 0..24 there ('no-fret').
 */
export function moveByString(
  note: NoteEvent,
  by: 1 | -1,
  tuning: Tuning,
): NoteEvent | 'no-string' | 'no-fret' {
  const to = note.string + by;
  if (to < 1 || to > STRING_COUNT) return 'no-string';
  return moveToString(note, to, tuning) ?? 'no-fret';
}

/**
 * A new note where the user asked for it: 0.1 s long, capped by the video's duration, starting no
 * later than 0.05 s before the end so that it keeps the minimum length.
 */
export function newNote(time: number, string: number, fret: number, duration: number): NoteEvent {
  const start = clampTime(time, Math.max(0, duration - MIN_NOTE_SECONDS));
  const end = Math.min(start + NEW_NOTE_SECONDS, Math.max(duration, start + MIN_NOTE_SECONDS));
  return plainNote({
    time: start,
    end_time: end,
    string: clampString(string),
    fret: clampFret(fret),
  });
}

/** The nudge step: 0.05 s, four times that with Shift. */
export const nudgeStep = (shift: boolean) =>
  NOTE_NUDGE_SECONDS * (shift ? NOTE_NUDGE_SHIFT_FACTOR : 1);

/**
 * Moves events by `by` seconds keeping their lengths, stopping at 0 and at the video's end.
 * Works on notes and chords alike.
 */
export function shiftTime<T extends { time: number; end_time: number }>(
  event: T,
  by: number,
  duration: number,
): T {
  const length = event.end_time - event.time;
  const time = clamp(event.time + by, 0, Math.max(0, duration - length));
  const rounded = Math.round(time * 1e6) / 1e6;
  if (rounded === event.time) return event;
  return { ...event, time: rounded, end_time: Math.round((rounded + length) * 1e6) / 1e6 };
}

/** Nudges a note earlier (-1) or later (+1) by 0.05 s, or 0.2 s with Shift. */
export function nudgeNote(
  note: NoteEvent,
  direction: 1 | -1,
  shift: boolean,
  duration: number,
): NoteEvent {
  return shiftTime(note, direction * nudgeStep(shift), duration);
}

/** The note's start dragged to `time`: clamped to 0..duration and at least 0.05 s before its end. */
export function setNoteStart(note: NoteEvent, time: number, duration: number): NoteEvent {
  const start = Math.min(clampTime(time, duration), note.end_time - MIN_NOTE_SECONDS);
  return start === note.time ? note : { ...note, time: Math.max(0, start) };
}

/** The note's end dragged to `time`: clamped to 0..duration and at least 0.05 s after its start. */
export function setNoteEnd(note: NoteEvent, time: number, duration: number): NoteEvent {
  const end = Math.max(clampTime(time, duration), note.time + MIN_NOTE_SECONDS);
  return end === note.end_time ? note : { ...note, end_time: end };
}

export type TechniqueSide = 'leading' | 'trailing';
export type Technique = 'slide' | 'hammer_on' | 'pull_off';
export const TECHNIQUES: readonly Technique[] = ['slide', 'hammer_on', 'pull_off'];

/** The technique set on one side of a note, or null. */
export function techniqueOn(note: NoteEvent, side: TechniqueSide): Technique | null {
  return TECHNIQUES.find((t) => note[`${side}_${t}`]) ?? null;
}

/**
 * Sets one technique on one side of a note, clearing the others on that side (slide, hammer-on
 * and pull-off cannot be set together at one position); setting the one already there, or null,
 * clears the side.
 */
export function setTechnique(
  note: NoteEvent,
  side: TechniqueSide,
  technique: Technique | null,
): NoteEvent {
  const current = techniqueOn(note, side);
  const next = technique === current ? null : technique;
  return {
    ...note,
    [`${side}_slide`]: next === 'slide',
    [`${side}_hammer_on`]: next === 'hammer_on',
    [`${side}_pull_off`]: next === 'pull_off',
  };
}

/** Whether a note has more than one technique on one side (refused when saved). */
export function hasTechniqueConflict(note: NoteEvent): boolean {
  return (['leading', 'trailing'] as const).some(
    (side) => TECHNIQUES.filter((t) => note[`${side}_${t}`]).length > 1,
  );
}

/**
 * Mute on or off (displayed as X). A muted note has no pitch to bend or shake: muting it clears
 * its bend and vibrato.
 */
export const toggleMute = (note: NoteEvent): NoteEvent =>
  note.mute ? { ...note, mute: false } : { ...clearBend(note), mute: true, vibrato: '' };

/**
 * Vibrato small or big; choosing the one set clears it. A muted note takes none (the same note
 * back, which the editor records as no change).
 */
export function setVibrato(note: NoteEvent, vibrato: '' | 'small' | 'big'): NoteEvent {
  if (note.mute && vibrato !== '') return note;
  return { ...note, vibrato: note.vibrato === vibrato ? '' : vibrato };
}

/** The bend presets of spec section 4: bend up 1, 2 or 3 frets, or bend and release 1 to 3. */
export interface BendPreset {
  id: string;
  label: string;
  /** Frets (semitones) of bend. */
  frets: 1 | 2 | 3;
  release: boolean;
}
export const BEND_PRESETS: readonly BendPreset[] = [1, 2, 3].flatMap((n) => {
  const frets = n as 1 | 2 | 3;
  return [
    { id: `bend-${String(n)}`, label: `Bend +${String(n)}`, frets, release: false },
    { id: `release-${String(n)}`, label: `Bend ${String(n)} + release`, frets, release: true },
  ];
});

/** Unbent. */
export const FLAT_PITCH_CURVE: readonly number[] = [1, 1];

/** A pitch-curve point clamped to -8..10 (1 = unbent, +3 per fret). */
export const clampPitchPoint = (value: number) => clamp(value, PITCH_POINT_MIN, PITCH_POINT_MAX);

/**
 * The number of pitch-curve points a note of `seconds` has at the analysis rate:
 * floor(duration * 22050 / 256) + 1 (spec section 9).
 */
export const pitchPointCount = (seconds: number) =>
  Math.floor(Math.max(0, seconds) * (ANALYSIS_SAMPLE_RATE / ANALYSIS_HOP)) + 1;

/**
 * A preset's pitch curve, 9 points as generated curves are: up over the first third and held,
 * or (with release) up, held and back down to unbent.
 */
export function bendCurve(preset: BendPreset): number[] {
  const top = PITCH_STEPS_PER_FRET * preset.frets;
  const last = GENERATED_CURVE_POINTS - 1;
  return Array.from({ length: GENERATED_CURVE_POINTS }, (_, k) => {
    const rise = Math.min(1, k / 3);
    const fall = preset.release ? Math.min(1, (last - k) / 3) : 1;
    return clampPitchPoint(1 + top * Math.min(rise, fall));
  });
}

/**
 * Applies a bend preset: bend_to_fret, release_to_fret and the pitch curve together. A muted
 * note is not bent (the same note back).
 */
export function applyBend(note: NoteEvent, preset: BendPreset): NoteEvent {
  if (note.mute) return note;
  return {
    ...note,
    bend_to_fret: clampFret(note.fret + preset.frets),
    release_to_fret: preset.release ? note.fret : null,
    pitch_arr: bendCurve(preset),
  };
}

/** Removes any bend. */
export function clearBend(note: NoteEvent): NoteEvent {
  return { ...note, bend_to_fret: null, release_to_fret: null, pitch_arr: [...FLAT_PITCH_CURVE] };
}

/**
 * The pitch-curve editor: handle `index` of the GENERATED_CURVE_POINTS (9) handles it shows
 * dragged by `semitones` from where it was, kept within +-3 semitones of unbent and within -8..10.
 * A curve of up to 9 points is first stretched to 9 (so that there is something to drag) and the
 * handle is its point. A longer curve (the analysis writes one point per 256 samples) keeps its
 * points: handle k stands for the place k/8 along it, and the drag moves the points there fully,
 * fading to nothing at the neighbouring handles, so the handle (the curve resampled to 9 points,
 * as the editor draws it) moves as far as it was dragged. bend_to_fret follows the curve's top.
 */
export function dragPitchPoint(note: NoteEvent, index: number, semitones: number): NoteEvent {
  if (note.mute) return note;
  const handles = GENERATED_CURVE_POINTS;
  const k = clamp(Math.round(index), 0, handles - 1);
  const limit = PITCH_DRAG_SEMITONES * PITCH_STEPS_PER_FRET;
  const by = semitones * PITCH_STEPS_PER_FRET;
  const move = (value: number, weight: number) =>
    clampPitchPoint(clamp(value + by * weight, 1 - limit, 1 + limit));
  let base: number[];
  if (note.pitch_arr.length <= handles) {
    base =
      note.pitch_arr.length === handles
        ? [...note.pitch_arr]
        : resampleCurve(note.pitch_arr, handles);
    base[k] = move(base[k] ?? 1, 1);
  } else {
    const last = note.pitch_arr.length - 1;
    const spacing = last / (handles - 1);
    const at = k * spacing;
    const lo = Math.floor(at);
    const hi = Math.ceil(at);
    base = note.pitch_arr.map((value, i) => {
      const away = i < lo ? lo - i : i > hi ? i - hi : 0;
      const weight = Math.max(0, 1 - away / spacing);
      return weight > 0 ? move(value, weight) : value;
    });
  }
  const top = Math.max(...base);
  const bend = Math.round((top - 1) / PITCH_STEPS_PER_FRET);
  return {
    ...note,
    pitch_arr: base,
    bend_to_fret: bend > 0 ? clampFret(note.fret + bend) : null,
    release_to_fret:
      bend > 0 && (base.at(-1) ?? 1) < top - PITCH_STEPS_PER_FRET / 2 ? note.fret : null,
  };
}

/** A curve linearly resampled to `points` points (at least 2). */
export function resampleCurve(curve: readonly number[], points: number): number[] {
  const src = curve.length >= 2 ? curve : [curve[0] ?? 1, curve[0] ?? 1];
  const n = Math.max(2, Math.round(points));
  return Array.from({ length: n }, (_, k) => {
    const at = (k / (n - 1)) * (src.length - 1);
    const i = Math.floor(at);
    const a = src[i] ?? 1;
    const b = src[Math.min(i + 1, src.length - 1)] ?? a;
    return clampPitchPoint(a + (b - a) * (at - i));
  });
}

/** A new chord at `time`: 0.6 s long, capped by the duration (keeping the 0.05 s minimum). */
export function newChord(time: number, name: string, duration: number): ChordEvent | null {
  const chord = name.trim();
  if (!chord || chord.length > MAX_CHORD_NAME) return null;
  const start = clampTime(time, Math.max(0, duration - MIN_CHORD_SECONDS));
  const end = Math.min(start + NEW_CHORD_SECONDS, Math.max(duration, start + MIN_CHORD_SECONDS));
  return { time: start, end_time: end, chord, event_type: 'chord' };
}

/**
 * A chord renamed: the name must be non-empty after trim and at most MAX_CHORD_NAME characters
 * (what the server stores), else null (not saved).
 */
export function renameChord(chord: ChordEvent, name: string): ChordEvent | null {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > MAX_CHORD_NAME) return null;
  return trimmed === chord.chord ? chord : { ...chord, chord: trimmed };
}

/** A chord's start moved to `time` (clamped 0..duration), at least 0.05 s before its end. */
export function setChordStart(chord: ChordEvent, time: number, duration: number): ChordEvent {
  const start = Math.max(
    0,
    Math.min(clampTime(time, duration), chord.end_time - MIN_CHORD_SECONDS),
  );
  return start === chord.time ? chord : { ...chord, time: start };
}

/** A chord's end moved to `time` (clamped 0..duration), at least 0.05 s after its start. */
export function setChordEnd(chord: ChordEvent, time: number, duration: number): ChordEvent {
  const end = Math.max(clampTime(time, duration), chord.time + MIN_CHORD_SECONDS);
  return end === chord.end_time ? chord : { ...chord, end_time: end };
}

/**
 * Notes copied to the clipboard and pasted at `at`: their offsets from the first one kept,
 * shifted so the first starts at `at`; notes that would start after the end are left out and the
 * rest are cut at the end (keeping at least 0.05 s).
 */
export function pasteNotesAt(
  copied: readonly NoteEvent[],
  at: number,
  duration: number,
): NoteEvent[] {
  if (copied.length === 0) return [];
  const first = Math.min(...copied.map((n) => n.time));
  const out: NoteEvent[] = [];
  for (const n of copied) {
    const time = clampTime(at, duration) + (n.time - first);
    if (time > duration - MIN_NOTE_SECONDS) continue;
    const end = Math.min(time + (n.end_time - n.time), duration);
    const pasted: NoteEvent = {
      ...n,
      pitch_arr: [...n.pitch_arr],
      time,
      end_time: Math.max(end, time + MIN_NOTE_SECONDS),
    };
    // A note the user placed is not the AI's guess: it carries no confidence (not "doubtful").
    delete pasted.confidence;
    out.push(pasted);
  }
  return out;
}

/**
 * Seconds of grace past the stored duration the server allows: the player clamps to the video
 * element's length, which may differ from the probed length by a frame or an audio packet.
 */
export const SAVE_TIME_TOLERANCE = 0.5;

/**
 * Why a note may not be saved (spec section 5), as sentences; empty when it may. `duration` is
 * the video's length, null when unknown (then only the other rules apply).
 */
export function noteProblems(note: NoteEvent, duration: number | null): string[] {
  const out: string[] = [];
  const limit = duration === null ? Infinity : duration + SAVE_TIME_TOLERANCE;
  if (!(note.time >= 0) || note.time > limit) out.push('its time is outside the video');
  if (note.end_time > limit) out.push('it ends after the end of the video');
  if (!(note.end_time - note.time >= MIN_NOTE_SECONDS - 1e-9))
    out.push(`it must end at least ${String(MIN_NOTE_SECONDS)} s after it starts`);
  if (!Number.isInteger(note.string) || note.string < 1 || note.string > STRING_COUNT)
    out.push('its string must be 1 to 6');
  if (!Number.isInteger(note.fret) || note.fret < FRET_MIN || note.fret > FRET_MAX)
    out.push('its fret must be a whole number from 0 to 24');
  if (hasTechniqueConflict(note))
    out.push('slide, hammer-on and pull-off cannot be set together on one side');
  if (note.pitch_arr.some((p) => p < PITCH_POINT_MIN || p > PITCH_POINT_MAX))
    out.push('its pitch points must be within -8..10');
  // The editor gives a muted note none (toggleMute); the server holds every save to the same.
  if (note.mute && (note.bend_to_fret !== null || note.vibrato !== ''))
    out.push('a muted note has no bend or vibrato');
  return out;
}

/** Why a chord may not be saved (spec section 5); empty when it may. */
export function chordProblems(chord: ChordEvent, duration: number | null): string[] {
  const out: string[] = [];
  const limit = duration === null ? Infinity : duration + SAVE_TIME_TOLERANCE;
  if (!(chord.time >= 0) || chord.time > limit) out.push('its time is outside the video');
  if (chord.end_time > limit) out.push('it ends after the end of the video');
  if (!chord.chord.trim()) out.push('its name must not be empty');
  if (!(chord.end_time - chord.time >= MIN_CHORD_SECONDS - 1e-9))
    out.push(`it must last at least ${String(MIN_CHORD_SECONDS)} s`);
  return out;
}
