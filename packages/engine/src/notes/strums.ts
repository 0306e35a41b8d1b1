import type { ModelOutput } from '../types.js';
import { byStart, type NoteCandidate } from './candidate.js';
import type { NoteOptions } from './options.js';
import { GHOST_INTERVALS, GHOST_WINDOW, isGhostOf } from './ghosts.js';
import { WEAK_ONSET_FACTOR } from './onsets.js';
import { peakOver, valueAt } from './posteriorgram.js';
import { ENERGY_TOLERANCE } from './tracking.js';
import { firstAtLeast } from '../sorted.js';

/**
 * Notes of a strum recovered from the chord around them (pure). In a strummed chord Basic Pitch
 * often misses the notes that double another string's pitch class an octave away (the root on
 * the bass string, the doubled top note): their energy falls on the other string's harmonics, so
 * their note activation stays low; and when a chord is strummed again, the strings that were
 * ringing show no rise of the note activation, so a weak onset peak is not confirmed
 * (onsets.ts). Where at least STRUM_MIN_NOTES attacks form a strum, a pitch whose pitch class is
 * already in the strum, or a pitch an earlier strum left ringing (the same chord strummed again,
 * of which only some strings came out), within the guitar's range, gets a second look with lower
 * bars than an isolated note: an onset peak inside the strum's sweep, and note activation that
 * follows it.
 */

/** Successive onsets of one strum are at most this many frames apart (35 ms: one skipped string). */
export const STRUM_STEP = 3;
/** A strum sweeps six strings in at most this many frames (about 100 ms, tab/groups.ts). */
export const STRUM_SPAN = 9;
/** Attacks that make a strum: three strings struck together are a chord, two may be a double stop. */
export const STRUM_MIN_NOTES = 3;
/** Frames before the first and after the last found onset where a missed string can be (one or two strings at 8-15 ms). */
export const STRUM_REACH = 3;

/** What the recovery looks at for one pitch of one strum (exported for measurement). */
export interface StrumCandidate {
  pitch: number;
  /** Frame of the strongest onset peak of the pitch within the strum's reach. */
  frame: number;
  onset: number;
  /** Note activation just before the peak (smaller of the two frames before). */
  before: number;
  /** Peak note activation over the CONFIRM frames after the peak. */
  after: number;
  /** A note of this pitch is already sounding when the strum starts. */
  ringing: boolean;
  /** The peak starts within GHOST_WINDOW of a found note a ghost interval away. */
  ghostLike: boolean;
  /** Below all, above all, or between the found notes of the strum. */
  place: 'below' | 'above' | 'inside';
  strumStart: number;
  strumEnd: number;
  /** Pitches of the strum's found notes. */
  strumPitches: readonly number[];
  /** The candidate's onset is where the strum's sweep reaches its pitch (see inSweep). */
  inOrder: boolean;
  /** The strum's found notes and the candidate fit on distinct strings in one hand position. */
  playable: boolean;
  /**
   * A note of this pitch from an earlier strum is still ringing when this one starts: the same
   * chord strummed again (the pitch class need not be among the strum's found notes).
   */
  restrum: boolean;
}

/** Frets one hand spans in a chord shape (open strings aside): four, one finger a fret. */
export const HAND_SPAN = 4;

/**
 * Whether the pitches fit on distinct strings of the guitar (open pitches with the capo) with
 * the fretted ones within HAND_SPAN frets of each other.
 */
export function playableShape(
  pitches: readonly number[],
  open: readonly number[],
  frets: number,
): boolean {
  const sorted = [...pitches].sort((a, b) => a - b);
  if (sorted.length > open.length) return false;
  const used = new Array<boolean>(open.length).fill(false);
  const place = (i: number, lo: number, hi: number): boolean => {
    const p = sorted[i];
    if (p === undefined) return true;
    for (let s = 0; s < open.length; s++) {
      const fret = p - (open[s] ?? 0);
      if (used[s] || fret < 0 || fret > frets) continue;
      const nlo = fret > 0 ? Math.min(lo, fret) : lo;
      const nhi = fret > 0 ? Math.max(hi, fret) : hi;
      if (nhi - nlo > HAND_SPAN) continue;
      used[s] = true;
      if (place(i + 1, nlo, nhi)) return true;
      used[s] = false;
    }
    return false;
  };
  return place(0, Infinity, -Infinity);
}

