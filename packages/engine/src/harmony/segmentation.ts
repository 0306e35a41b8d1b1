import { pitchClass } from './spelling.js';
import { FIT_WEIGHTS, LABEL_COUNT, QUALITIES, labelFit, nameChord } from './templates.js';

/** A note as harmony sees it: when it sounds (seconds) and its MIDI pitch. */
export interface SoundingNote {
  time: number;
  endTime: number;
  pitch: number;
}

/**
 * Chord detection by optimal segmentation (pure).
 *
 * The clip is cut at note onsets (a strum's onsets are one cut) into segments. In each segment
 * every label (12 roots x 12 qualities) is scored by how well its template explains the pitch
 * classes sounding there (templates.ts). A dynamic programme then chooses spans of consecutive
 * segments and one label and one bass per span, maximising the summed segment fits (times their
 * lengths) plus the root-in-bass bonus, less a cost per span and a cost for every second whose
 * lowest note is not the span's bass. So a chord is named from everything that sounds while it
 * lasts (an arpeggio spells it note by note; a passing tone costs a little but does not change
 * it), a change of chord must explain the sound better than holding on, and a new bass note
 * under the same chord becomes a slash chord when it lasts. A note of the last chord that stops
 * within a strum's spread of a new onset is that chord's tail, damped by the strum: it does not
 * sound in the new segment, but may be its bass, so a chord change is not named on the old bass
 * and an up-strum that misses the bass string keeps the chord's bass.
 *
 * A span is a chord only where three or more pitch classes (or a power chord's root and fifth)
 * sound together at one of its onsets and the chord explains the sound better than "no chord";
 * elsewhere (single-note lines) there is no chord event.
 *
 * The constants were chosen on general grounds and checked on constructed progressions, never
 * fitted to a recording.
 */
export const CHORD_SETTINGS = {
  /** Onsets closer than this (seconds) are one strum. */
  onsetGroup: 0.035,
  /** A pitch class sounding this share of a segment counts as fully present. */
  presentShare: 0.5,
  /** A pitch class sounding less than this share of a segment counts as absent. */
  absentShare: 0.1,
  /**
   * Missing chord tones cost this share of FIT_WEIGHTS.missing in each segment: in an arpeggio
   * or a strum's decay not every chord tone sounds at every moment.
   */
  missingScale: 0.5,
  /** Per present pitch class, the fit of "no chord": a chord must explain more than this. */
  noChordFit: 0.1,
  /** Cost of starting a new span (fit x seconds): a change must earn it. */
  spanCost: 0.6,
  /** Per second of sound whose lowest note is not the span's bass. */
  bassMismatch: 1.5,
  /** Longest span considered, in segments and in seconds. */
  maxSegments: 32,
  maxSeconds: 12,
  /** Notes count as sounding together this long after an onset (a strum's spread). */
  strumSpread: 0.04,
  /** Silence at least this long (seconds) ends a chord; shorter rests (staccato) are bridged. */
  silenceBreak: 0.5,
} as const;

interface Segments {
  /** Start of each segment; the last entry is the end of the clip. */
  bounds: number[];
  /** Prefix sums over segments of length x fit, per label: fitPrefix[label][k]. */
  fitPrefix: Float64Array[];
  /** Prefix sums of length x "no chord" fit. */
  noChordPrefix: Float64Array;
  /**
   * Prefix sums of seconds whose lowest sounding pitch class is pc: bassPrefix[pc][k]. A segment
   * whose lowest note is the tail of the last chord's (see analyse) counts for both pitch classes.
   */
  bassPrefix: Float64Array[];
  /** Prefix sums of seconds with any sound. */
  soundPrefix: Float64Array;
  /** Prefix counts of segments where a chord sounds together at the onset. */
  chordalPrefix: Int32Array;
  /** Latest end of a note sounding in each segment (a chord ends at silence). */
  lastEnd: number[];
}

function prefix(length: number): Float64Array {
  return new Float64Array(length + 1);
}

