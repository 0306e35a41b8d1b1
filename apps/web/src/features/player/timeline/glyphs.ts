import {
  PITCH_STEPS_PER_FRET,
  VIBRATO_RATE_HZ,
  isDoubtful,
  type ChordEvent,
  type NoteEvent,
} from '@riffscribe/core';
import { windowRange, type NoteIndex } from '../model/noteIndex';
import { stringY, type TimelineLayout } from './layout';

/**
 * Technique glyph geometry: what the timeline draws for each note, as plain shapes in content
 * coordinates (x = time * zoom, CSS px), so the canvas code only strokes them and the maths can
 * be tested. A guitarist reads: fret numbers (X for muted notes) on the string lines, the note's
 * length as a line that follows its pitch curve (bends lift it, vibrato makes it wave), bend
 * arrows with their amount and the release arrow, slide lines, and H/P arcs for hammer-ons and
 * pull-offs.
 */

/** Font size of fret numbers, CSS px; the renderer uses the same. */
export const FRET_FONT_PX = 13;
/** Notes on one string closer than this (seconds) are joined by a slide or H/P arc. */
export const LEGATO_MAX_GAP_SECONDS = 0.5;
/** Pixels of lift per semitone of bend on the note line, and the most it may rise. */
const SEMITONE_LIFT = 0.34;
const MAX_LIFT = 0.8;
const VIBRATO_AMPLITUDE_PX = { small: 1.6, big: 3.2 } as const;
/** Below this zoom (px/s) bend arrows would cross each other: the lifted note line shows the bend. */
export const BEND_ARROW_MIN_ZOOM = 40;
/** Estimated width of a chord name, CSS px (13 px bold). */
export const chordLabelWidth = (text: string) => 8.2 * text.length + 4;

export interface FretGlyph {
  note: number;
  x: number;
  y: number;
  text: string;
  halfWidth: number;
  /** Too close to the previous note on its string to print a number at this zoom: a dot. */
  compact: boolean;
  /** The AI is unsure of it (review queue): marked under its number. */
  doubtful: boolean;
}
export interface SustainGlyph {
  note: number;
  string: number;
  /** Polyline as flat x, y pairs. */
  points: number[];
}
export interface BendGlyph {
  note: number;
  /** Quadratic curve from (x0, y0) through control (cx, cy) to the arrow tip (x1, y1). */
  curve: [number, number, number, number, number, number];
  label: string;
  /** The release arrow back down, when the note releases the bend. */
  release: [number, number, number, number, number, number] | null;
}
export interface SlideGlyph {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}
export interface LegatoGlyph {
  x0: number;
  x1: number;
  /** Baseline of the arc (just above the fret numbers). */
  y: number;
  height: number;
  label: 'H' | 'P' | null;
}
export interface ChordGlyph {
  x: number;
  x1: number;
  /** '' when the name would run into the one before at this zoom (then nothing is drawn). */
  text: string;
}

export interface Glyphs {
  sustains: SustainGlyph[];
  bends: BendGlyph[];
  slides: SlideGlyph[];
  legatos: LegatoGlyph[];
  frets: FretGlyph[];
  chords: ChordGlyph[];
}

/** Half the width of a fret number's knockout box. */
export const fretHalfWidth = (text: string) => 3.9 * text.length + 2.6;
const fretText = (note: NoteEvent) => (note.mute ? 'X' : String(note.fret));

/**
 * Bend amount as tab writes it: semitones / 2 whole steps, "1/4", "1/2", "full", "1 1/2", "2"...
 */
export function bendLabel(semitones: number): string {
  const quarters = Math.round(semitones * 2);
  if (quarters <= 0) return '';
  if (quarters === 4) return 'full';
  const whole = Math.floor(quarters / 4);
  const rest = ['', '1/4', '1/2', '3/4'][quarters % 4] ?? '';
  return [whole > 0 ? String(whole) : '', rest].filter(Boolean).join(' ');
}

/** A curve without less than a bend's worth of top counts as unbent (the engine's 0.7). */
const MIN_CURVE_BEND_SEMITONES = 0.7;

