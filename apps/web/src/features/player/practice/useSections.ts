import { MAX_SECTIONS, type BeatGrid, type Section, type SectionsResponse } from '@riffscribe/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { playerApi } from '../api/playerApi';
import type { Loop, SettingsAction } from '../model/playerState';
import {
  defaultSectionName,
  sectionNameProblem,
  sectionOfLoop,
  sortSections,
  stepSection,
  suggestSections,
  type SectionDraft,
} from './sections';

/** How long after the last change the list is saved, ms (a rename typed letter by letter is one save). */
const SAVE_DELAY_MS = 800;

export interface Sections {
  /** Signed in: sections are kept per user (a signed-out visitor has none). */
  available: boolean;
  /** 'loading' until the user's list arrives; 'failed' when it could not be read. */
  status: 'loading' | 'ready' | 'failed';
  /** The user's sections, by start. */
  list: Section[];
  /** Sections from the lesson's bars, offered while the user has none. */
  suggested: SectionDraft[];
  /** The section the loop is set to, if it is one. */
  current: Section | null;
  /** A loop is set and there is room for one more section. */
  canSaveLoop: boolean;
  /** What "Save loop as section" names the section when no name is given. */
  defaultName: string;
  /** A save is on its way to the server. */
  saving: boolean;
  /** Why the last save failed (the list is kept here and sent again), or null. */
  saveError: string | null;
  /** Saves the loop as a section; answers what is wrong with the name, or null once saved. */
  saveLoop: (name: string) => string | null;
  /** Renames a section; answers what is wrong with the name, or null once renamed. */
  rename: (id: string, name: string) => string | null;
  remove: (id: string) => void;
  /** Saves the suggested sections as the user's own. */
  adoptSuggested: () => void;
  /** Loops a section (saved or suggested) and goes to its start. */
  play: (section: SectionDraft) => void;
  /** Loops the next (1) or previous (-1) section from the playhead and goes to its start. */
  step: (by: 1 | -1) => void;
  /** Sends the unsaved list again after a failure. */
  retrySave: () => void;
  /** Reads the list again after a failed load. */
  reload: () => void;
}

/** A random section id (the server keeps ids it is given): 32 hex digits, in any context. */
function newSectionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The user's sections of the lesson (issue 40 part 3): named loops kept on the server, their own
 * only. Every change shows at once and is saved shortly after (the whole list, PUT
 * /api/job-sections); nothing waiting is lost: the save goes out at once when the player closes
 * or the page is hidden or left (with keepalive). A failed save keeps the list and says so.
 */
