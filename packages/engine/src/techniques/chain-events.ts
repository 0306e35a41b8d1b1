import { FRET_MAX, MIN_NOTE_SECONDS, type NoteEvent, plainNote } from '@riffscribe/core';
import { openPitch } from '../tab/fingering.js';
import type { ClipAudio, GuitarSetup } from '../types.js';
import { FRAME_RATE } from '../units.js';
import { BEND_OPTIONS, findBend, pitchArray, smoothedBend, type BendOptions } from './bend.js';
import type { Chain } from './chains.js';
import { medianFilter } from './curves.js';
import { MIDDLE, middleSeconds, readJunction } from './junction.js';
import { trackPitch } from './pitch-track.js';
import {
  classifyVibrato,
  roomForVibrato,
  slowPitch,
  VIBRATO_OPTIONS,
  type VibratoOptions,
} from './vibrato.js';

/**
 * What one string did between two strikes (pure): from a chain's pitch track to the notes of the
 * tab, with their techniques.
 *
 * The track is the chain's notes' contours laid end to end in absolute pitch (each note's
 * contour from its start until the next note of the chain begins). A note of the chain on which
 * the string dwelt (within `stableTolerance` of its pitch for `minStableFrames`) is a *plateau*;
 * a note it only passed through is part of a glide. Between two plateaus the string moved, and
 * the time it spent in the middle of the way (junction.ts reads it from the clip; without audio
 * the contour's frames are counted) tells how:
 *
 * - a step (under `stepMaxSeconds`): a hammer-on going up, a pull-off going down, within a
 *   hand's reach (`maxStep`); an open string can only be left or reached this way;
 * - a glide going up within a bend's reach (`maxBend`) and slower than a slide (`bendMaxSpeed`),
 *   from the fretted pitch or further up a bend: the same note, bent;
 * - a glide going down from a bend, no lower than the fretted pitch: the bend's release;
 * - any other glide: a slide; the departing note ends, with trailing_slide, where the arriving
 *   note (leading_slide) reaches its pitch.
 *
 * One technique per side of a note by construction. Each resulting note's own part of the track
 * (up to where it starts to leave for the next note) gives its bend (bend.ts), pitch_arr and
 * vibrato (vibrato.ts, read from the clip where it is clear: pitch-track.ts).
 */

export interface ChainEventOptions {
  /** Semitones from a note's pitch within which the string dwells on it. */
  stableTolerance: number;
  /** Frames of dwelling that make a plateau. */
  minStableFrames: number;
  /** A pitch change that spends less than this in between (seconds) is a step. */
  stepMaxSeconds: number;
  /** Widest step a fretting hand makes without a pick (frets); a wider one is a new note. */
  maxStep: number;
  /**
   * Onset activation from which a note right after another of the same pitch is a new attack.
   * With no change of pitch the model's onset is a fair witness (it fires on repeated notes and
   * not on a held one); soft thumb plucks on bass strings can leave almost no high-band attack.
   */
  repeatOnset: number;
  /** Highest bend (semitones above the fretted pitch). */
  maxBend: number;
  /**
   * A glide up faster than this (semitones per second, through the middle of the way) is a
   * slide, not a bend. Chosen between the fastest true bend (32.6, a bend of three semitones)
   * and the slowest true slide (41.3) measured on the string model and the SoundFont tuned part.
   */
  bendMaxSpeed: number;
  bend: BendOptions;
  vibrato: VibratoOptions;
}

export const CHAIN_EVENT_OPTIONS: ChainEventOptions = {
  stableTolerance: 0.5,
  minStableFrames: 4,
  stepMaxSeconds: 0.024,
  maxStep: 5,
  repeatOnset: 0.5,
  maxBend: 3.5,
  bendMaxSpeed: 37,
  bend: BEND_OPTIONS,
  vibrato: VIBRATO_OPTIONS,
};

interface Plateau {
  pitch: number;
  /** Index of the chain note. */
  note: number;
  /** First and last frame (track index) at the pitch. */
  first: number;
  last: number;
}