/**
 * A strum sweeps the strings in order, and a chord's pitches rise from the bass string to the
 * treble string, so onsets run with pitch (a downstroke) or against it (an upstroke). A missed
 * note belongs where the sweep passes its pitch: between the onsets of the found notes just
 * below and just above it, give or take a frame, or beyond the sweep's end for a note below or
 * above all of them. A harmonic read as a note starts with the string it comes from, out of order.
 */
function inSweep(strum: readonly NoteCandidate[], pitch: number, frame: number): boolean {
  const sorted = [...strum].sort((a, b) => a.pitch - b.pitch);
  const low = sorted[0];
  const high = sorted.at(-1);
  if (low === undefined || high === undefined) return false;
  const down = high.start > low.start ? 1 : high.start < low.start ? -1 : 0;
  const below = sorted.filter((q) => q.pitch < pitch).at(-1);
  const above = sorted.find((q) => q.pitch > pitch);
  // Onset frames, oriented so that the sweep runs forward (upstrokes flipped).
  const at = (f: number) => (down >= 0 ? f : -f);
  const t = at(frame);
  const tolerance = 1;
  if (below !== undefined && t < at(below.start) - tolerance) return false;
  if (above !== undefined && t > at(above.start) + tolerance) return false;
  return true;
}

/**
 * The notes of one pitch by start frame, for the questions a strum asks of every pitch (a lesson
 * has thousands of strums and notes: a scan of all notes per strum and pitch grows with the
 * square of its length).
 */
interface PitchNotes {
  /** Whether a note of this pitch starts in frames a..b. */
  startsWithin(a: number, b: number): boolean;
  /** Whether a note of this pitch started before `frame` and still sounds after it. */
  soundingAt(frame: number): boolean;
}

function indexByPitch(notes: readonly NoteCandidate[]): Map<number, PitchNotes> {
  const lists = new Map<number, NoteCandidate[]>();
  for (const q of notes) {
    const list = lists.get(q.pitch);
    if (list) list.push(q);
    else lists.set(q.pitch, [q]);
  }
  const index = new Map<number, PitchNotes>();
  for (const [pitch, list] of lists) {
    list.sort(byStart);
    const starts = list.map((q) => q.start);
    // Longest end among the notes before each position.
    const endBefore = new Float64Array(list.length + 1).fill(-Infinity);
    list.forEach((q, i) => {
      endBefore[i + 1] = Math.max(endBefore[i] ?? -Infinity, q.end);
    });
    /** Number of notes that start before `frame`. */
    const before = (frame: number) => firstAtLeast(starts, frame, (f) => f);
    index.set(pitch, {
      startsWithin: (a, b) => {
        const i = before(a);
        return i < starts.length && (starts[i] ?? Infinity) <= b;
      },
      soundingAt: (frame) => (endBefore[before(frame)] ?? -Infinity) > frame,
    });
  }
  return index;
}

/** Groups of attacked notes that form strums (start frames close together). */
export function findStrums(notes: readonly NoteCandidate[]): NoteCandidate[][] {
  const attacks = notes.filter((n) => n.source === 'attack').sort(byStart);
  const groups: NoteCandidate[][] = [];
  let current: NoteCandidate[] = [];
  for (const n of attacks) {
    const first = current[0];
    const last = current.at(-1);
    if (
      first !== undefined &&
      last !== undefined &&
      n.start - last.start <= STRUM_STEP &&
      n.start - first.start <= STRUM_SPAN
    ) {
      current.push(n);
      continue;
    }
    if (current.length >= STRUM_MIN_NOTES) groups.push(current);
    current = [n];
  }
  if (current.length >= STRUM_MIN_NOTES) groups.push(current);
  return groups;
}