export function useSections(input: {
  jobId: string;
  /** The signed-in user's id; null for a signed-out visitor (no sections). */
  uid: string | null;
  grid: BeatGrid | undefined;
  duration: number;
  loop: Loop | null;
  dispatch: (action: SettingsAction) => void;
  seek: (time: number) => void;
  /** The playhead, seconds. */
  now: () => number;
}): Sections {
  const { jobId, uid, grid, duration, loop, dispatch, seek, now } = input;
  const client = useQueryClient();
  const queryKey = useMemo(() => ['job-sections', jobId, uid], [jobId, uid]);
  const query = useQuery({
    queryKey,
    queryFn: () => playerApi.sections(jobId),
    enabled: uid !== null,
    // The list shown is the one being edited: never replaced by a read behind the user's back.
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    retry: 1,
  });
  const list = useMemo(() => query.data?.sections ?? [], [query.data]);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);

  /** The list as last changed (ahead of a render), and the one waiting to be sent. */
  const latest = useRef(list);
  useEffect(() => {
    latest.current = list;
  }, [list]);
  const pending = useRef<{ jobId: string; sections: Section[] } | null>(null);
  const busy = useRef(false);
  const again = useRef(false);
  const timer = useRef<number | undefined>(undefined);
  const mounted = useRef(true);

  /**
   * Sends the list waiting, if any. One save at a time, so that they arrive in order: one asked
   * for meanwhile goes out when the one on its way is answered (after an unmount too: the refs
   * live on). `gone`: the page is going away, so the last list goes out at once regardless.
   */
  const flush = useCallback((gone = false) => {
    window.clearTimeout(timer.current);
    timer.current = undefined;
    const job = pending.current;
    if (!job) return;
    if (busy.current && !gone) {
      again.current = true;
      return;
    }
    pending.current = null;
    busy.current = true;
    if (mounted.current) setSaving(true);
    playerApi
      .saveSections(job.jobId, job.sections)
      .then(
        () => {
          if (mounted.current && pending.current === null) setSaveError(null);
        },
        (error: unknown) => {
          // Kept to send again, unless a newer list is already waiting.
          pending.current ??= job;
          if (mounted.current) setSaveError(reason(error));
        },
      )
      .finally(() => {
        busy.current = false;
        if (mounted.current) setSaving(false);
        if (again.current) {
          again.current = false;
          flushRef.current();
        }
      });
  }, []);
  const flushRef = useRef(flush);

  // Leaving the player or the page (or hiding it: it may never come back): what waits goes out
  // now.
  useEffect(() => {
    mounted.current = true;
    const away = () => {
      flush(true);
    };
    const hidden = () => {
      if (document.visibilityState === 'hidden') flush();
    };
    window.addEventListener('pagehide', away);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      window.removeEventListener('pagehide', away);
      document.removeEventListener('visibilitychange', hidden);
      mounted.current = false;
      flush();
    };
  }, [flush]);

  const ready = uid !== null && query.isSuccess;
  /** Shows `next` at once (the query's data is the list) and saves it shortly. */
  const change = useCallback(
    (next: readonly Section[]) => {
      if (!ready) return;
      const sorted = sortSections(next);
      latest.current = sorted;
      client.setQueryData<SectionsResponse>(queryKey, { sections: sorted });
      pending.current = { jobId, sections: sorted };
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => {
        flush();
      }, SAVE_DELAY_MS);
    },
    [ready, client, queryKey, jobId, flush],
  );

  const play = useCallback(
    (section: SectionDraft) => {
      dispatch({ type: 'setLoop', loop: { start: section.start, end: section.end } });
      seek(section.start);
    },
    [dispatch, seek],
  );

  const suggested = useMemo(() => suggestSections(grid, duration), [grid, duration]);
  const defaultName = defaultSectionName(list);
  return {
    available: uid !== null,
    status: uid === null || query.isPending ? 'loading' : query.isError ? 'failed' : 'ready',
    list,
    suggested: list.length === 0 ? suggested : [],
    current: sectionOfLoop(list, loop),
    canSaveLoop: ready && loop !== null && list.length < MAX_SECTIONS,
    defaultName,
    saving,
    saveError,
    saveLoop: (name) => {
      const have = latest.current;
      if (!loop) return 'Set a loop first (L).';
      if (have.length >= MAX_SECTIONS) return `A lesson can have at most ${MAX_SECTIONS} sections.`;
      const chosen = name.trim() || defaultSectionName(have);
      const problem = sectionNameProblem(chosen);
      if (problem) return problem;
      change([...have, { id: newSectionId(), name: chosen, start: loop.start, end: loop.end }]);
      return null;
    },
    rename: (id, name) => {
      const problem = sectionNameProblem(name);
      if (problem) return problem;
      change(latest.current.map((s) => (s.id === id ? { ...s, name: name.trim() } : s)));
      return null;
    },
    remove: (id) => {
      change(latest.current.filter((s) => s.id !== id));
    },
    adoptSuggested: () => {
      if (latest.current.length === 0) {
        change(suggested.map((s) => ({ id: newSectionId(), ...s })));
      }
    },
    play,
    step: (by) => {
      const target = stepSection(latest.current, by, now(), loop);
      if (target) play(target);
    },
    retrySave: () => {
      flush();
    },
    reload: () => {
      void query.refetch();
    },
  };
}
