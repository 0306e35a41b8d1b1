import { AUTO_SAVE_MS, MESSAGES, SAVED_NOTICE_MS, sameGrid, type BeatGrid } from '@riffscribe/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { playerApi } from '../api/playerApi';
import { clearDraft } from '../editor/useDraft';
import { isDirty, markSaved, type History } from './history';

/**
 * Saving edits (spec section 4): on demand and every 30 s when there are changes, the owner is in
 * edited mode and no save is running; success shows the saved notice for 3 s and drops the copy
 * kept in local storage (useDraft), a failure is only logged (the copy stays, offered back later).
 */
export function useSave(input: {
  jobId: string;
  history: History;
  setHistory: (h: History) => void;
  enabled: boolean;
  /** The beats and bars as the server sent them: saved again only once they differ. */
  loadedBeats?: BeatGrid | undefined;
}) {
  const { jobId, history, setHistory, enabled, loadedBeats } = input;
  const savedBeats = useRef<BeatGrid | undefined>(loadedBeats);
  useEffect(() => {
    savedBeats.current = loadedBeats;
  }, [loadedBeats]);
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const latest = useRef({ history, setHistory, saving });
  useEffect(() => {
    latest.current = { history, setHistory, saving };
  }, [history, setHistory, saving]);

  const save = useCallback(async () => {
    const { history: h, saving: busy } = latest.current;
    if (!enabled || busy || !isDirty(h)) return;
    setSaving(true);
    try {
      await playerApi.saveNotes(jobId, h.doc.notes);
      await playerApi.saveChords(jobId, h.doc.chords);
      const beats = h.doc.beats;
      if (beats && !sameGrid(beats, savedBeats.current)) {
        await playerApi.saveBeats(jobId, beats);
        savedBeats.current = beats;
      }
      // What was sent is what the server holds now (edits made meanwhile stay unsaved); the copy
      // in local storage (useDraft) is no longer needed unless edits came in meanwhile.
      latest.current.setHistory(markSaved(latest.current.history, h.doc));
      if (latest.current.history.doc === h.doc) clearDraft(jobId);
      setNotice(MESSAGES.changesSaved);
      window.setTimeout(() => {
        setNotice(null);
      }, SAVED_NOTICE_MS);
    } catch (error) {
      console.error('Saving the lesson failed', error);
    } finally {
      setSaving(false);
    }
  }, [enabled, jobId]);

  useEffect(() => {
    if (!enabled) return;
    const timer = window.setInterval(() => void save(), AUTO_SAVE_MS);
    return () => {
      window.clearInterval(timer);
    };
  }, [enabled, save]);

  return { save, saving, notice, dirty: isDirty(history) };
}
