import type {
  BeatGrid,
  ChordEvent,
  ChordsResponse,
  DownloadResultResponse,
  DownloadableFileName,
  EditAccessResponse,
  JobMetaResponse,
  JobStatsResponse,
  MyStarsResponse,
  NoteEvent,
  NotesResponse,
  RefingerRequest,
  RefingerResponse,
  Section,
  SectionsResponse,
  StarsSummaryResponse,
  ViewAccessResponse,
} from '@riffscribe/core';
import { session } from '../../../api/session';

const q = encodeURIComponent;
const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** The /api calls of the tab player (spec section 7), each with the bearer token. */
export const playerApi = {
  viewAccess: (jobId: string) =>
    session.api<ViewAccessResponse>(`/api/view-access?jobId=${q(jobId)}`),
  meta: (jobId: string) => session.api<JobMetaResponse>(`/api/job-meta?jobId=${q(jobId)}`),
  stats: (jobId: string) => session.api<JobStatsResponse>(`/api/job-stats?jobId=${q(jobId)}`),
  myStars: (jobId: string) => session.api<MyStarsResponse>(`/api/job-stars?jobId=${q(jobId)}`),
  rate: (jobId: string, stars: number) =>
    session.api<StarsSummaryResponse>('/api/job-stars', post({ jobId, stars })),
  editAccess: (jobId: string) =>
    session.api<EditAccessResponse>(`/api/edit-access?jobId=${q(jobId)}`),
  notes: (jobId: string, edited: boolean) =>
    session.api<NotesResponse>(`/api/notes?jobId=${q(jobId)}&edit_version=${String(edited)}`),
  chords: (jobId: string, edited: boolean) =>
    session.api<ChordsResponse>(`/api/chords?jobId=${q(jobId)}&edit_version=${String(edited)}`),
  downloadUrl: (jobId: string, fileName: DownloadableFileName) =>
    session.api<DownloadResultResponse>(
      `/api/download-result?jobId=${q(jobId)}&fileName=${q(fileName)}`,
    ),
  recordLoad: (jobId: string) => session.api<unknown>('/api/job-load', post({ jobId })),
  saveNotes: (jobId: string, events: readonly NoteEvent[]) =>
    session.api<unknown>(`/api/edit-notes?jobId=${q(jobId)}`, post({ events })),
  /** Re-fingers a selection of the editor's notes (issue 19); saves nothing. */
  refinger: (jobId: string, body: RefingerRequest) =>
    session.api<RefingerResponse>(`/api/refinger?jobId=${q(jobId)}`, post(body)),
  saveChords: (jobId: string, events: readonly ChordEvent[]) =>
    session.api<unknown>(`/api/edit-chords?jobId=${q(jobId)}`, post({ events })),
  /** The corrected beats and bars (issue 15), saved with the edited notes. */
  saveBeats: (jobId: string, grid: BeatGrid) =>
    session.api<unknown>(`/api/edit-beats?jobId=${q(jobId)}`, post({ grid })),

  /** The caller's own sections of the lesson (issue 40 part 3), by start. */
  sections: (jobId: string) => session.api<SectionsResponse>(`/api/job-sections?jobId=${q(jobId)}`),
  /**
   * Replaces the caller's sections of the lesson with `sections`; answers them as saved. Sent
   * with keepalive, so that a save made as the page goes away still arrives (a list of 100
   * sections is far below keepalive's 64 KiB).
   */
  saveSections: (jobId: string, sections: readonly Section[]) =>
    session.api<SectionsResponse>(`/api/job-sections?jobId=${q(jobId)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sections }),
      keepalive: true,
    }),

  /** The results file (capo, tuning, key...) through its signed link. */
  async results(jobId: string): Promise<unknown> {
    const { downloadUrl } = await playerApi.downloadUrl(jobId, 'results');
    const res = await fetch(downloadUrl);
    if (!res.ok)
      throw new Error(`The lesson's settings could not be read (${String(res.status)}).`);
    return res.json();
  },
};
