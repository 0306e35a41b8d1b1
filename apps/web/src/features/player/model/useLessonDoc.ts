import type { BeatGrid, ChordEvent, NoteEvent } from '@riffscribe/core';
import { useMemo, useState } from 'react';
import { createHistory, type History } from './history';
import { buildNoteIndex, type NoteIndex } from './noteIndex';

const EMPTY: { notes: NoteEvent[]; chords: ChordEvent[]; beats?: BeatGrid } = {
  notes: [],
  chords: [],
};

/**
 * The lesson document and its undo history. A new version from the server (another tabs source)
 * starts a fresh history; the note index is rebuilt only when the notes change.
 */
export function useLessonDoc(
  notes: NoteEvent[] | undefined,
  chords: ChordEvent[] | undefined,
  beats?: BeatGrid,
): { history: History; setHistory: (h: History) => void; index: NoteIndex } {
  const loaded = notes && chords ? { notes, chords, beats } : EMPTY;
  const [state, setState] = useState(() => ({ source: loaded, history: createHistory(loaded) }));
  // Adjusting state while rendering when the source changes (React's documented pattern).
  let current = state;
  if (
    state.source.notes !== loaded.notes ||
    state.source.chords !== loaded.chords ||
    state.source.beats !== loaded.beats
  ) {
    current = { source: loaded, history: createHistory(loaded) };
    setState(current);
  }
  const docNotes = current.history.doc.notes;
  const index = useMemo(() => buildNoteIndex(docNotes), [docNotes]);
  return {
    history: current.history,
    setHistory: (history) => {
      setState((s) => ({ ...s, history }));
    },
    index,
  };
}
