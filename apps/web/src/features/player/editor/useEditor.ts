import {
  BEND_PRESETS,
  applyBend,
  doubleBeats,
  halveBeats,
  moveBarLine,
  setTimeSignature,
  tapBarLine,
  barAt,
  type BeatGrid,
  SUGGESTION_NAMES,
  confirmNote,
  moveToPosition,
  clearBend,
  moveByString,
  newChord,
  newNote,
  nudgeNote,
  nudgeStep,
  pasteNotesAt,
  record,
  renameChord,
  setChordEnd,
  setFret,
  setNoteEnd,
  setNoteStart,
  setTechnique,
  setVibrato,
  shiftTime,
  toggleMute,
  typeFretDigit,
  type BendPreset,
  type ChordEvent,
  type NoteEvent,
  type PendingFret,
  type Position,
  type RefingeredNote,
  type Tuning,
} from '@riffscribe/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { History, LessonDoc } from '../model/history';
import type { NoteIndex } from '../model/noteIndex';
import type { TimelineOverlay } from '../timeline/renderer';
import type { TimelineEditing, TimelinePoint } from '../ui/TimelineCanvas';
import {
  addChord,
  addNotes,
  applyRefingered,
  applySuggestion,
  patchChord,
  patchNotes,
  removeChord,
  removeNotes,
  type Edited,
} from './editCommands';
import type { EditKey } from './editorKeys';
import { hitTest, notesInRect } from './hitTest';
import { BAR_NUMBER_RISE } from '../timeline/draw';
import { stringY } from '../timeline/layout';
import { doubtfulCount, fretChoice, nextDoubtful, reviewLoop } from '../review/reviewQueue';

export interface Selection {
  notes: readonly number[];
  chord: number | null;
}
const NONE: Selection = { notes: [], chord: null };

/** A drag in progress: what it moves, from the history before it (one undo step per drag). */
type Drag =
  | { kind: 'rect'; x0: number; y0: number; moved: boolean; add: boolean }
  | { kind: 'barLine'; bar: number; base: History; moved: boolean; x0: number }
  | { kind: 'noteStart' | 'noteEnd'; note: number; base: History; moved: boolean; x0: number }
  | { kind: 'chordMove' | 'chordEnd'; chord: number; base: History; x0: number; moved: boolean };

/** The chord name being typed: for a new chord at a time, or a rename of chord `index`. */
export type ChordNaming = { mode: 'add'; time: number } | { mode: 'rename'; index: number };

/**
 * Edit mode (spec section 4, Editing interactions; section 5, Notes and chords): the selection,
 * the keyboard's and the mouse's edits on the timeline, the clipboard. Every edit goes through
 * the undo history as one step (a drag is one step however far it goes).
 */