/**
 * The pitch curve with vibrato averaged out (a moving average over one vibrato period), so that
 * what is left is the bend: a wobble around the pitch is not a bend and does not lift the line.
 * Coarse curves (the editor's 9-point presets) are returned as they are.
 */
export function bendCurve(note: NoteEvent): readonly number[] {
  const pts = note.pitch_arr;
  const dur = note.end_time - note.time;
  const perSecond = dur > 0 ? (pts.length - 1) / dur : 0;
  const radius = Math.floor(perSecond / (2 * VIBRATO_RATE_HZ));
  if (radius < 1) return pts;
  return pts.map((_, i) => {
    let sum = 0;
    let n = 0;
    for (let j = Math.max(0, i - radius); j <= Math.min(pts.length - 1, i + radius); j += 1) {
      sum += pts[j] ?? 1;
      n += 1;
    }
    return sum / n;
  });
}

/** Semitones of bend a note shows: bend_to_fret when given, else the top of its bend curve. */
export function bendSemitones(note: NoteEvent): number {
  if (note.bend_to_fret !== null) return Math.max(0, note.bend_to_fret - note.fret);
  const top = (Math.max(...bendCurve(note)) - 1) / PITCH_STEPS_PER_FRET;
  return top >= MIN_CURVE_BEND_SEMITONES ? Math.round(top * 2) / 2 : 0;
}

/**
 * Value (1 = unbent) of a curve spanning a note of `dur` seconds evenly, at `t` seconds into it.
 */
export function curveAt(pts: readonly number[], dur: number, t: number): number {
  if (pts.length < 2 || dur <= 0) return pts[0] ?? 1;
  const pos = Math.min(Math.max(t / dur, 0), 1) * (pts.length - 1);
  const i = Math.floor(pos);
  const a = pts[i] ?? 1;
  const b = pts[Math.min(i + 1, pts.length - 1)] ?? a;
  return a + (b - a) * (pos - i);
}

/** Seconds into the note where the curve first reaches 90% of its top, and where it comes down. */
export function bendTimes(note: NoteEvent): { peak: number; release: number } {
  const pts = bendCurve(note);
  const dur = note.end_time - note.time;
  const top = Math.max(...pts);
  const at = (i: number) => (pts.length > 1 ? (i / (pts.length - 1)) * dur : 0);
  if (top - 1 < 0.5) return { peak: Math.min(dur * 0.3, 0.15), release: dur * 0.75 };
  let peakIndex = pts.findIndex((v) => v - 1 >= 0.9 * (top - 1));
  if (peakIndex < 0) peakIndex = 0;
  const half = 1 + (top - 1) / 2;
  const back = pts.findIndex((v, i) => i > peakIndex && v < half);
  return { peak: at(peakIndex), release: back < 0 ? dur * 0.8 : at(back) };
}

/** Whether note `a` and the next note `b` on its string are joined, and by what. */
export function legatoKind(a: NoteEvent, b: NoteEvent): 'slide' | 'hammer' | 'pull' | null {
  if (b.time - a.end_time > LEGATO_MAX_GAP_SECONDS) return null;
  if (a.trailing_slide || b.leading_slide) return 'slide';
  if (a.trailing_hammer_on || b.leading_hammer_on) return 'hammer';
  if (a.trailing_pull_off || b.leading_pull_off) return 'pull';
  return null;
}

/** Which notes print as a dot at a zoom, per note index (built once per index and zoom). */
const compactCache = new WeakMap<NoteIndex, { zoom: number; compact: Uint8Array }>();

/**
 * Whether each note is too close to the last fret number printed on its string to print its
 * own (it is drawn as a dot): measured from the last *printed* number, not the previous note,
 * so a number after a dot never overlaps the number before the dot ("10" then "3"). One pass
 * over the notes in time order.
 */
