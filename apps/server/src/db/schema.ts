import type { ColumnType, Generated } from 'kysely';

/** Timestamps are read as Date and may be written as Date or ISO text. */
type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type Json<T> = ColumnType<T, string, string>;

export interface UsersTable {
  id: string;
  email: string;
  name: string | null;
  handle: string;
  role: string;
  oidc_issuer: string;
  oidc_subject: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionsTable {
  /** sha256 of the session cookie's secret; the secret itself is never stored. */
  id: string;
  user_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  last_used_at: Timestamp;
  revoked_at: Timestamp | null;
}

export interface CreditBalancesTable {
  user_id: string;
  kind: string;
  balance: number;
}

/** Append-only: rows are inserted, never updated or deleted. */
export interface CreditLedgerTable {
  id: Generated<string>;
  user_id: string;
  kind: string;
  delta: number;
  reason: string;
  /** What the movement is about: a job id, 'signup', or a grant id. (user, kind, reason, ref) is unique. */
  ref: string;
  created_at: Timestamp;
}

export interface UploadsTable {
  key: string;
  owner_uid: string;
  file_type: string;
  max_bytes: ColumnType<string, number, number> | null;
  created_at: Timestamp;
  job_id: string | null;
}

export interface JobsTable {
  id: string;
  request_id: string;
  owner_uid: string;
  file_name: string;
  project_name: string | null;
  file_size: ColumnType<string, number, number>;
  file_type: string;
  upload_key: string;
  config: Json<Record<string, unknown>>;
  status: string;
  stage: string;
  progress: Generated<number>;
  message: string;
  error: string | null;
  shared_to_explore: Generated<boolean>;
  shared_to_personal: Generated<boolean>;
  thumbnail_key: string | null;
  duration: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  completed_at: Timestamp | null;
  /** The worker attempt that owns the job: it presents this token on every write. */
  lease_token: string | null;
  lease_expires_at: Timestamp | null;
  /** Who holds the lease (host and process id), for operators. */
  lease_holder: string | null;
  /** Worker attempts started on the job (1 on the first run). */
  attempts: Generated<number>;
}

export interface JobFilesTable {
  job_id: string;
  /** 'results', 'notes', 'chords', 'video.mp4', a stem file name... */
  name: string;
  /** 'original' or 'edited'. */
  version: string;
  key: string;
  content_type: string;
  size: ColumnType<string, number, number>;
  created_at: Timestamp;
}

export interface RatingsTable {
  job_id: string;
  user_id: string;
  stars: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface JobLoadsTable {
  job_id: string;
  /** The sign-in session the load was counted for: one load per job per session. */
  session_id: string;
  user_id: string;
  created_at: Timestamp;
}

/** A non-owner who has opened a lesson (and paid its view credit) once. */
export interface JobViewsTable {
  job_id: string;
  user_id: string;
  created_at: Timestamp;
}

export interface UpgradeRequestsTable {
  id: string;
  user_id: string;
  message: string;
  status: string;
  created_at: Timestamp;
}

/** One MP4 export of a lesson (spec section 7); its id is the job's. */
export interface ConversionsTable {
  job_id: string;
  user_id: string;
  /** uploading, queued, processing, completed, failed (core's ConversionStatus). */
  status: string;
  progress: Generated<number>;
  error: string | null;
  /** The WebM recording's object (a new key per upload link). */
  upload_key: string;
  /** The largest recording the upload link accepted. */
  upload_max_bytes: ColumnType<string, number, number>;
  /** The runner that owns the conversion presents this token on every write. */
  lease_token: string | null;
  /** Who holds the lease (host and process id), for start-up cleanup and operators. */
  lease_holder: string | null;
  lease_expires_at: Timestamp | null;
  /** Runs started on the current upload (1 on the first). */
  attempts: Generated<number>;
  /** The overlay to put over the lesson's video (core's ExportOverlay as JSON); null: convert as it is. */
  overlay: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A named loop a user keeps with a lesson (issue 40 part 3); their own only. */
export interface JobSectionsTable {
  job_id: string;
  user_id: string;
  /** The section's id in the user's list (a UUID the web app or the server made). */
  id: string;
  name: string;
  /** The loop [start_seconds, end_seconds), lesson seconds. */
  start_seconds: number;
  end_seconds: number;
  /** Where the section stood in the list as saved (0 = first). */
  position: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  credit_balances: CreditBalancesTable;
  credit_ledger: CreditLedgerTable;
  uploads: UploadsTable;
  jobs: JobsTable;
  job_files: JobFilesTable;
  ratings: RatingsTable;
  job_loads: JobLoadsTable;
  job_views: JobViewsTable;
  upgrade_requests: UpgradeRequestsTable;
  conversions: ConversionsTable;
  job_sections: JobSectionsTable;
}
