import type { DetectedNote, GuitarSetup, TabNote } from '../types.js';
import { fret as toFret, stringNumber } from '../units.js';

/**
 * Weights of the path cost, in "frets of hand movement" so they compare. Chosen on general
 * playing grounds (a shift of the hand costs more than reaching up the neck; a stretch beyond
 * four frets is hard; open strings are cheap to play but break a hand position when the
 * fretted notes around them sit high), not fitted to any recording.
 */
export const TAB_WEIGHTS = {
  /** Per fret of hand-position shift between consecutive groups. */
  shift: 1.0,
  /** Extra cost when the hand moves at all (a shift is one decision, however small). */
  shiftStart: 0.5,
  /** Per fret of height of the hand position (higher positions are a little harder). */
  height: 0.03,
  /**
   * Per string above the A string carrying a chord's bass note: guitarists voice
   * a chord with its lowest note on the bass strings when the shape allows it.
   */
  bassString: 0.3,
  /** Per fret of span beyond a comfortable four-fret box. */
  stretch: 3.0,
  /** Span beyond which a fingering is not playable at all (frets, fretted notes only). */
  maxSpan: 5,
  /** Per string of movement of a single-note line between consecutive notes. */
  stringChange: 0.25,
  /** An open string played while the hand is up the neck (per fret of hand height, capped). */
  openAwayFromNut: 0.05,
  /** A new note on a string still ringing an earlier note that has not ended. */
  cutRinging: 1.5,
} as const;

/** Onsets within this many seconds are one group (a strum spreads its notes over ~30 ms). */
const GROUP_WINDOW = 0.035;
/** At most this many fingerings are kept per group (the cheapest by their own cost). */
const MAX_CANDIDATES = 60;

interface Fingering {
  /** String of each note of the group, in the group's order. */
  strings: number[];
  frets: number[];
  /** Hand position: lowest fretted note, or null when every note is open. */
  position: number | null;
  own: number;
}

/** Open pitch of string s (1 = high e) with the capo. */
function openPitch(setup: GuitarSetup, s: number): number {
  return (setup.tuning[6 - s] ?? 0) + setup.capo;
}

/** Where a pitch can be played: [string, fret] pairs within 0..setup.frets. */
export function positionsOf(pitch: number, setup: GuitarSetup): [number, number][] {
  const out: [number, number][] = [];
  for (let s = 1; s <= 6; s += 1) {
    const f = pitch - openPitch(setup, s);
    if (f >= 0 && f <= setup.frets) out.push([s, f]);
  }
  return out;
}

function ownCost(
  strings: number[],
  frets: number[],
  pitches: number[],
): { cost: number; position: number | null } | null {
  let bass = 0;
  if (pitches.length > 1) {
    const lowest = pitches.indexOf(Math.min(...pitches));
    bass = TAB_WEIGHTS.bassString * Math.max(0, 5 - (strings[lowest] ?? 6));
  }
  const fretted = frets.filter((f) => f > 0);
  if (fretted.length === 0) return { cost: bass, position: null };
  const low = Math.min(...fretted);
  const span = Math.max(...fretted) - low;
  if (span > TAB_WEIGHTS.maxSpan) return null;
  const opens = frets.length - fretted.length;
  let cost = bass + TAB_WEIGHTS.height * low + TAB_WEIGHTS.stretch * Math.max(0, span - 3);
  cost += opens * TAB_WEIGHTS.openAwayFromNut * Math.min(low, 12);
  return { cost, position: low };
}

/** Every playable fingering of a group (one note per string), cheapest first. */
function fingerings(pitches: number[], setup: GuitarSetup): Fingering[] {
  const options = pitches.map((p) => positionsOf(p, setup));
  const out: Fingering[] = [];
  const strings: number[] = [];
  const frets: number[] = [];
  const used = new Set<number>();
  const walk = (i: number) => {
    if (out.length > 5000) return;
    if (i === pitches.length) {
      const own = ownCost(strings, frets, pitches);
      if (own) {
        out.push({
          strings: [...strings],
          frets: [...frets],
          position: own.position,
          own: own.cost,
        });
      }
      return;
    }
    for (const [s, f] of options[i] ?? []) {
      if (used.has(s)) continue;
      used.add(s);
      strings.push(s);
      frets.push(f);
      walk(i + 1);
      used.delete(s);
      strings.pop();
      frets.pop();
    }
  };
  walk(0);
  return out.sort((a, b) => a.own - b.own).slice(0, MAX_CANDIDATES);
}

interface Group {
  notes: DetectedNote[];
  time: number;
}