export function useEditor(input: {
  enabled: boolean;
  history: History;
  setHistory: (h: History) => void;
  index: NoteIndex;
  zoom: number;
  duration: number;
  tuning: Tuning;
  capo: number;
  /** The playhead, seconds. */
  now: () => number;
  /** The review queue went to this note (it is selected): the player loops around it. */
  onReview?: (note: NoteEvent) => void;
}) {
  const { enabled, history, setHistory, index, zoom, duration, tuning, capo, now } = input;
  const [selection, setSelection] = useState<Selection>(NONE);
  const [rect, setRect] = useState<TimelineOverlay['rect']>(null);
  const [naming, setNaming] = useState<ChordNaming | null>(null);
  const [refingering, setRefingering] = useState(false);
  /** Why the last command changed nothing (a refused string move), shown until the next one. */
  const [refusal, setRefusal] = useState<string | null>(null);
  const clipboard = useRef<NoteEvent[]>([]);
  const pending = useRef<PendingFret | null>(null);
  /**
   * The note the last D went to, and its loop: when that note is gone from the selection (deleted,
   * or the selection cleared) while the playhead is still in its loop, the next D goes on from it
   * instead of from the loop's start, so the notes already passed are not offered again.
   */
  const reviewed = useRef<{
    time: number;
    string: number;
    index: number;
    start: number;
    end: number;
  } | null>(null);
  const drag = useRef<Drag | null>(null);
  const curveBase = useRef<History | null>(null);
  const live = useRef({ history, index });
  useEffect(() => {
    live.current = { history, index };
  }, [history, index]);

  const doc = history.doc;
  // A selection that outlived its notes (undo, another source) keeps only what still exists.
  const valid: Selection = useMemo(
    () => ({
      notes: selection.notes.filter((i) => i < doc.notes.length),
      chord:
        selection.chord !== null && selection.chord < doc.chords.length ? selection.chord : null,
    }),
    [selection, doc],
  );

  const commit = (label: string, edited: Edited, base: History = live.current.history) => {
    const next = record(base, label, edited.doc);
    setHistory(next);
    live.current = { ...live.current, history: next };
    setSelection({ notes: edited.notes, chord: edited.chord });
  };
  /**
   * A change of the beats and bars as one undo step (the selection stays); nothing is recorded
   * when the edit could not be made (core answers the same grid).
   */
  const editBeats = (
    label: string,
    change: (grid: BeatGrid) => BeatGrid,
    base: History = live.current.history,
  ) => {
    const grid = base.doc.beats;
    if (!grid) return;
    const next = change(grid);
    if (next === grid && base === live.current.history) return;
    commit(
      label,
      { doc: { ...base.doc, beats: next }, notes: [...valid.notes], chord: valid.chord },
      base,
    );
  };
  const editSelected = (label: string, patch: (n: NoteEvent) => NoteEvent | null) => {
    if (valid.notes.length === 0) return;
    commit(label, patchNotes(live.current.history.doc, valid.notes, patch));
  };
  const editChord = (label: string, patch: (c: ChordEvent) => ChordEvent | null) => {
    const k = valid.chord;
    const chord = k === null ? undefined : live.current.history.doc.chords[k];
    if (k === null || !chord) return;
    commit(label, patchChord(live.current.history.doc, k, patch(chord)));
  };

  const clear = () => {
    setSelection(NONE);
    setRefusal(null);
    pending.current = null;
  };

  const bendNext = (n: NoteEvent): NoteEvent => {
    // Cycles +1, 1 + release, +2... then none.
    const at = BEND_PRESETS.findIndex((p) => samePreset(n, p));
    const next = BEND_PRESETS[at + 1];
    return next ? applyBend(n, next) : clearBend(n);
  };

  const onKey = (key: EditKey) => {
    const d = live.current.history.doc;
    setRefusal(null);
    switch (key.type) {
      case 'digit': {
        const typed = typeFretDigit(pending.current, key.digit, performance.now());
        pending.current = typed.pending;
        editSelected('Fret', (n) => setFret({ ...n, mute: false }, typed.fret));
        return;
      }
      case 'delete':
        if (valid.notes.length > 0) commit('Delete notes', removeNotes(d, valid.notes));
        else if (valid.chord !== null) commit('Delete chord', removeChord(d, valid.chord));
        return;
      case 'copy':
        clipboard.current = valid.notes.map((i) => d.notes[i]).filter((n) => n !== undefined);
        return;
      case 'cut':
        clipboard.current = valid.notes.map((i) => d.notes[i]).filter((n) => n !== undefined);
        commit('Cut notes', removeNotes(d, valid.notes));
        return;
      case 'paste':
        commit('Paste notes', addNotes(d, pasteNotesAt(clipboard.current, now(), duration)));
        return;
      case 'selectAll':
        setSelection({ notes: d.notes.map((_, i) => i), chord: null });
        return;
      case 'nudge':
        if (valid.notes.length > 0) {
          editSelected('Nudge', (n) => nudgeNote(n, key.direction, key.shift, duration));
        } else {
          editChord('Move chord', (c) =>
            shiftTime(c, key.direction * nudgeStep(key.shift), duration),
          );
        }
        return;
      case 'resize': {
        const by = key.direction * nudgeStep(key.shift);
        if (valid.notes.length > 0) {
          editSelected('Note length', (n) => setNoteEnd(n, n.end_time + by, duration));
        } else {
          editChord('Chord length', (c) => setChordEnd(c, c.end_time + by, duration));
        }
        return;
      }
      case 'string': {
        // A note with no place on the next string stays where it is; say why.
        const refused = new Set<string>();
        editSelected('Move to string', (n) => {
          const moved = moveByString(n, key.by, tuning);
          if (typeof moved !== 'string') return moved;
          refused.add(moved);
          return null;
        });
        const side = key.by > 0 ? 'lower' : 'higher';
        setRefusal(
          refused.has('no-fret')
            ? `No place on the next ${side} string within frets 0 to 24: the note stays.`
            : refused.has('no-string')
              ? `There is no ${side} string: the note stays.`
              : null,
        );
        return;
      }
      case 'technique':
        editSelected('Technique', (n) => setTechnique(n, key.side, key.technique));
        return;
      case 'mute':
        editSelected('Mute', toggleMute);
        return;
      case 'vibrato':
        editSelected('Vibrato', (n) => setVibrato(n, key.kind));
        return;
      case 'bend':
        editSelected('Bend', bendNext);
        return;
      case 'addNote': {
        const first = valid.notes[0];
        const string = first === undefined ? 1 : (d.notes[first]?.string ?? 1);
        commit('Add note', addNotes(d, [newNote(now(), string, 0, duration)]));
        return;
      }
      case 'addChord':
        setNaming({ mode: 'add', time: now() });
        return;
      case 'renameChord':
        if (valid.chord !== null) setNaming({ mode: 'rename', index: valid.chord });
        return;
      case 'review': {
        const last = reviewed.current;
        const t = now();
        // A seek lands on a video frame, a little before or after the loop's start.
        const resume = last !== null && t >= last.start - 0.1 && t <= last.end + 0.1;
        let from: number | null = valid.notes[0] ?? null;
        if (from === null && resume) {
          const same = d.notes.findIndex((n) => n.time === last.time && n.string === last.string);
          // The reviewed note was deleted: the notes after it moved down one place, so going on
          // from the place before its old index reaches them, same-time neighbours included.
          from = same >= 0 ? same : last.index - (key.direction === 1 ? 1 : 0);
        }
        const i = nextDoubtful(d.notes, from, t, key.direction);
        const note = i === null ? undefined : d.notes[i];
        if (i === null || !note) return;
        reviewed.current = {
          time: note.time,
          string: note.string,
          index: i,
          ...reviewLoop(note, duration),
        };
        pending.current = null;
        setSelection({ notes: [i], chord: null });
        input.onReview?.(note);
        return;
      }
      case 'accept':
        editSelected('Accept notes', confirmNote);
        return;
      case 'addSuggestion': {
        const i = valid.notes.length === 1 ? valid.notes[0] : undefined;
        const technique = i === undefined ? undefined : d.notes[i]?.suggestions?.[0]?.technique;
        if (i !== undefined && technique) {
          commit(`Add ${SUGGESTION_NAMES[technique]}`, applySuggestion(d, i));
        }
        return;
      }
      case 'refinger':
        if (valid.notes.length > 0) setRefingering(true);
        return;
      case 'barLine': {
        const t = now();
        editBeats('Bar line', (g) => tapBarLine(g, t));
        return;
      }
    }
  };

  /** Applies the name typed for a new or renamed chord; an empty name is not saved. */
  const nameChord = (name: string) => {
    const n = naming;
    setNaming(null);
    if (!n) return;
    const d = live.current.history.doc;
    if (n.mode === 'add') {
      const chord = newChord(n.time, name, duration);
      if (chord) commit('Add chord', addChord(d, chord));
      return;
    }
    const old = d.chords[n.index];
    if (old) commit('Rename chord', patchChord(d, n.index, renameChord(old, name)));
  };

  const timeline: TimelineEditing = {
    overlay: { notes: valid.notes, chord: valid.chord, rect },
    pointerDown: (p: TimelinePoint) => {
      const base = live.current.history;
      pending.current = null;
      // A bar number above the staff is the handle of its bar line.
      const bar = barHandleAt(base.doc.beats, p, zoom);
      if (bar !== null) {
        drag.current = { kind: 'barLine', bar, base, moved: false, x0: p.x };
        return 'drag';
      }
      const hit = hitTest(p.x, p.y, { index, chords: doc.chords, zoom, layout: p.layout });
      if (hit.kind === 'note') {
        const add = p.shift || p.mod;
        if (add) {
          const has = valid.notes.includes(hit.index);
          setSelection({
            notes: has ? valid.notes.filter((i) => i !== hit.index) : [...valid.notes, hit.index],
            chord: null,
          });
          return 'drag';
        }
        if (!valid.notes.includes(hit.index)) setSelection({ notes: [hit.index], chord: null });
        drag.current = {
          kind: hit.part === 'end' ? 'noteEnd' : 'noteStart',
          note: hit.index,
          base,
          moved: false,
          x0: p.x,
        };
        return 'drag';
      }
      if (hit.kind === 'chord') {
        setSelection({ notes: [], chord: hit.index });
        drag.current = {
          kind: hit.part === 'end' ? 'chordEnd' : 'chordMove',
          chord: hit.index,
          base,
          x0: p.x,
          moved: false,
        };
        return 'drag';
      }
      drag.current = { kind: 'rect', x0: p.x, y0: p.y, moved: false, add: p.shift || p.mod };
      return 'drag';
    },
    pointerMove: (p: TimelinePoint) => {
      const g = drag.current;
      if (!g) return;
      if (!g.moved && Math.abs(p.x - g.x0) < 3 && (g.kind !== 'rect' || Math.abs(p.y - g.y0) < 3))
        return;
      g.moved = true;
      const t = p.x / zoom;
      if (g.kind === 'rect') {
        const r = { x0: g.x0, y0: g.y0, x1: p.x, y1: p.y };
        setRect(r);
        const inside = notesInRect(live.current.index, r, zoom, p.layout);
        setSelection({
          notes: g.add ? [...new Set([...valid.notes, ...inside])] : inside,
          chord: null,
        });
        return;
      }
      if (g.kind === 'barLine') {
        // The line moves as far as the pointer did (it was grabbed beside the line, by its number).
        editBeats(
          'Move bar line',
          (grid) => {
            const from = grid.beats[grid.downbeats[g.bar] ?? -1] ?? t;
            return moveBarLine(grid, g.bar, from + (p.x - g.x0) / zoom);
          },
          g.base,
        );
        return;
      }
      const d = g.base.doc;
      if (g.kind === 'noteStart' || g.kind === 'noteEnd') {
        const start = g.kind === 'noteStart';
        commit(
          start ? 'Move note start' : 'Move note end',
          patchNotes(d, [g.note], (n) =>
            start ? setNoteStart(n, t, duration) : setNoteEnd(n, t, duration),
          ),
          g.base,
        );
        return;
      }
      if (!('chord' in g)) return;
      const chord = d.chords[g.chord];
      if (!chord) return;
      const resize = g.kind === 'chordEnd';
      const next = resize
        ? setChordEnd(chord, t, duration)
        : shiftTime(chord, (p.x - g.x0) / zoom, duration);
      commit(resize ? 'Resize chord' : 'Move chord', patchChord(d, g.chord, next), g.base);
    },
    pointerUp: () => {
      const g = drag.current;
      drag.current = null;
      setRect(null);
      if (g?.kind === 'rect' && !g.moved) {
        if (!g.add) clear();
        return 'seek';
      }
      return 'done';
    },
    doubleClick: (p: TimelinePoint) => {
      const hit = hitTest(p.x, p.y, { index, chords: doc.chords, zoom, layout: p.layout });
      const d = live.current.history.doc;
      if (hit.kind === 'string') {
        commit('Add note', addNotes(d, [newNote(hit.time, hit.string, 0, duration)]));
      } else if (hit.kind === 'chord') {
        setNaming({ mode: 'rename', index: hit.index });
      } else if (hit.kind === 'none' && Math.abs(p.y - p.layout.chordY) <= 12) {
        setNaming({ mode: 'add', time: hit.time });
      }
    },
  };

  const one = valid.notes.length === 1 ? doc.notes[valid.notes[0] ?? -1] : undefined;
  const doubtful = useMemo(() => doubtfulCount(doc.notes), [doc.notes]);
  const choice = useMemo(() => (one ? fretChoice(one, tuning, capo) : null), [one, tuning, capo]);

  return {
    enabled,
    selection: valid,
    /** Why the last string move changed nothing, or null. */
    refusal,
    clearRefusal: () => {
      setRefusal(null);
    },
    /** How many of the AI's notes are still doubtful (the review counter). */
    doubtful,
    /** The single selected note's place and its other playable places (the fretboard's rings). */
    choice,
    /** Moves the single selected note to another place of the same pitch (one undo step). */
    moveTo: (position: Position) => {
      if (valid.notes.length === 1) {
        editSelected('Move to another place', (n) => moveToPosition(n, position, tuning));
      }
    },
    /** The technique the AI suggests for the single selected note ("bend?"), or null. */
    suggestion: one?.suggestions?.[0] ?? null,
    /** Writes that suggestion onto the tab (one undo step), as the Y key. */
    addSuggestion: () => {
      onKey({ type: 'addSuggestion' });
    },
    /** The review queue's next (1) or previous (-1) doubtful note, as the D key. */
    review: (direction: 1 | -1) => {
      onKey({ type: 'review', direction });
    },
    selectedNotes: valid.notes.map((i) => doc.notes[i]).filter((n): n is NoteEvent => !!n),
    selectedChord: valid.chord === null ? null : (doc.chords[valid.chord] ?? null),
    timeline,
    onKey,
    clear,
    naming,
    setNaming,
    nameChord,
    /** Applies an edit to every selected note (the inspector's buttons). */
    editSelected,
    /**
     * The pitch-curve editor's note: previewed while dragging, one undo step for the whole drag.
     */
    setCurve: (note: NoteEvent, done: boolean) => {
      const i = valid.notes[0];
      if (i === undefined) return;
      const base = curveBase.current ?? live.current.history;
      curveBase.current = done ? null : base;
      commit(
        'Pitch curve',
        patchNotes(base.doc, [i], () => note),
        base,
      );
    },
    /** The document the editor shows (the history's present). */
    doc,
    /** The re-finger panel (F or the edit bar's button) is open. */
    refingering: refingering && valid.notes.length > 0,
    setRefingering,
    /**
     * Applies a re-fingering's answer for `base` (the document the request was made from) as one
     * undoable step; false, changing nothing, when the notes changed since.
     */
    applyRefinger: (base: LessonDoc, changed: readonly RefingeredNote[]): boolean => {
      if (live.current.history.doc !== base) return false;
      commit('Re-finger', applyRefingered(base, valid.notes, changed));
      return true;
    },
    /** The bar at the playhead: its index, time signature and tempo (the edit bar's read-out). */
    barAtPlayhead: (): number => (doc.beats ? barAt(doc.beats, now()) : 0),
    /** A bar starts at the playhead (M): tapped on the one while the video plays. */
    tapBar: () => {
      onKey({ type: 'barLine' });
    },
    /** The time signature from bar `bar` on (one undo step). */
    setMeter: (bar: number, perBar: number, unit: BeatGrid['beat_unit']) => {
      editBeats('Time signature', (g) => setTimeSignature(g, bar, perBar, unit));
    },
    /** Twice or half as many beats, the bar lines staying (the tracker's tempo was off). */
    scaleBeats: (factor: 2 | 0.5) => {
      editBeats(factor === 2 ? 'Double the beats' : 'Halve the beats', (g) =>
        factor === 2 ? doubleBeats(g) : halveBeats(g),
      );
    },
    /** Replaces the whole document (restoring a draft), as one undoable step. */
    replaceDoc: (label: string, next: LessonDoc) => {
      commit(label, { doc: next, notes: [], chord: null });
    },
  };
}

