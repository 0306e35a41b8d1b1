import { STEM_FILE_NAMES, type ChordEvent, type NoteEvent } from '@riffscribe/core';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ApiRequestError } from '../../../api/session';
import { readChords, readNotes, settingsFromResults, type LessonSettings } from '../model/lesson';
import type { TabSource } from '../model/playerState';
import { playerApi } from './playerApi';

const noRetryOn402 = (count: number, error: unknown) =>
  !(error instanceof ApiRequestError && [402, 403, 404].includes(error.status)) && count < 1;

export interface LessonContent {
  notes: NoteEvent[] | undefined;
  chords: ChordEvent[] | undefined;
  /** Which version the server sent: edited only when one was saved. */
  version: 'original' | 'edited' | undefined;
  settings: LessonSettings | undefined;
  videoUrl: string | undefined;
  /** Signed link to the guitar stem, null when the lesson has none. */
  stemUrl: string | null | undefined;
  /**
   * The notes or chords shown are the other version's, kept on screen while the tabs source
   * switches (react-query's placeholder): nothing may be edited on them.
   */
  switching: boolean;
  /** A 402 on notes or chords: no view credits left. */
  noCredits: boolean;
  error: Error | null;
  refreshVideo: () => void;
}

/**
 * Notes, chords, results, video and stem of a lesson (its caller renders only once the view
 * credit, if any, is settled); the files that need a granted view wait for the notes.
 */
export function useLessonContent(jobId: string, tabSource: TabSource) {
  const edited = tabSource === 'edited';
  const notes = useQuery({
    queryKey: ['lesson-notes', jobId, edited],
    queryFn: async () => {
      const res = await playerApi.notes(jobId, edited);
      return { events: readNotes(res.events), version: res.version };
    },
    staleTime: Infinity,
    retry: noRetryOn402,
    // Switching the tabs source keeps the player (and the video's position) on screen.
    placeholderData: (previous) => previous,
  });
  const granted = notes.isSuccess;
  const chords = useQuery({
    queryKey: ['lesson-chords', jobId, edited],
    queryFn: async () => readChords((await playerApi.chords(jobId, edited)).events),
    enabled: granted,
    staleTime: Infinity,
    retry: noRetryOn402,
    placeholderData: (previous) => previous,
  });
  const results = useQuery({
    queryKey: ['lesson-results', jobId],
    queryFn: async () => settingsFromResults(await playerApi.results(jobId)),
    enabled: granted,
    staleTime: Infinity,
    retry: noRetryOn402,
  });
  const video = useQuery({
    queryKey: ['lesson-video', jobId],
    queryFn: async () => (await playerApi.downloadUrl(jobId, 'video.mp4')).downloadUrl,
    enabled: granted,
    staleTime: Infinity,
    retry: noRetryOn402,
  });
  const audioFiles = results.data?.audioFiles;
  const stem = useQuery({
    queryKey: ['lesson-stem', jobId],
    queryFn: async () => {
      // The first stem file the lesson has, if any (spec: guitar is enabled only then). The
      // results file lists them; only a lesson from before it did is probed name by name.
      if (audioFiles) {
        const name = STEM_FILE_NAMES.find((n) => audioFiles.includes(n));
        return name ? (await playerApi.downloadUrl(jobId, name)).downloadUrl : null;
      }
      for (const name of STEM_FILE_NAMES) {
        try {
          return (await playerApi.downloadUrl(jobId, name)).downloadUrl;
        } catch (error) {
          if (!(error instanceof ApiRequestError && error.status === 404)) throw error;
        }
      }
      return null;
    },
    enabled: results.isSuccess,
    staleTime: Infinity,
    retry: false,
  });
  const is402 = (e: unknown) => e instanceof ApiRequestError && e.status === 402;
  const { refetch: refetchVideo } = video;
  const refreshVideo = useCallback(() => void refetchVideo(), [refetchVideo]);
  const failed: unknown = notes.error ?? chords.error ?? results.error ?? video.error;
  const content: LessonContent = {
    notes: notes.data?.events,
    chords: chords.data,
    version: notes.data?.version,
    settings: results.data,
    videoUrl: video.data,
    stemUrl: stem.isError ? null : stem.data,
    switching: notes.isPlaceholderData || chords.isPlaceholderData,
    noCredits: is402(notes.error) || is402(chords.error),
    error: failed instanceof Error ? failed : null,
    refreshVideo,
  };
  return content;
}