type Move = 'hammer' | 'pull' | 'slide';
/** A pitch change the string cannot make on its own: the next note starts afresh. */
type Break = 'break';

interface Segment {
  /** Start and end (seconds). */
  time: number;
  end: number;
  fretted: number;
  /** Track indices: where the note starts and where its own part ends (inclusive). */
  from: number;
  ownTo: number;
  leading: Move | null;
  trailing: Move | null;
}

/** The chain's pitch track: absolute pitch per frame from the first note's start frame. */
export function chainTrack(chain: Chain): { start: number; values: Float64Array } {
  const first = chain.notes[0];
  if (first === undefined) return { start: 0, values: new Float64Array(0) };
  const start = Math.round(first.time * FRAME_RATE);
  const end = Math.max(...chain.notes.map((n) => Math.round(n.endTime * FRAME_RATE)));
  const values = new Float64Array(Math.max(1, end - start)).fill(Number.NaN);
  chain.notes.forEach((n, k) => {
    const s = Math.round(n.time * FRAME_RATE);
    const next = chain.notes[k + 1];
    const stop = Math.min(
      next === undefined ? Number.POSITIVE_INFINITY : Math.round(next.time * FRAME_RATE),
      Math.round(n.endTime * FRAME_RATE),
    );
    for (let f = s; f < stop; f++) {
      const j = f - s;
      const b = n.bend.length === 0 ? 0 : (n.bend[Math.min(j, n.bend.length - 1)] ?? 0);
      const i = f - start;
      if (i >= 0 && i < values.length) values[i] = n.pitch + b;
    }
  });
  return { start, values };
}

/** `clean` is the track's values through a 3-frame median (one-frame jumps removed). */
function plateausOf(
  chain: Chain,
  track: { start: number },
  clean: Float64Array,
  opts: ChainEventOptions,
): Plateau[] {
  const out: Plateau[] = [];
  chain.notes.forEach((n, k) => {
    const from = Math.max(0, Math.round(n.time * FRAME_RATE) - track.start);
    const next = chain.notes[k + 1];
    const to = Math.min(
      clean.length,
      next === undefined ? clean.length : Math.round(next.time * FRAME_RATE) - track.start,
    );
    let first = -1;
    let last = -1;
    let count = 0;
    for (let i = from; i < to; i++) {
      const v = clean[i] ?? Number.NaN;
      if (Number.isNaN(v) || Math.abs(v - n.pitch) > opts.stableTolerance) continue;
      if (first < 0) first = i;
      last = i;
      count++;
    }
    if (count >= opts.minStableFrames) out.push({ pitch: n.pitch, note: k, first, last });
  });
  const head = chain.notes[0];
  if (head !== undefined && out[0]?.note !== 0)
    out.unshift({ pitch: head.pitch, note: 0, first: 0, last: 0 });
  return out;
}

/**
 * Frames before the end of the departing plateau from which the junction is read: a slide of a
 * few frets takes 50-150 ms (a hand crossing frets at about 40 per second), so 0.12 s holds most.
 */
const GLIDE_LOOKBACK_FRAMES = Math.round(0.12 * FRAME_RATE);

/**
 * How the string moved between two plateaus: the seconds it took, from the clip when there is
 * audio (junction.ts), else from the contour's frames in the middle of the way; `fast` when only
 * the clip's ramp saw it move (the middle of the way too quick for a pitch estimate: a slide, no
 * bend rises that fast).
 */
interface Glide {
  seconds: number;
  fast: boolean;
}

