import { beatGridSchema, type BeatGrid } from './music/beats.js';
import { z } from 'zod';
import { DOWNLOADABLE_FILE_NAMES, RATING_MAX, RATING_MIN } from './constants.js';
import { exportOverlaySchema } from './export-layout.js';
import type { ChordEvent, NoteEvent } from './events.js';
import type { CreditKind, Role } from './roles.js';
import { uploadConfigSchema } from './upload-config.js';

/**
 * Request schemas and response shapes of every /api call (spec section 7, plus the calls the spec
 * leaves out: explore, my-jobs, health, auth). Field names are the spec's, word for word.
 */

const INVALID_JOB_ID = 'Please enter a valid Job ID';
const id = z
  .string({ error: INVALID_JOB_ID })
  .trim()
  .min(1, INVALID_JOB_ID)
  .max(100, INVALID_JOB_ID);
const boolParam = z
  .enum(['true', 'false', '1', '0'])
  .optional()
  .transform((v) => v === 'true' || v === '1');

export const jobIdQuerySchema = z.object({ jobId: id });
export const idQuerySchema = z.object({ id });
export const requestIdQuerySchema = z.object({ requestId: id });

export const signedUploadRequestSchema = z.object({
  fileName: z.string().trim().min(1).max(255),
  fileType: z.string().trim().min(1).max(100),
  email: z.string().trim().max(320).optional(),
  /** Optional: lets the server refuse an oversized file before any byte is sent. */
  fileSize: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe(
      'The file size in bytes: signed into the link (the storage refuses another size); required where the storage is S3.',
    ),
});
export interface SignedUploadResponse {
  signedUrl: string;
  gcsFilePath: string;
  method: 'PUT';
  headers: Record<string, string>;
}

export const processVideoRequestSchema = z.object({
  gcsFilePath: z.string().trim().min(1).max(500),
  email: z.string().trim().max(320).optional(),
  fileName: z.string().trim().min(1).max(255),
  fileSize: z.number().int().nonnegative(),
  fileType: z.string().trim().min(1).max(100),
  config: uploadConfigSchema.default(() => uploadConfigSchema.parse({})),
});
export interface ProcessVideoResponse {
  success: true;
  message: string;
  requestId: string;
  jobId: string;
}

/** Job statuses: queued and processing are in progress; the other two are final. */
export const JOB_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Pipeline stages written to the job row, in order (docs/architecture.md). */
export const JOB_STAGES = [
  'queued',
  'probing',
  'extracting_audio',
  'transcribing',
  'assigning_tabs',
  'detecting_techniques',
  'detecting_chords',
  'final_video_generation',
  'completed',
  'failed',
] as const;
export type JobStage = (typeof JOB_STAGES)[number];

export interface CheckStatusResponse {
  success: true;
  jobId: string;
  requestId: string;
  status: JobStatus;
  stage: string;
  progress: number;
  message: string;
  error: string | null;
}

/** The Job entity of spec section 3. */
export interface JobDto {
  id: string;
  jobId: string;
  uid: string;
  ownerUid: string;
  ownerUsername: string;
  projectName: string | null;
  fileName: string;
  sharedToExplore: boolean;
  sharedToPersonal: boolean;
  stars: number | null;
  starsCount: number;
  requestId: string;
  status: JobStatus;
  stage: string;
  progress: number;
  message: string;
  error: string | null;
  createdAt: string;
  duration: number | null;
}
export interface JobResponse {
  job: JobDto;
}

export const patchJobBodySchema = z.union([
  z.object({ sharedToExplore: z.boolean() }).strict(),
  z.object({ sharedToPersonal: z.boolean() }).strict(),
  z.object({ projectName: z.string().max(200).nullable() }).strict(),
]);

export interface EditAccessResponse {
  canEdit: boolean;
}

export const downloadResultQuerySchema = z.object({
  jobId: id,
  fileName: z.enum(DOWNLOADABLE_FILE_NAMES),
});
export interface DownloadResultResponse {
  downloadUrl: string;
}

export interface JobMetaResponse {
  sharedToExplore: boolean;
  sharedToPersonal: boolean;
  ownerUid: string;
  ownerUsername: string;
  stars: number | null;
  starsCount: number;
  projectName: string | null;
  fileName: string;
}

export interface MyStarsResponse {
  stars: number | null;
}
export const postStarsBodySchema = z.object({
  jobId: id,
  stars: z.number().int().min(RATING_MIN).max(RATING_MAX),
});
export interface StarsSummaryResponse {
  average: number;
  count: number;
}

export interface JobStatsResponse {
  loadsCount: number;
  viewersCount: number;
}

/**
 * owner: it is yours; granted: you opened it before; needs_credit: opening spends 1 view credit;
 * signed_out: a signed-out visitor's view-only look at a shared lesson (no credit, no rating).
 */
export type ViewAccessStatus = 'owner' | 'granted' | 'needs_credit' | 'signed_out';
export interface ViewAccessResponse {
  projectName: string | null;
  fileName: string;
  status: ViewAccessStatus;
  remaining: number;
}

export const eventsQuerySchema = z.object({ jobId: id, edit_version: boolParam });