function analyse(notes: readonly SoundingNote[]): Segments {
  const byStart = [...notes].sort((a, b) => a.time - b.time);
  const bounds: number[] = [];
  for (const n of byStart) {
    const last = bounds.at(-1);
    if (last === undefined || n.time - last > CHORD_SETTINGS.onsetGroup) bounds.push(n.time);
  }
  const end = Math.max(...notes.map((n) => n.endTime));
  bounds.push(Math.max(end, (bounds.at(-1) ?? 0) + 1e-3));
  const count = bounds.length - 1;
  const fitPrefix = Array.from({ length: LABEL_COUNT }, () => prefix(count));
  const noChordPrefix = prefix(count);
  const bassPrefix = Array.from({ length: 12 }, () => prefix(count));
  const soundPrefix = prefix(count);
  const chordalPrefix = new Int32Array(count + 1);
  const lastEnd: number[] = [];
  let first = 0;
  for (let k = 0; k < count; k += 1) {
    const from = bounds[k] ?? 0;
    const to = bounds[k + 1] ?? from;
    const length = to - from;
    const seconds = new Array<number>(12).fill(0);
    let lowest = Infinity;
    let tailLowest = Infinity;
    let latest = from;
    const together: number[] = [];
    const probe = from + CHORD_SETTINGS.strumSpread;
    while (first < byStart.length && (byStart[first]?.endTime ?? Infinity) <= from) first += 1;
    for (let i = first; i < byStart.length; i += 1) {
      const n = byStart[i];
      if (!n || n.time >= to) break;
      // A note of an earlier onset that stops within a strum's spread of this one is that
      // chord's tail: it does not sound here, but may still be heard as the bass (an up-strum
      // that misses the bass string, the bass of an oom-pah before its chord).
      if (n.time < from && n.endTime <= probe) {
        if (n.endTime > from) tailLowest = Math.min(tailLowest, n.pitch);
        continue;
      }
      const overlap = Math.min(n.endTime, to) - Math.max(n.time, from);
      if (overlap <= 0) continue;
      const pc = pitchClass(n.pitch);
      seconds[pc] = (seconds[pc] ?? 0) + overlap;
      lowest = Math.min(lowest, n.pitch);
      latest = Math.max(latest, Math.min(n.endTime, to));
      if (n.time <= probe && n.endTime > probe) together.push(n.pitch);
    }
    const presence = seconds.map((s) => {
      const share = length > 0 ? s / length : 0;
      return share < CHORD_SETTINGS.absentShare
        ? 0
        : Math.min(1, share / CHORD_SETTINGS.presentShare);
    });
    const total = presence.reduce((a, b) => a + b, 0);
    for (let label = 0; label < LABEL_COUNT; label += 1) {
      const p = fitPrefix[label];
      if (!p) continue;
      p[k + 1] = (p[k] ?? 0) + length * labelFit(presence, label, CHORD_SETTINGS.missingScale);
    }
    noChordPrefix[k + 1] = (noChordPrefix[k] ?? 0) + length * CHORD_SETTINGS.noChordFit * total;
    const sounding = total > 0 ? length : 0;
    soundPrefix[k + 1] = (soundPrefix[k] ?? 0) + sounding;
    for (let pc = 0; pc < 12; pc += 1) {
      const b = bassPrefix[pc];
      if (!b) continue;
      const isBass =
        total > 0 &&
        ((Number.isFinite(lowest) && pitchClass(lowest) === pc) ||
          (tailLowest < lowest && pitchClass(tailLowest) === pc));
      b[k + 1] = (b[k] ?? 0) + (isBass ? length : 0);
    }
    chordalPrefix[k + 1] = (chordalPrefix[k] ?? 0) + (nameChord(together) ? 1 : 0);
    lastEnd.push(latest);
  }
  return { bounds, fitPrefix, noChordPrefix, bassPrefix, soundPrefix, chordalPrefix, lastEnd };
}

interface SpanChoice {
  value: number;
  /** Label index, or -1 for no chord. */
  label: number;
  bass: number;
}

const span = (p: Float64Array | Int32Array | undefined, i: number, j: number) =>
  (p?.[j] ?? 0) - (p?.[i] ?? 0);