function glideOf(
  from: Plateau,
  to: Plateau,
  clean: Float64Array,
  start: number,
  audio: ClipAudio,
): Glide {
  if (audio.length > 0) {
    // The model's contour can hold the departing pitch through most of a slide's glide, so the
    // clip is read from up to a glide's length before the departing plateau ends.
    const back = Math.max(from.first, from.last - 1 - GLIDE_LOOKBACK_FRAMES);
    const junction = readJunction(
      audio,
      (start + back) / FRAME_RATE - 0.006,
      (start + to.first + 1) / FRAME_RATE,
      from.pitch,
      to.pitch,
    );
    return {
      seconds: junction.glideSeconds,
      fast: junction.rampSeconds > 0 && junction.rampSeconds >= junction.glideSeconds,
    };
  }
  const delta = to.pitch - from.pitch;
  let middle = 0;
  for (let i = Math.max(0, from.last - 2); i <= Math.min(clean.length - 1, to.first + 2); i++) {
    const x = ((clean[i] ?? Number.NaN) - from.pitch) / delta;
    if (x > MIDDLE[0] && x < MIDDLE[1]) middle++;
  }
  return { seconds: middleSeconds(middle, FRAME_RATE), fast: false };
}

function classify(
  from: Plateau,
  to: Plateau,
  fretted: number,
  open: number,
  glide: Glide,
  repeated: boolean,
  opts: ChainEventOptions,
): Move | Break | 'same' {
  const delta = to.pitch - from.pitch;
  if (delta === 0) return repeated ? 'break' : 'same';
  // An open string has no finger on it to slide or bend with: only a step leaves or reaches it.
  const step = glide.seconds < opts.stepMaxSeconds || from.pitch === open || to.pitch === open;
  if (step) {
    if (Math.abs(delta) > opts.maxStep) return 'break';
    return delta > 0 ? 'hammer' : 'pull';
  }
  const bent = from.pitch - fretted;
  const speed = Math.abs(delta) / glide.seconds;
  if (
    delta > 0 &&
    !glide.fast &&
    bent >= 0 &&
    bent + delta <= opts.maxBend &&
    speed < opts.bendMaxSpeed
  )
    return 'same';
  if (delta < 0 && bent > 0 && to.pitch >= fretted) return 'same';
  return 'slide';
}

/**
 * Whether the move from the struck note's plateau `from` to `to` is a pre-bend let down: a glide
 * (not a step) down by at most `maxBend`, slower than a slide, to a fretted pitch.
 */
function preBendRelease(
  from: Plateau,
  to: Plateau,
  open: number,
  glide: Glide,
  opts: ChainEventOptions,
): boolean {
  const delta = from.pitch - to.pitch;
  if (delta <= 0 || delta > opts.maxBend || to.pitch <= open) return false;
  if (glide.fast || glide.seconds < opts.stepMaxSeconds) return false;
  return delta / glide.seconds < opts.bendMaxSpeed;
}

function emptyEvent(string: number, fret: number, time: number, end: number): NoteEvent {
  return plainNote({
    time,
    end_time: Math.max(end, time + MIN_NOTE_SECONDS),
    string,
    fret,
  });
}

/** Fewest frames (fraction of the note) the clip must give a pitch for to be trusted. */
const MIN_HEARD = 0.6;

/**
 * The note's curve (semitones from `fretted`) read from the clip (pitch-track.ts), guided by the
 * contour `curve`; null when the clip gives a pitch for too few frames (a dense mix).
 */
function heardCurve(
  audio: ClipAudio,
  firstFrame: number,
  curve: Float64Array,
  fretted: number,
): Float64Array | null {
  const guess = curve.map((v) => v + fretted);
  const heard = trackPitch(audio, firstFrame, guess);
  let known = 0;
  for (const v of heard) if (!Number.isNaN(v)) known++;
  if (known < MIN_HEARD * heard.length) return null;
  return heard.map((v) => v - fretted);
}

/**
 * The string a chain is played on: the tab's, unless the string glides away from a pitch the tab
 * has as an open string (a bend or a slide needs a finger on the string, so the tab's string
 * would read the glide as a hammer-on): then the nearest lower string that frets every gliding
 * pitch and holds every note of the chain. A glide arriving at the open pitch stays (a pull-off to
 * an open string is common, and its junction may look slow).
 */
