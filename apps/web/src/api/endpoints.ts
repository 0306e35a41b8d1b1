import type {
  CheckStatusResponse,
  DownloadResultResponse,
  DownloadableFileName,
  ExploreItem,
  ExploreSort,
  JobMetaResponse,
  JobResponse,
  MyJobItem,
  NotesResponse,
  Paged,
  ProcessVideoResponse,
  SignedUploadResponse,
  UpgradeRequestsResponse,
  UploadConfig,
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

  myJobs: (page: number, pageSize: number) =>
    session.api<Paged<MyJobItem>>(`/api/my-jobs?page=${String(page)}&pageSize=${String(pageSize)}`),

  upgradeStatus: () => session.api<UpgradeRequestsResponse>('/api/upgrade-requests'),

  requestUpgrade: (message: string) =>
    session.api<unknown>('/api/upgrade-requests', json({ message })),
};