/** File formats of GET /api/export: Guitar Pro, MusicXML, Standard MIDI File, plain-text tab. */
export const EXPORT_FORMATS = ['gp', 'musicxml', 'midi', 'txt'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/**
 * GET /api/export: the lesson as a file. `version` as the player chooses it when absent: the
 * edited version where one was saved, else the original.
 */
export const exportQuerySchema = z
  .object({
    jobId: id,
    format: z.enum(EXPORT_FORMATS, {
      error: 'Please choose an export format: gp, musicxml, midi or txt.',
    }),
    version: z
      .enum(['original', 'edited'], { error: "The version must be 'original' or 'edited'." })
      .optional(),
  })
  .describe(
    'A lesson of more than 50,000 notes (MAX_NOTES_PER_LESSON) is not exported: 413. Exports run off the request thread.',
  );
/**
 * GET /api/beats?jobId[&edit_version]: the lesson's beats and bars, and where they come from;
 * with edit_version=true the owner's corrected grid where one was saved (as for the notes).
 */
export const beatsQuerySchema = z.object({ jobId: id, edit_version: boolParam });
export interface BeatsResponse {
  grid: BeatGrid;
  /**
   * 'edited': corrected in the editor; 'engine': heard in the audio; 'default': a steady 4/4 at
   * 120 (no beats were stored).
   */
  source: 'edited' | 'engine' | 'default';
}
/** POST /api/edit-beats?jobId: the owner's corrected beats and bars (the edited version). */
export const editBeatsBodySchema = z.object({ grid: beatGridSchema });
export interface NotesResponse {
  events: NoteEvent[];
  version: 'original' | 'edited';
}
export interface ChordsResponse {
  events: ChordEvent[];
  version: 'original' | 'edited';
}

export const jobLoadBodySchema = z.object({ jobId: id });

export interface MeResponse {
  uid: string;
  email: string;
  handle: string;
  name: string | null;
  role: Role;
}

export interface MyCreditsResponse {
  credits: { creatorRemaining: number; viewRemaining: number };
}

export interface UpgradeRequestDto {
  message: string;
  createdAt: string;
  status: 'pending' | 'approved' | 'rejected';
}
export interface UpgradeRequestsResponse {
  hasPending: boolean;
  request: UpgradeRequestDto | null;
}
export const upgradeRequestBodySchema = z.object({
  message: z.string().max(2000).optional(),
});

export const EXPLORE_SORTS = ['newest', 'rating', 'opens'] as const;
export type ExploreSort = (typeof EXPLORE_SORTS)[number];
export const pageQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(60).default(24),
});
export const exploreQuerySchema = pageQuerySchema.extend({
  sort: z.enum(EXPLORE_SORTS).default('newest'),
});

/** A personal page's address: /u/<handle> (GET /api/users/:handle/lessons). */
export const handleParamsSchema = z.object({ handle: z.string().trim().min(1).max(64) });

export interface ExploreItem {
  jobId: string;
  projectName: string | null;
  fileName: string;
  ownerUsername: string;
  stars: number | null;
  starsCount: number;
  loadsCount: number;
  thumbnailUrl: string | null;
  createdAt: string;
  duration: number | null;
}

/** A personal page: whose it is and the lessons they shared to Personal. */
export interface PersonalPageResponse extends Paged<ExploreItem> {
  handle: string;
}
export interface Paged<T> {
  items: T[];
  page: number;
  pageSize: number;
  total: number;
}

export interface MyJobItem {
  jobId: string;
  requestId: string;
  projectName: string | null;
  fileName: string;
  status: JobStatus;
  stage: string;
  progress: number;
  sharedToExplore: boolean;
  sharedToPersonal: boolean;
  thumbnailUrl: string | null;
  createdAt: string;
  error: string | null;
}

export interface HealthResponse {
  status: 'ok' | 'degraded';
  database: { ok: boolean; driver: 'pglite' | 'postgres'; error?: string };
  storage: { ok: boolean; driver: 'local' | 's3'; error?: string };
  queue: { ok: boolean; error?: string };
}

export interface ApiError {
  error: string;
}

export interface CreditBalances {
  creator: number;
  view: number;
}
export type { CreditKind };

/** The signed-in user as the sign-in endpoints describe them. */
export interface SessionUser {
  uid: string;
  email: string;
  handle: string;
  role: Role;
}

/** POST /api/auth/token's answer. */
export interface AuthTokenResponse {
  /** Bearer token for /api calls (HS256 JWT: sub=uid, email, role, sid). */
  accessToken: string;
  /** Seconds until the access token expires. */
  expiresIn: number;
  user: SessionUser;
}

/** GET /api/auth/config's answer: lets the web app label the sign-in button. */
export interface AuthConfigResponse {
  /** True when sign-in goes through the built-in development provider. */
  devProvider: boolean;
  issuer: string;
}

/**
 * MP4 export (spec section 7, /api/convert/*): the browser records the lesson as WebM, PUTs it
 * to `upload_url`, starts the conversion and polls its status (CONVERSION_POLL_MS, at most
 * CONVERSION_POLL_MAX_TRIES); the MP4 is then download-result's `webm_converted.mp4`. The
 * conversion's id is the lesson's job id (one export of a lesson at a time).
 */
export const convertUploadUrlBodySchema = z.object({
  job_id: id,
  filename: z.string().trim().min(1).max(255),
  content_type: z.string().trim().min(1).max(100),
});
export interface ConvertUploadUrlResponse {
  upload_url: string;
  method: 'PUT';
  headers: Record<string, string>;
}
export const convertStartBodySchema = z.object({
  job_id: id,
  overlay: exportOverlaySchema.optional(),
});
export interface ConvertStartResponse {
  id: string;
}
export const convertStatusParamsSchema = z.object({ id });
export type ConversionStatus = 'uploading' | 'queued' | 'processing' | 'completed' | 'failed';
export interface ConvertStatusResponse {
  status: ConversionStatus;
  /** 0-100. */
  progress: number;
  error: string | null;
}
