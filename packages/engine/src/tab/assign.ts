import type { DetectedNote, GuitarSetup, TabNote } from '../types.js';
import { fret as toFret, stringNumber } from '../units.js';
import {
  HAND_BOX,
  MAX_STRETCH,
  TAB_WEIGHTS,
  fingeringsOf,
  handPositions,
  positionCost,
  positionsOf,
  type Fingering,
} from './fingering.js';
import { groupNotes, type NoteGroup } from './groups.js';

/** At most this many fingerings per group are searched (the cheapest shapes). */
const MAX_FINGERINGS = 48;
/**
 * A note counts as still sounding at the next onset when it lasts this much beyond it; shorter
 * overlaps are the release of a note the player already let go.
 */
const RING_OVERLAP = 0.06;
/**
 * Onset activation below which a note had no pluck of its own: the notes stage keeps such a
 * note only as a legato continuation, below 0.6 x its 0.7 onset threshold.
 */
export const LEGATO_ONSET = 0.42;
/** A legato note continues the string's previous note: it stopped within this many seconds. */
const LEGATO_GAP = 0.06;
/** Largest interval (semitones) a hammer-on, pull-off or slide covers on one string. */
const LEGATO_INTERVAL = 12;

/** Why notes were left out of the tab; every count is a number of notes. */
export interface DroppedNotes {
  /** A time or pitch that is not a finite number, or an end before the start. */
  invalid: number;
  /** No string reaches the pitch with this tuning, capo and fret count. */
  outOfRange: number;
  /** More than six notes struck together: the weakest beyond six. */
  overSixStrings: number;
  /** No one-hand fingering plays the whole group: its weakest notes, until one does. */
  unplayable: number;
}

/** The tab of a clip and the notes that could not be placed. */
export interface TabAssignment {
  /** Every placed note, sorted by time then from the low string up; frets 0..setup.frets. */
  notes: TabNote[];
  dropped: DroppedNotes;
}

/** One Viterbi state: a fingering of the group held with the index finger at `position`. */
interface State {
  fingering: Fingering;
  position: number;
  /** Cost of the shape and of holding it at this position. */
  local: number;
}

/** The last note placed on each string along a path (index 1..6), to keep ringing notes whole. */
interface Strings {
  end: Float64Array;
  pitch: Float64Array;
  fret: Float64Array;
}

const emptyStrings = (): Strings => ({
  end: new Float64Array(7).fill(-Infinity),
  pitch: new Float64Array(7).fill(-1),
  fret: new Float64Array(7).fill(-1),
});

function statesOf(options: Fingering[], setup: GuitarSetup): State[] {
  const states: State[] = [];
  for (const fingering of options) {
    if (fingering.low === null) {
      // An all-open group holds no fret: the hand may be anywhere, usually where it was.
      for (let position = 1; position <= Math.max(1, setup.frets - HAND_BOX + 1); position += 1) {
        states.push({
          fingering,
          position,
          local: fingering.own + positionCost(fingering, position),
        });
      }
      continue;
    }
    for (const { position, cost } of handPositions(fingering, setup)) {
      states.push({ fingering, position, local: fingering.own + cost });
    }
  }
  return states;
}

/** Cost of moving from one state to the next: hand shift, string changes, cutting ringing notes. */
function transitionCost(
  from: State,
  ringing: Strings,
  to: State,
  group: NoteGroup,
  previousGroup: NoteGroup,
): number {
  let cost = 0;
  if (from.position !== to.position) {
    cost +=
      TAB_WEIGHTS.shiftStart +
      TAB_WEIGHTS.shift * Math.abs(to.position - from.position) +
      TAB_WEIGHTS.height * (to.position - 1);
  }
  if (group.notes.length === 1 && previousGroup.notes.length === 1) {
    const a = from.fingering.strings[0] ?? 0;
    const b = to.fingering.strings[0] ?? 0;
    cost += TAB_WEIGHTS.stringChange * Math.abs(a - b);
  }
  const { strings } = to.fingering;
  strings.forEach((s, k) => {
    const note = group.notes[k];
    if (!note || note.onset >= LEGATO_ONSET) return;
    const end = ringing.end[s] ?? -Infinity;
    const interval = Math.abs(note.pitch - (ringing.pitch[s] ?? -100));
    const continues =
      Math.abs(end - note.time) <= LEGATO_GAP && interval >= 1 && interval <= LEGATO_INTERVAL;
    if (!continues) cost += TAB_WEIGHTS.legatoElsewhere;
  });
  const limit = group.time + RING_OVERLAP;
  for (let s = 1; s <= 6; s += 1) {
    if ((ringing.end[s] ?? -Infinity) <= limit) continue;
    const pitch = ringing.pitch[s] ?? -1;
    const k = strings.indexOf(s);
    if (k >= 0) {
      if (group.notes[k]?.pitch !== pitch) cost += TAB_WEIGHTS.cutRinging;
    } else {
      const held = ringing.fret[s] ?? 0;
      const reach = held > 0 && to.fingering.low !== null;
      if (
        reach &&
        (held < to.position - MAX_STRETCH || held > to.position + HAND_BOX - 1 + MAX_STRETCH)
      ) {
        cost += TAB_WEIGHTS.cutRinging;
      }
      // The same pitch struck again while it rings belongs on the string that rings it.
      if (group.notes.some((n) => n.pitch === pitch)) cost += TAB_WEIGHTS.repeatMoved;
    }
  }
  return cost;
}