export type Editor = ReturnType<typeof useEditor>;

/** Content px around a bar number (and its line's top) that still grab it. */
const BAR_HANDLE_PX = 4;
/** Width of a bar number's digit, CSS px (11 px bold). */
const BAR_DIGIT_PX = 8;

/**
 * The bar whose handle (its number just above string 1, and the top of its line) is at `p`, or
 * null. Only that small box grabs a bar line: elsewhere a click still selects the notes that sit
 * on the bar line, and a drag still draws a selection rectangle.
 */
function barHandleAt(grid: BeatGrid | undefined, p: TimelinePoint, zoom: number): number | null {
  if (!grid) return null;
  const top = stringY(p.layout, 1);
  // From above the number to just above string 1's fret numbers (their box starts 8.5 px up).
  if (p.y < top - BAR_NUMBER_RISE - 8 || p.y > top - 9) return null;
  let best: number | null = null;
  let bestDistance = BAR_HANDLE_PX;
  grid.downbeats.forEach((d, bar) => {
    const x = (grid.beats[d] ?? 0) * zoom;
    // The number is drawn from 4 px right of the line.
    const width = 4 + BAR_DIGIT_PX * String(bar + 1).length;
    const distance = p.x >= x ? Math.max(0, p.x - x - width) : x - p.x;
    if (distance <= bestDistance) {
      best = bar;
      bestDistance = distance;
    }
  });
  return best;
}

function samePreset(n: NoteEvent, p: BendPreset): boolean {
  return (
    n.bend_to_fret === n.fret + p.frets &&
    (n.release_to_fret !== null) === p.release &&
    n.pitch_arr.length === 9
  );
}