/** The pitches of each strum that are worth a second look, with what the posteriorgram says. */
export function strumCandidates(
  output: ModelOutput,
  notes: readonly NoteCandidate[],
  options: NoteOptions,
): StrumCandidate[] {
  const minPitch = Math.max(21, Math.round(options.minPitch));
  const maxPitch = Math.min(108, Math.round(options.maxPitch));
  const n = output.frames.length;
  const out: StrumCandidate[] = [];
  const byPitch = indexByPitch(notes);
  const strums = findStrums(notes);
  // Notes of the strums before the current one that may still ring (pruned as time goes on,
  // so the scan stays linear in a lesson of thousands of strums).
  let earlier: NoteCandidate[] = [];
  let next = 0;
  for (const strum of strums) {
    const starts = strum.map((s) => s.start);
    const strumStart = Math.min(...starts);
    const strumEnd = Math.max(...starts);
    const pitches = strum.map((s) => s.pitch);
    const classes = new Set(pitches.map((p) => p % 12));
    const lo = Math.max(0, strumStart - STRUM_REACH);
    const hi = Math.min(n - 2, strumEnd + STRUM_REACH);
    // Pitches of earlier strums still ringing at this one: the chord strummed again.
    // A strum's notes are in start order (findStrums), so its first note starts it.
    while ((strums[next]?.[0]?.start ?? Infinity) < strumStart)
      earlier.push(...(strums[next++] ?? []));
    earlier = earlier.filter((q) => q.end > strumStart);
    const ringingStrummed = new Set(
      earlier.filter((q) => q.start < strumStart - STRUM_SPAN).map((q) => q.pitch),
    );
    for (let p = minPitch; p <= maxPitch; p++) {
      const restrum = ringingStrummed.has(p);
      if (!restrum && !classes.has(p % 12)) continue;
      // Already found at this strum.
      const ofPitch = byPitch.get(p);
      if (ofPitch?.startsWithin(lo - 1, hi + 1)) continue;
      let frame = -1;
      let onset = 0;
      for (let t = lo; t <= hi; t++) {
        const v = valueAt(output.onsets, t, p);
        const isPeak =
          v > valueAt(output.onsets, t - 1, p) && v >= valueAt(output.onsets, t + 1, p);
        if (isPeak && v > onset) {
          onset = v;
          frame = t;
        }
      }
      if (frame < 0) continue;
      const before = Math.min(
        valueAt(output.frames, frame - 1, p),
        valueAt(output.frames, frame - 2, p),
      );
      const after = peakOver(output.frames, p, frame, frame + 4);
      const ringing = ofPitch?.soundingAt(lo) ?? false;
      const ghostLike = strum.some(
        (q) => Math.abs(q.start - frame) <= GHOST_WINDOW && GHOST_INTERVALS.includes(p - q.pitch),
      );
      const place =
        p < Math.min(...pitches) ? 'below' : p > Math.max(...pitches) ? 'above' : 'inside';
      out.push({
        inOrder: inSweep(strum, p, frame),
        playable:
          options.strings === undefined ||
          playableShape([...pitches, p], options.strings, options.frets ?? 24),
        pitch: p,
        frame,
        onset,
        before,
        after,
        ringing,
        ghostLike,
        place,
        strumStart,
        strumEnd,
        strumPitches: pitches,
        restrum,
      });
    }
  }
  return out;
}