function place(ringing: Strings, state: State, group: NoteGroup): Strings {
  const next: Strings = {
    end: Float64Array.from(ringing.end),
    pitch: Float64Array.from(ringing.pitch),
    fret: Float64Array.from(ringing.fret),
  };
  state.fingering.strings.forEach((s, k) => {
    const note = group.notes[k];
    if (!note) return;
    next.end[s] = note.endTime;
    next.pitch[s] = note.pitch;
    next.fret[s] = state.fingering.frets[k] ?? 0;
  });
  return next;
}

/**
 * Chooses string and fret for every note by optimising the whole clip. Notes struck together
 * (see groupNotes) form a group; each group has candidate fingerings (one note per
 * string, a shape one hand can hold) held at candidate hand positions; a Viterbi search finds
 * the cheapest path, weighing hand shifts, fret height, stretches, voicing, string changes, open
 * strings up the neck and notes still sounding that a choice would cut (TAB_WEIGHTS).
 * Ringing notes are followed along each state's best path, the usual approximation that keeps
 * the search linear in the clip's length.
 *
 * Notes no string reaches (tuning, capo, frets 0..setup.frets relative to the capo) are dropped,
 * never written with an invalid fret; so are the weakest of more than six simultaneous notes and
 * of a group no hand can hold. Pure and deterministic.
 */
export function assignTabWithReport(
  notes: readonly DetectedNote[],
  setup: GuitarSetup,
): TabAssignment {
  const valid = notes.filter(
    (n) =>
      Number.isFinite(n.time) &&
      Number.isFinite(n.endTime) &&
      Number.isFinite(n.pitch) &&
      n.endTime >= n.time,
  );
  const playable = valid.filter((n) => positionsOf(n.pitch, setup).length > 0);
  const dropped: DroppedNotes = {
    invalid: notes.length - valid.length,
    outOfRange: valid.length - playable.length,
    overSixStrings: 0,
    unplayable: 0,
  };
  const grouped = groupNotes(playable);
  dropped.overSixStrings = grouped.dropped.length;

  const layers: { group: NoteGroup; options: Fingering[] }[] = [];
  for (const group of grouped.groups) {
    let options = fingeringsOf(
      group.notes.map((n) => n.pitch),
      setup,
      MAX_FINGERINGS,
    );
    while (options.length === 0 && group.notes.length > 1) {
      let weakest = 0;
      group.notes.forEach((n, i) => {
        if (n.amplitude < (group.notes[weakest]?.amplitude ?? Infinity)) weakest = i;
      });
      group.notes.splice(weakest, 1);
      dropped.unplayable += 1;
      options = fingeringsOf(
        group.notes.map((n) => n.pitch),
        setup,
        MAX_FINGERINGS,
      );
    }
    if (options.length > 0) layers.push({ group, options });
  }
  if (layers.length === 0) return { notes: [], dropped };

  // Viterbi over the layers; each state keeps its best predecessor and that path's strings.
  const states: State[][] = [];
  const back: number[][] = [];
  let best: number[] = [];
  let ringing: Strings[] = [];
  layers.forEach((layer, i) => {
    const layerStates = statesOf(layer.options, setup);
    const prevStates = states[i - 1];
    const prevLayer = layers[i - 1];
    const nextBest: number[] = [];
    const nextBack: number[] = [];
    const nextRinging: Strings[] = [];
    for (const state of layerStates) {
      // The first group places the hand: it pays for the height of its position.
      let min = TAB_WEIGHTS.height * (state.position - 1);
      let arg = -1;
      if (prevStates && prevLayer) {
        min = Infinity;
        prevStates.forEach((prev, j) => {
          const strings = ringing[j];
          if (!strings) return;
          const c =
            (best[j] ?? Infinity) +
            transitionCost(prev, strings, state, layer.group, prevLayer.group);
          if (c < min) {
            min = c;
            arg = j;
          }
        });
      }
      nextBest.push(min + state.local);
      nextBack.push(arg);
      nextRinging.push(place(ringing[arg] ?? emptyStrings(), state, layer.group));
    }
    states.push(layerStates);
    back.push(nextBack);
    best = nextBest;
    ringing = nextRinging;
  });

  let k = 0;
  best.forEach((c, i) => {
    if (c < (best[k] ?? Infinity)) k = i;
  });
  const out: TabNote[] = [];
  for (let i = layers.length - 1; i >= 0 && k >= 0; i -= 1) {
    const state = states[i]?.[k];
    const layer = layers[i];
    if (!state || !layer) break;
    layer.group.notes.forEach((note, n) => {
      out.push({
        ...note,
        string: stringNumber(state.fingering.strings[n] ?? 1),
        fret: toFret(state.fingering.frets[n] ?? 0),
      });
    });
    k = back[i]?.[k] ?? -1;
  }
  out.sort((a, b) => a.time - b.time || b.string - a.string);
  return { notes: out, dropped };
}

/**
 * String and fret for every playable note, optimised over the whole clip (see
 * assignTabWithReport, which also counts the notes left out). Pure and deterministic.
 */
export function assignTab(notes: readonly DetectedNote[], setup: GuitarSetup): TabNote[] {
  return assignTabWithReport(notes, setup).notes;
}

export { positionsOf };
