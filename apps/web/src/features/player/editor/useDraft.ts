import { beatGridSchema, sameGrid, type ChordEvent, type NoteEvent } from '@riffscribe/core';
import { useEffect, useState } from 'react';
import { isDirty, type History, type LessonDoc } from '../model/history';
import { readChords, readNotes } from '../model/lesson';

/** Where a lesson's unsaved edits are kept in this browser. */
export const draftKey = (jobId: string) => `riffscribe:draft:${jobId}`;

export interface Draft {
  doc: LessonDoc;
  /** When it was last written, ms since 1970. */
  at: number;
}

/** The draft kept for a lesson, null when there is none or it cannot be read. */
export function readDraft(jobId: string): Draft | null {
  try {
    const raw = localStorage.getItem(draftKey(jobId));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as {
      notes?: unknown;
      chords?: unknown;
      beats?: unknown;
      at?: unknown;
    };
    const beats = beatGridSchema.safeParse(parsed.beats);
    return {
      doc: {
        notes: readNotes(parsed.notes),
        chords: readChords(parsed.chords),
        ...(beats.success ? { beats: beats.data } : {}),
      },
      at: typeof parsed.at === 'number' ? parsed.at : 0,
    };
  } catch {
    return null;
  }
}

export function clearDraft(jobId: string): void {
  localStorage.removeItem(draftKey(jobId));
}

const sameEvents = (
  a: readonly (NoteEvent | ChordEvent)[],
  b: readonly (NoteEvent | ChordEvent)[],
) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Mirrors unsaved edits in local storage as they are made (spec section 4), so nothing typed is
 * lost to a reload, a closed tab or a failed save; a successful save clears it (useSave). When
 * the lesson opens in edit mode with a draft that differs from what the server sent, the draft is
 * offered back.
 */
export function useDraft(input: { jobId: string; history: History; enabled: boolean }) {
  const { jobId, history, enabled } = input;
  const [offer, setOffer] = useState<Draft | null>(null);
  const [checked, setChecked] = useState(false);

  if (enabled && !checked) {
    // Decided once, against the document as the server sent it (before any edit); adjusting
    // state while rendering, React's pattern for state derived from a change.
    const draft = readDraft(jobId);
    const { doc } = history;
    const differs =
      draft !== null &&
      (!sameEvents(draft.doc.notes, doc.notes) ||
        !sameEvents(draft.doc.chords, doc.chords) ||
        (draft.doc.beats !== undefined && !sameGrid(draft.doc.beats, doc.beats)));
    setOffer(differs ? draft : null);
    setChecked(true);
  }

  useEffect(() => {
    if (!enabled || !checked || !isDirty(history)) return;
    const { notes, chords, beats } = history.doc;
    localStorage.setItem(draftKey(jobId), JSON.stringify({ notes, chords, beats, at: Date.now() }));
  }, [enabled, checked, jobId, history]);

  return {
    offer,
    dismiss: () => {
      clearDraft(jobId);
      setOffer(null);
    },
    taken: () => {
      setOffer(null);
    },
  };
}