/** The best label and bass for segments i..j-1 (or no chord) and the span's value. */
function chooseSpan(s: Segments, i: number, j: number): SpanChoice {
  const none: SpanChoice = { value: span(s.noChordPrefix, i, j), label: -1, bass: -1 };
  if (span(s.chordalPrefix, i, j) === 0) return none;
  const sound = span(s.soundPrefix, i, j);
  // The best quality per root, and over all roots; the bass then adds its bonus or cost.
  const rootBest = new Array<number>(12).fill(-Infinity);
  const rootLabel = new Array<number>(12).fill(-1);
  let overall = -1;
  for (let label = 0; label < LABEL_COUNT; label += 1) {
    const root = Math.floor(label / QUALITIES.length);
    const value = span(s.fitPrefix[label], i, j);
    if (value > (rootBest[root] ?? -Infinity)) {
      rootBest[root] = value;
      rootLabel[root] = label;
    }
  }
  rootBest.forEach((v, root) => {
    if (overall < 0 || v > (rootBest[overall] ?? -Infinity)) overall = root;
  });
  let best = none;
  for (let bass = 0; bass < 12; bass += 1) {
    const bassTime = span(s.bassPrefix[bass], i, j);
    if (bassTime <= 0) continue;
    const mismatch = CHORD_SETTINGS.bassMismatch * (sound - bassTime);
    const onBass = (rootBest[bass] ?? -Infinity) + FIT_WEIGHTS.rootInBass * sound;
    const other = rootBest[overall] ?? -Infinity;
    const [value, root] = onBass >= other ? [onBass, bass] : [other, overall];
    if (value - mismatch > best.value) {
      best = { value: value - mismatch, label: rootLabel[root] ?? -1, bass };
    }
  }
  return best;
}

/** A chord span as numbers: root and bass pitch classes and the quality suffix. */
export interface ChordSpan {
  time: number;
  endTime: number;
  root: number;
  suffix: string;
  bass: number;
}

/**
 * The chord spans of a clip (see the module comment), in time order, unchanged neighbours
 * merged. Notes with non-finite times or pitch, or no length, are ignored.
 */
export function segmentChords(notes: readonly SoundingNote[]): ChordSpan[] {
  const valid = notes
    .filter(
      (n) =>
        Number.isFinite(n.time) &&
        Number.isFinite(n.endTime) &&
        Number.isFinite(n.pitch) &&
        n.endTime > n.time,
    )
    .sort((a, b) => a.time - b.time);
  // Stretches of sound separated by long silences are segmented on their own.
  const out: ChordSpan[] = [];
  let island: SoundingNote[] = [];
  let end = -Infinity;
  for (const n of valid) {
    if (island.length > 0 && n.time - end >= CHORD_SETTINGS.silenceBreak) {
      out.push(...segmentIsland(island));
      island = [];
    }
    island.push(n);
    end = Math.max(end, n.endTime);
  }
  if (island.length > 0) out.push(...segmentIsland(island));
  return out;
}

function segmentIsland(valid: readonly SoundingNote[]): ChordSpan[] {
  const s = analyse(valid);
  const count = s.bounds.length - 1;

  // best[j]: the best value of segments 0..j-1; choice[j]: its last span, starting at from[j].
  const best = new Float64Array(count + 1).fill(-Infinity);
  best[0] = 0;
  const from = new Int32Array(count + 1);
  const choice: SpanChoice[] = new Array<SpanChoice>(count + 1);
  for (let j = 1; j <= count; j += 1) {
    const end = s.bounds[j] ?? 0;
    for (let i = j - 1; i >= 0 && j - i <= CHORD_SETTINGS.maxSegments; i -= 1) {
      if (end - (s.bounds[i] ?? 0) > CHORD_SETTINGS.maxSeconds && i < j - 1) break;
      const c = chooseSpan(s, i, j);
      const total = (best[i] ?? -Infinity) + c.value - CHORD_SETTINGS.spanCost;
      if (total > (best[j] ?? -Infinity)) {
        best[j] = total;
        from[j] = i;
        choice[j] = c;
      }
    }
  }

  const spans: ChordSpan[] = [];
  for (let j = count; j > 0;) {
    const i = from[j] ?? 0;
    const c = choice[j];
    if (c && c.label >= 0) {
      const time = s.bounds[i] ?? 0;
      // A chord ends where its last note stops if the clip falls silent before the next onset.
      const endTime = Math.min(s.bounds[j] ?? time, s.lastEnd[j - 1] ?? Infinity);
      spans.push({
        time,
        endTime,
        root: Math.floor(c.label / QUALITIES.length),
        suffix: QUALITIES[c.label % QUALITIES.length]?.suffix ?? '',
        bass: c.bass,
      });
    }
    j = i;
  }
  spans.reverse();
  const out: ChordSpan[] = [];
  for (const span of spans) {
    const last = out.at(-1);
    if (
      last?.root === span.root &&
      last.suffix === span.suffix &&
      last.bass === span.bass &&
      span.time - last.endTime < 1e-6
    ) {
      last.endTime = span.endTime;
    } else out.push(span);
  }
  return out;
}
