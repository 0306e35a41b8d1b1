import { setTechnique, techniqueOn, type NoteEvent } from '@riffscribe/core';
import { indexTab, sourceTabNote } from '../tab/confidence.js';
import { openPitch } from '../tab/fingering.js';
import { keepHandInPosition } from '../tab/hand-position.js';
import type { GuitarSetup, TabNote } from '../types.js';

/** Notes of a strum heard in a recording start up to this far apart (tab/groups.ts). */
const STRUM_SECONDS = 0.09;

/** Whether `from` and `to` are joined by one slur or slide (trailing on one, leading on the next). */
function joined(from: NoteEvent, to: NoteEvent): boolean {
  const link = techniqueOn(from, 'trailing');
  return link !== null && link === techniqueOn(to, 'leading');
}

/** For each event, the index of the next pitched event on its string (time order), or -1. */
function nextOnString(events: readonly NoteEvent[]): number[] {
  const order = events
    .map((_, i) => i)
    .sort((a, b) => (events[a]?.time ?? 0) - (events[b]?.time ?? 0));
  const next = new Array<number>(events.length).fill(-1);
  const last = new Map<number, number>();
  for (const i of order) {
    const e = events[i];
    if (!e || e.mute) continue;
    const before = last.get(e.string);
    if (before !== undefined) next[before] = i;
    last.set(e.string, i);
  }
  return next;
}

/** Runs of events joined by a slur or a slide on one string (indices, time order). */
export function techniqueRuns(events: readonly NoteEvent[]): number[][] {
  const next = nextOnString(events);
  const taken = new Set<number>();
  const runs: number[][] = [];
  events.forEach((e, i) => {
    if (taken.has(i) || e.mute) return;
    const run = [i];
    let at = i;
    for (;;) {
      const j = next[at] ?? -1;
      const from = events[at];
      const to = events[j];
      if (!from || !to || !joined(from, to)) break;
      run.push(j);
      taken.add(j);
      at = j;
    }
    if (run.length > 1) runs.push(run);
  });
  return runs;
}

/**
 * Marks that join two notes hold only between neighbours on one string: a trailing mark whose
 * next note on the string does not lead in with it (or a leading mark without its trailing one)
 * is dropped, as after a note moved to another string.
 */
export function consistentLinks(events: readonly NoteEvent[]): NoteEvent[] {
  const next = nextOnString(events);
  const previous = new Array<number>(events.length).fill(-1);
  next.forEach((j, i) => {
    if (j >= 0) previous[j] = i;
  });
  return events.map((e, i) => {
    if (e.mute) return e;
    const after = events[next[i] ?? -1];
    const before = events[previous[i] ?? -1];
    let out = e;
    if (techniqueOn(e, 'trailing') && !(after && joined(e, after)))
      out = setTechnique(out, 'trailing', null);
    if (techniqueOn(e, 'leading') && !(before && joined(before, e)))
      out = setTechnique(out, 'leading', null);
    return out;
  });
}

/**
 * The technique stage's notes with the hand's position rule applied again (tab/hand-position.ts):
 * the stage keeps a slurred or slid run on one string, which can take it out of the hand's reach
 * (a B4 at fret 21 of the D string with its pull-offs at 14 and 11, in a lead played around the
 * 9th fret). A run moves whole to a string in reach where it can; otherwise its notes out of
 * reach move alone and lose the marks that joined them. A note's bend and release frets move
 * with it. Dead notes stay where they are.
 */
export function keepEventsInPosition(
  events: readonly NoteEvent[],
  tab: readonly TabNote[],
  setup: GuitarSetup,
): NoteEvent[] {
  const pitched = events.filter((e) => !e.mute);
  const dead = events.filter((e) => e.mute);
  const pitchOf = (e: NoteEvent) => openPitch(setup, e.string) + e.fret;
  const index = indexTab(tab);
  const sources = new Map(pitched.map((e) => [e, sourceTabNote(e, index, setup)]));
  const runs = techniqueRuns(pitched);
  const slid = (run: readonly number[]) => run.some((i) => pitched[i]?.trailing_slide === true);
  const moved = keepHandInPosition(pitched, setup, {
    pitchOf,
    runs: runs.filter((run) => !slid(run)),
    // A slide carries the hand along the string: where it arrives is the hand's new place.
    carried: runs.filter(slid),
    chordSeconds: STRUM_SECONDS,
    preference: (e, s) => sources.get(e)?.stringProbabilities?.[s - 1],
    // A bent or shaken note needs a finger on the string (never an open string), and its bend
    // must stay on the neck.
    canPlace: (e, _s, f) =>
      ((e.bend_to_fret === null && e.vibrato === '') || f > 0) &&
      (e.bend_to_fret === null || e.bend_to_fret - e.fret + f <= setup.frets),
    moveTo: (e, s, f) => {
      const shift = f - e.fret;
      const next: NoteEvent = {
        ...e,
        string: s,
        fret: f,
        bend_to_fret: e.bend_to_fret === null ? null : e.bend_to_fret + shift,
        release_to_fret: e.release_to_fret === null ? null : e.release_to_fret + shift,
      };
      sources.set(next, sources.get(e));
      return next;
    },
  });
  return consistentLinks([...moved, ...dead]).sort(
    (a, b) => a.time - b.time || b.string - a.string,
  );
}