function groupNotes(notes: readonly DetectedNote[]): Group[] {
  const sorted = [...notes].sort((a, b) => a.time - b.time || a.pitch - b.pitch);
  const groups: Group[] = [];
  for (const note of sorted) {
    const last = groups.at(-1);
    if (last && note.time - last.time <= GROUP_WINDOW && last.notes.length < 6) {
      // Two notes of one pitch in one group cannot both be played: keep the stronger.
      const same = last.notes.findIndex((n) => n.pitch === note.pitch);
      if (same >= 0) {
        if ((last.notes[same]?.amplitude ?? 0) < note.amplitude) last.notes[same] = note;
      } else last.notes.push(note);
    } else {
      groups.push({ notes: [note], time: note.time });
    }
  }
  return groups;
}

function transition(
  prev: Fingering,
  prevGroup: Group,
  next: Fingering,
  nextGroup: Group,
  lastPosition: number | null,
): number {
  let cost = 0;
  const from = prev.position ?? lastPosition;
  if (from !== null && next.position !== null && from !== next.position) {
    cost += TAB_WEIGHTS.shiftStart + TAB_WEIGHTS.shift * Math.abs(next.position - from);
  }
  if (prev.strings.length === 1 && next.strings.length === 1) {
    cost += TAB_WEIGHTS.stringChange * Math.abs((prev.strings[0] ?? 0) - (next.strings[0] ?? 0));
  }
  // A note of the previous group still ringing well past the new onset wants its string kept.
  prevGroup.notes.forEach((note, i) => {
    const s = prev.strings[i];
    if (note.endTime - nextGroup.time > 0.08 && next.strings.includes(s ?? -1)) {
      cost += TAB_WEIGHTS.cutRinging;
    }
  });
  return cost;
}

/**
 * Chooses string and fret for every note by optimising the whole clip (Viterbi over the
 * fingerings of each group of simultaneous notes): the path cost weighs hand-position shifts,
 * fret height, stretch beyond a four-fret box, string changes in single-note lines, open strings
 * away from the nut and cutting a ringing string. Notes no string can reach with the tuning,
 * capo and fret count are dropped. Pure; deterministic.
 */
export function assignTab(notes: readonly DetectedNote[], setup: GuitarSetup): TabNote[] {
  const playable = notes.filter((n) => positionsOf(n.pitch, setup).length > 0);
  const groups = groupNotes(playable);
  const layers: { options: Fingering[]; group: Group }[] = [];
  for (const group of groups) {
    let options = fingerings(
      group.notes.map((n) => n.pitch),
      setup,
    );
    // No fingering plays them all (too wide): drop the weakest note until one does.
    while (options.length === 0 && group.notes.length > 1) {
      const weakest = group.notes.reduce(
        (w, n, i, all) => (n.amplitude < (all[w]?.amplitude ?? Infinity) ? i : w),
        0,
      );
      group.notes.splice(weakest, 1);
      options = fingerings(
        group.notes.map((n) => n.pitch),
        setup,
      );
    }
    if (options.length > 0) layers.push({ options, group });
  }
  if (layers.length === 0) return [];

  // Viterbi: best[i][k] = cheapest path ending in option k of layer i.
  const best: number[][] = [];
  const back: number[][] = [];
  const hand: (number | null)[][] = [];
  layers.forEach((layer, i) => {
    if (i === 0) {
      best.push(layer.options.map((o) => o.own));
      back.push(layer.options.map(() => -1));
      hand.push(layer.options.map((o) => o.position));
      return;
    }
    const prevLayer = layers[i - 1];
    const prevBest = best[i - 1] ?? [];
    const prevHand = hand[i - 1] ?? [];
    const row: number[] = [];
    const from: number[] = [];
    const handRow: (number | null)[] = [];
    for (const option of layer.options) {
      let min = Infinity;
      let arg = 0;
      prevLayer?.options.forEach((prev, j) => {
        const c =
          (prevBest[j] ?? Infinity) +
          transition(prev, prevLayer.group, option, layer.group, prevHand[j] ?? null);
        if (c < min) {
          min = c;
          arg = j;
        }
      });
      row.push(min + option.own);
      from.push(arg);
      handRow.push(option.position ?? prevHand[arg] ?? null);
    }
    best.push(row);
    back.push(from);
    hand.push(handRow);
  });

  const last = best.length - 1;
  let k = (best[last] ?? []).reduce((b, c, i, all) => (c < (all[b] ?? Infinity) ? i : b), 0);
  const out: TabNote[] = [];
  for (let i = last; i >= 0; i -= 1) {
    const layer = layers[i];
    const option = layer?.options[k];
    if (!layer || !option) break;
    layer.group.notes.forEach((note, n) => {
      out.push({
        ...note,
        string: stringNumber(option.strings[n] ?? 1),
        fret: toFret(option.frets[n] ?? 0),
      });
    });
    k = back[i]?.[k] ?? 0;
  }
  return out.sort((a, b) => a.time - b.time || b.string - a.string);
}