function chainString(
  chain: Chain,
  plateaus: readonly Plateau[],
  glides: readonly Glide[],
  setup: GuitarSetup,
  opts: ChainEventOptions,
): number {
  const gliding = new Set<number>();
  const departing = new Set<number>();
  plateaus.forEach((to, k) => {
    const from = plateaus[k - 1];
    if (from === undefined || (glides[k]?.seconds ?? 0) < opts.stepMaxSeconds) return;
    gliding.add(from.pitch);
    gliding.add(to.pitch);
    departing.add(from.pitch);
  });
  if (!departing.has(openPitch(setup, chain.string))) return chain.string;
  for (let s = chain.string + 1; s <= 6; s++) {
    const open = openPitch(setup, s);
    const fits = chain.notes.every((n) => n.pitch - open >= 0 && n.pitch - open <= setup.frets);
    if (fits && [...gliding].every((p) => p - open >= 1)) return s;
  }
  return chain.string;
}

/** Whether the track from frame `first` to `last` shows a vibrato (vibrato.ts). */
function underVibrato(
  clean: ArrayLike<number>,
  first: number,
  last: number,
  opts: VibratoOptions,
): boolean {
  if (last <= first) return false;
  const curve = Array.from({ length: last - first + 1 }, (_, i) => clean[first + i] ?? 0);
  const held = curve.map(() => true);
  return roomForVibrato(held) && classifyVibrato(curve, held, opts) !== '';
}