/**
 * The strum notes worth adding: a pitch class the strum already has or a pitch an earlier strum
 * left ringing, at or below its highest found note (below the strum only when it is not a bass
 * note left ringing alone), playable with the found notes in one hand position, whose onset peak
 * clears the weak-onset floor (onsets.ts) and whose note activation reaches the frame threshold
 * within the confirmation frames. Unlike an isolated weak onset, no rise of the note activation is asked
 * for (a re-strummed string is already ringing) and the note need not reach the amplitude
 * threshold (a doubled pitch class shares its energy with the other string's harmonics).
 * Above the highest found note is where every note of the chord has its overtones, and there an
 * onset peak is as often a harmonic as a string (measured on the SoundFont tuned part: 11 true
 * notes against 40 harmonics). A harmonic starts in the frame of the note it comes from, while
 * the top string (the doubled top note of an open chord) is struck in its own place in the
 * sweep: a pitch above the strum is added only when no found note a ghost interval below starts
 * with it and its onset is where the sweep passes it (on the SoundFont tuned part: 2 true notes
 * added, no harmonic; strum note recall 0.923 -> 0.935).
 */
export function acceptedStrumCandidates(
  output: ModelOutput,
  notes: readonly NoteCandidate[],
  options: NoteOptions,
): StrumCandidate[] {
  const floor = options.onsetThreshold * WEAK_ONSET_FACTOR;
  const accepted: StrumCandidate[] = [];
  const candidates = strumCandidates(output, notes, options)
    .filter(
      (c) =>
        (c.place !== 'above' || (!c.ghostLike && c.inOrder)) &&
        // A string still ringing below the strum may have been left out of it (a bass note
        // picked and held while the treble strings are strummed), unless an earlier strum struck
        // it: the same chord strummed again. One between struck strings was swept over and
        // struck again.
        !(c.ringing && c.place === 'below' && !c.restrum) &&
        c.playable &&
        c.onset > floor &&
        c.after >= options.frameThreshold,
    )
    .sort((a, b) => a.strumStart - b.strumStart || b.onset - a.onset);
  for (const c of candidates) {
    // Candidates of one strum must fit the hand together, strongest onset first.
    const same = accepted.filter((a) => a.strumStart === c.strumStart);
    if (same.length > 0 && options.strings !== undefined) {
      const found = c.strumPitches;
      const shape = [...found, ...same.map((a) => a.pitch), c.pitch];
      if (!playableShape(shape, options.strings, options.frets ?? 24)) continue;
    }
    accepted.push(c);
  }
  return accepted;
}

/**
 * `notes` with the accepted strum candidates added as attacked notes. Each is followed in its
 * pitch's note activation like any other (tracking.ts: until ENERGY_TOLERANCE quiet frames),
 * up to the next attack of its pitch; a note of the same pitch still ringing ends where it
 * begins (the string is struck again).
 */
export function recoverStrumNotes(
  output: ModelOutput,
  notes: readonly NoteCandidate[],
  options: NoteOptions,
): NoteCandidate[] {
  const accepted = acceptedStrumCandidates(output, notes, options);
  if (accepted.length === 0) return [...notes];
  const out = notes.map((n) => ({ ...n }));
  const n = output.frames.length;
  for (const c of accepted) {
    const start = c.frame;
    const next = out
      .filter((q) => q.pitch === c.pitch && q.start > start)
      .reduce((m, q) => Math.min(m, q.start), n - 1);
    let t = start + 1;
    let quiet = 0;
    while (t < next && quiet < ENERGY_TOLERANCE) {
      quiet = valueAt(output.frames, t, c.pitch) < options.frameThreshold ? quiet + 1 : 0;
      t++;
    }
    const end = t - quiet;
    if (end - start <= options.minNoteFrames) continue;
    const note: NoteCandidate = {
      start,
      end,
      pitch: c.pitch,
      onset: peakOver(output.onsets, c.pitch, start - 2, start + 2),
      amplitude: peakOver(output.frames, c.pitch, start, end - 1),
      source: 'attack',
    };
    // The ghost rule (ghosts.ts) holds here too: a weaker note an octave or a harmonic away from
    // a note struck in the same frame is that note heard again.
    if (out.some((q) => Math.abs(q.start - start) <= GHOST_WINDOW && isGhostOf(note, q))) continue;
    for (const q of out) if (q.pitch === c.pitch && q.start < start && q.end > start) q.end = start;
    out.push(note);
  }
  return out.sort(byStart);
}
