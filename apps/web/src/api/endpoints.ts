import {
  createStreamParser,
  jobStatusStreamPath,
  type CheckStatusResponse,
  type DownloadResultResponse,
  type DownloadableFileName,
  type ExploreItem,
  type ExploreSort,
  type JobMetaResponse,
  type JobResponse,
  type MyJobItem,
  type NotesResponse,
  type Paged,
  type PersonalPageResponse,
  type ProcessVideoResponse,
  type SignedUploadResponse,
  type UpgradeRequestsResponse,
  type UploadConfig,
} from '@riffscribe/core';
import { session } from './session';

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const q = encodeURIComponent;

/**
 * The /api calls the web app makes (spec section 7 plus explore and my-jobs), typed with the
 * shared answers of packages/core. Every call carries the bearer token when signed in and throws
 * ApiRequestError on an error status.
 */
export const api = {
  signedUploadUrl: (body: {
    fileName: string;
    fileType: string;
    email: string;
    fileSize: number;
  }) => session.api<SignedUploadResponse>('/api/generate-signed-upload-url', json(body)),

  processVideo: (body: {
    gcsFilePath: string;
    email: string;
    fileName: string;
    fileSize: number;
    fileType: string;
    config: UploadConfig;
  }) => session.api<ProcessVideoResponse>('/api/process-video', json(body)),

  /** Sends a JPEG thumbnail for the job with this request id. */
  uploadThumbnail: (requestId: string, jpeg: Blob) =>
    session.api<undefined>(`/api/upload-thumbnail?requestId=${q(requestId)}`, {
      method: 'POST',
      headers: { 'content-type': 'image/jpeg' },
      body: jpeg,
    }),

  checkStatus: (jobId: string) =>
    session.api<CheckStatusResponse>(`/api/check-status?jobId=${q(jobId)}`),

  /**
   * The job's live status (server-sent events): calls `onStatus` with each status as the stages
   * finish. Resolves true after the server's end event (the job completed or failed), false when
   * the stream closed without one; rejects when it could not be opened or broke off. Either way
   * the caller's check-status polling carries on.
   */
  watchStatus: async (
    jobId: string,
    onStatus: (status: CheckStatusResponse) => void,
    signal: AbortSignal,
  ): Promise<boolean> => {
    const res = await session.stream(jobStatusStreamPath(jobId), signal);
    const reader = res.body?.getReader();
    if (!reader) return false;
    let ended = false;
    const push = createStreamParser((event) => {
      if (event.event === 'status' || event.event === 'end') {
        onStatus(JSON.parse(event.data) as CheckStatusResponse);
        if (event.event === 'end') ended = true;
      }
    });
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return ended;
      push(decoder.decode(value, { stream: true }));
    }
  },

  job: (id: string) => session.api<JobResponse>(`/api/job?id=${q(id)}`),

  patchJob: (
    id: string,
    body:
      { projectName: string | null } | { sharedToExplore: boolean } | { sharedToPersonal: boolean },
  ) =>
    session.api<JobResponse>(`/api/job?id=${q(id)}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),

  deleteJob: (id: string) => session.api<undefined>(`/api/job?id=${q(id)}`, { method: 'DELETE' }),

  jobMeta: (jobId: string) => session.api<JobMetaResponse>(`/api/job-meta?jobId=${q(jobId)}`),

  notes: (jobId: string, editVersion: boolean) =>
    session.api<NotesResponse>(`/api/notes?jobId=${q(jobId)}&edit_version=${String(editVersion)}`),

  downloadResult: (jobId: string, fileName: DownloadableFileName) =>
    session.api<DownloadResultResponse>(
      `/api/download-result?jobId=${q(jobId)}&fileName=${q(fileName)}`,
    ),

  explore: (sort: ExploreSort, page: number, pageSize: number) =>
    session.api<Paged<ExploreItem>>(
      `/api/explore?sort=${sort}&page=${String(page)}&pageSize=${String(pageSize)}`,
    ),

  personalPage: (handle: string, page: number, pageSize: number) =>
    session.api<PersonalPageResponse>(
      `/api/users/${q(handle)}/lessons?page=${String(page)}&pageSize=${String(pageSize)}`,
    ),

  myJobs: (page: number, pageSize: number) =>
    session.api<Paged<MyJobItem>>(`/api/my-jobs?page=${String(page)}&pageSize=${String(pageSize)}`),

  upgradeStatus: () => session.api<UpgradeRequestsResponse>('/api/upgrade-requests'),

  requestUpgrade: (message: string) =>
    session.api<unknown>('/api/upgrade-requests', json({ message })),
};