function compactNotes(index: NoteIndex, zoom: number): Uint8Array {
  const cached = compactCache.get(index);
  if (cached?.zoom === zoom) return cached.compact;
  const compact = new Uint8Array(index.notes.length);
  const printed = new Map<number, { x: number; halfWidth: number }>();
  index.notes.forEach((note, i) => {
    const halfWidth = fretHalfWidth(fretText(note));
    const x = note.time * zoom;
    const last = printed.get(note.string);
    if (last && x - last.x < last.halfWidth + halfWidth + 1) compact[i] = 1;
    else printed.set(note.string, { x, halfWidth });
  });
  compactCache.set(index, { zoom, compact });
  return compact;
}

/** The fret number of note `i` (also used to highlight sounding notes). */
export function fretGlyph(index: NoteIndex, i: number, zoom: number, layout: TimelineLayout) {
  const note = index.notes[i];
  if (!note) return null;
  const text = fretText(note);
  const compact = compactNotes(index, zoom)[i] === 1;
  return {
    note: i,
    x: note.time * zoom,
    y: stringY(layout, note.string),
    text,
    halfWidth: fretHalfWidth(text),
    compact,
    doubtful: isDoubtful(note),
  } satisfies FretGlyph;
}

function sustainGlyph(
  note: NoteEvent,
  i: number,
  x0: number,
  zoom: number,
  layout: TimelineLayout,
) {
  const y = stringY(layout, note.string);
  const x1 = note.end_time * zoom;
  const curve = bendCurve(note);
  const dur = note.end_time - note.time;
  const bent = curve.some((v) => Math.abs(v - 1) > 0.05);
  const wave = note.vibrato ? VIBRATO_AMPLITUDE_PX[note.vibrato] : 0;
  if (x1 <= x0) return null;
  if (!bent && wave === 0) return { note: i, string: note.string, points: [x0, y, x1, y] };
  const lift = (v: number) =>
    Math.min(((v - 1) / PITCH_STEPS_PER_FRET) * SEMITONE_LIFT, MAX_LIFT) * layout.stringGap;
  // Real vibrato rate where it is wide enough to read, else a fixed 7 px wave.
  const wavelength = Math.max(7, zoom / VIBRATO_RATE_HZ);
  const steps = Math.min(400, Math.max(2, Math.ceil((x1 - x0) / 2)));
  const points: number[] = [];
  for (let k = 0; k <= steps; k += 1) {
    const x = x0 + ((x1 - x0) * k) / steps;
    const t = x / zoom - note.time;
    const fade = Math.min(1, (x - x0) / 6);
    const w = wave * fade * Math.sin(((x - x0) / wavelength) * 2 * Math.PI);
    points.push(x, y - lift(curveAt(curve, dur, t)) - w);
  }
  return { note: i, string: note.string, points };
}

function bendGlyph(note: NoteEvent, i: number, x0: number, zoom: number, layout: TimelineLayout) {
  if (zoom < BEND_ARROW_MIN_ZOOM) return null;
  const label = bendLabel(bendSemitones(note));
  if (!label) return null;
  const y0 = stringY(layout, note.string) - 3;
  const times = bendTimes(note);
  const tipX = Math.max(x0 + 12, (note.time + times.peak) * zoom);
  const tipY = layout.techniqueY;
  const release: BendGlyph['release'] =
    note.release_to_fret === null
      ? null
      : (() => {
          const rx = Math.max(tipX + 12, (note.time + times.release) * zoom);
          return [tipX, tipY, rx, tipY, rx, y0 - 5];
        })();
  return { note: i, curve: [x0, y0, tipX, y0, tipX, tipY], label, release } satisfies BendGlyph;
}

function slideBetween(a: FretGlyph, b: FretGlyph, up: boolean): SlideGlyph | null {
  const x0 = a.x + a.halfWidth + 1;
  const x1 = b.x - b.halfWidth - 1;
  if (x1 - x0 < 3) return null;
  const rise = up ? -4 : 4;
  return { x0, y0: a.y - rise, x1, y1: b.y + rise };
}

/**
 * Every glyph that shows between t0 and t1 seconds at `zoom` px/s. Notes a little outside are
 * included so that arcs, slides and bend arrows crossing the edges are complete.
 */