/** The notes of the tab for one chain, with their techniques. */
export function chainEvents(
  chain: Chain,
  audio: ClipAudio,
  setup: GuitarSetup,
  opts: ChainEventOptions = CHAIN_EVENT_OPTIONS,
): NoteEvent[] {
  const head = chain.notes[0];
  if (head === undefined) return [];
  const track = chainTrack(chain);
  const clean = medianFilter(track.values, 1);
  const plateaus = plateausOf(chain, track, clean, opts);
  const lastNote = chain.notes[chain.notes.length - 1] ?? head;
  const chainEnd = Math.max(...chain.notes.map((n) => n.endTime));
  const frameTime = (i: number) => (track.start + i) / FRAME_RATE;
  const glides = plateaus.map((to, k) => {
    const from = plateaus[k - 1];
    if (from === undefined || from.pitch === to.pitch) return { seconds: 0, fast: false };
    return glideOf(from, to, clean, track.start, audio);
  });
  const string = chainString(chain, plateaus, glides, setup, opts);

  const open = openPitch(setup, string);
  const segments: Segment[] = [];
  let current: Segment = {
    time: head.time,
    end: chainEnd,
    fretted: plateaus[0]?.pitch ?? head.pitch,
    from: 0,
    ownTo: track.values.length - 1,
    leading: null,
    trailing: null,
  };
  for (let k = 1; k < plateaus.length; k++) {
    const from = plateaus[k - 1];
    const to = plateaus[k];
    if (from === undefined || to === undefined) continue;
    const glide = glides[k] ?? { seconds: 0, fast: false };
    // A note of the same pitch right after another, with a clear onset, is played again...
    // unless the string is under a vibrato across the two: a real string's level swells with
    // the vibrato's pitch (pickup, body, amp and cabinet), and the model's onset fires on the
    // swells (issue 39: 16 of 21 vibrato notes of real licks came out re-struck). A new pick
    // there shows as a strike (chains.ts findStrikes), which would have ended the chain.
    const repeated =
      to.note === from.note + 1 &&
      (chain.notes[to.note]?.onset ?? 0) >= opts.repeatOnset &&
      !underVibrato(clean, from.first, to.last, opts.vibrato);
    // A pre-bend (issue 39): the picked note began bent, and the string comes down slowly, within
    // a bend's reach, to a fretted pitch: the note is the lower fret, bent before the pick and
    // released (on real licks it was written as the bent pitch sliding down).
    if (k === 1 && current.fretted === from.pitch && preBendRelease(from, to, open, glide, opts)) {
      current.fretted = to.pitch;
      continue;
    }
    const move = classify(from, to, current.fretted, open, glide, repeated, opts);
    if (move === 'same') continue;
    const arrivalNote = chain.notes[to.note] ?? lastNote;
    // A slide's note begins where the string reaches its pitch, the end of the glide.
    const arrival =
      move === 'slide' ? Math.max(arrivalNote.time, frameTime(to.first)) : arrivalNote.time;
    const legato = move === 'break' ? null : move;
    current.end = arrival;
    current.ownTo = from.last;
    current.trailing = legato;
    segments.push(current);
    current = {
      time: arrival,
      end: chainEnd,
      fretted: to.pitch,
      from: Math.max(0, Math.round(arrival * FRAME_RATE) - track.start),
      ownTo: track.values.length - 1,
      leading: legato,
      trailing: null,
    };
  }
  segments.push(current);

  // The slow pitch (the vibrato analysis's trend) moves only in bends and releases.
  const slow = slowPitch(clean);
  return segments.map((seg) => {
    const event = emptyEvent(string, seg.fretted - open, seg.time, seg.end);
    event.leading_slide = seg.leading === 'slide';
    event.leading_hammer_on = seg.leading === 'hammer';
    event.leading_pull_off = seg.leading === 'pull';
    event.trailing_slide = seg.trailing === 'slide';
    event.trailing_hammer_on = seg.trailing === 'hammer';
    event.trailing_pull_off = seg.trailing === 'pull';

    const own = Math.max(0, seg.ownTo - seg.from + 1);
    const curve = new Float64Array(own);
    const held: boolean[] = [];
    for (let i = 0; i < own; i++) {
      const f = seg.from + i;
      curve[i] = (clean[f] ?? Number.NaN) - seg.fretted;
      // Held where the slow pitch is not moving (not during a bend's rise or release).
      const rise = Math.abs((slow[f + 3] ?? Number.NaN) - (slow[f - 3] ?? Number.NaN));
      held.push(!Number.isNaN(rise) && rise < 0.3);
    }
    // A strummed chord's strings beat against each other and pull each other's contours, which
    // the bend reading cannot tell from a bend (a string bent inside a strum is rare).
    const strummedNote = chain.strummed && seg.leading === null;
    const bend = strummedNote ? null : findBend(curve, opts.bend);
    if (bend !== null) {
      event.bend_to_fret = Math.min(FRET_MAX, event.fret + bend.up);
      event.release_to_fret = bend.releasedTo === null ? null : event.fret + bend.releasedTo;
      event.pitch_arr = pitchArray(smoothedBend(curve, opts.bend), event.end_time - event.time);
    } else {
      event.pitch_arr = pitchArray([], event.end_time - event.time);
    }
    // ... nor from a vibrato.
    if (!strummedNote && roomForVibrato(held)) {
      const heard =
        audio.length > 0 ? heardCurve(audio, track.start + seg.from, curve, seg.fretted) : null;
      event.vibrato = classifyVibrato(heard ?? curve, held, opts.vibrato);
    }
    if (event.fret === 0 && (event.vibrato !== '' || event.bend_to_fret !== null))
      fretInstead(event, segments.length === 1 ? seg.fretted : null, setup);
    return event;
  });
}

/**
 * A bent or vibrato note needs a finger on the string, so it cannot be an open string: it is
 * moved to the nearest lower string that frets its pitch, when the note stands alone; otherwise
 * (its chain holds legato notes on this string) the bend and vibrato are dropped.
 */
function fretInstead(event: NoteEvent, pitch: number | null, setup: GuitarSetup): void {
  for (let s = event.string + 1; pitch !== null && s <= 6; s++) {
    const f = pitch - openPitch(setup, s);
    if (f < 1 || f > setup.frets) continue;
    const shift = f - event.fret;
    event.string = s;
    event.fret = f;
    if (event.bend_to_fret !== null) event.bend_to_fret += shift;
    if (event.release_to_fret !== null) event.release_to_fret += shift;
    return;
  }
  event.vibrato = '';
  event.bend_to_fret = null;
  event.release_to_fret = null;
  event.pitch_arr = event.pitch_arr.map(() => 1);
}