export function buildGlyphs(input: {
  index: NoteIndex;
  chords: readonly ChordEvent[];
  chordText: (chord: ChordEvent) => string;
  /** Which chord names fit at this zoom (chordLabelMask); all when absent. */
  chordLabels?: Uint8Array;
  t0: number;
  t1: number;
  zoom: number;
  layout: TimelineLayout;
}): Glyphs {
  const { index, chords, chordText, chordLabels, t0, t1, zoom, layout } = input;
  const out: Glyphs = { sustains: [], bends: [], slides: [], legatos: [], frets: [], chords: [] };
  const [from, to] = windowRange(index, t0, t1 + LEGATO_MAX_GAP_SECONDS);
  for (let i = from; i < to; i += 1) {
    const note = index.notes[i];
    const fret = fretGlyph(index, i, zoom, layout);
    if (!note || !fret) continue;
    const visible = note.time <= t1 && note.end_time >= t0;
    const prevIndex = index.prevOnString[i] ?? -1;
    const prev = index.notes[prevIndex];
    const kind = prev ? legatoKind(prev, note) : null;
    // Joins are drawn from the later note, which may lie just past the window.
    if (prev && kind && prev.end_time >= t0 - LEGATO_MAX_GAP_SECONDS) {
      const a = fretGlyph(index, prevIndex, zoom, layout);
      if (a && kind === 'slide') {
        const s = slideBetween(a, fret, note.fret > prev.fret);
        if (s) out.slides.push(s);
      } else if (a) {
        const dx = fret.x - a.x;
        if (dx >= 6) {
          out.legatos.push({
            x0: a.x,
            x1: fret.x,
            y: fret.y - FRET_FONT_PX / 2 - 2,
            height: Math.min(layout.stringGap * 0.55, 3 + dx * 0.18),
            label: dx >= 16 ? (kind === 'hammer' ? 'H' : 'P') : null,
          });
        }
      }
    }
    if (!visible) continue;
    const x0 = fret.x + (fret.compact ? 2 : fret.halfWidth + 1);
    const sustain = sustainGlyph(note, i, x0, zoom, layout);
    if (sustain) out.sustains.push(sustain);
    const bend = bendGlyph(note, i, x0, zoom, layout);
    if (bend) out.bends.push(bend);
    if (note.leading_slide && !kind) {
      // Slide in from below into this note.
      out.slides.push({
        x0: fret.x - fret.halfWidth - 13,
        y0: fret.y + 5,
        x1: fret.x - fret.halfWidth - 2,
        y1: fret.y - 4,
      });
    }
    const next = index.notes[index.nextOnString[i] ?? -1];
    if (note.trailing_slide && (!next || legatoKind(note, next) !== 'slide')) {
      // Slide out downwards after this note.
      out.slides.push({
        x0: fret.x + fret.halfWidth + 2,
        y0: fret.y - 4,
        x1: fret.x + fret.halfWidth + 15,
        y1: fret.y + 5,
      });
    }
    out.frets.push(fret);
  }
  chords.forEach((chord, k) => {
    if (chord.end_time < t0 || chord.time > t1) return;
    const text = !chordLabels || chordLabels[k] ? chordText(chord) : '';
    out.chords.push({ x: chord.time * zoom, x1: chord.end_time * zoom, text });
  });
  return out;
}

/**
 * Which chord names to print at `zoom`: going left to right, a name is left out when it would
 * overlap the last one printed. Computed over the whole list, so every part of the timeline
 * agrees whatever is on screen.
 */
export function chordLabelMask(
  chords: readonly ChordEvent[],
  chordText: (chord: ChordEvent) => string,
  zoom: number,
): Uint8Array {
  const mask = new Uint8Array(chords.length);
  let free = -Infinity;
  chords.forEach((chord, k) => {
    const x = chord.time * zoom;
    if (x < free) return;
    mask[k] = 1;
    free = x + chordLabelWidth(chordText(chord)) + 14;
  });
  return mask;
}
