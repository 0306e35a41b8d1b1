import { MESSAGES, type CheckStatusResponse, type JobStatus } from '@riffscribe/core';

/** What the home page knows about the job it shows. progress is a percent, 0..100. */
export interface JobView {
  jobId: string;
  requestId: string;
  fileName: string;
  message: string;
  stage: string;
  progress: number;
  error: string | null;
}

/** The home page's four states (spec section 2) plus the loading overlay of a job opened by id. */
export type HomeState =
  | { kind: 'upload'; loadError: string | null }
  | { kind: 'loading'; jobId: string }
  /** completing: the job is done and the success state opens after a short pause. */
  | { kind: 'processing'; job: JobView; completing: boolean }
  | { kind: 'error'; job: JobView }
  | { kind: 'success'; job: JobView };

export type HomeAction =
  | { type: 'started'; job: Pick<JobView, 'jobId' | 'requestId' | 'fileName'> }
  /** The upload went through but the start call failed: no job exists. */
  | { type: 'startFailed'; fileName: string; error: string; requestId?: string | null }
  | { type: 'load'; jobId: string }
  | { type: 'loaded'; job: JobView; status: JobStatus }
  | { type: 'loadFailed'; message: string }
  | { type: 'status'; status: CheckStatusResponse }
  | { type: 'completeShown' }
  | { type: 'openOnMobile'; jobId: string }
  | { type: 'reset' };

export const INITIAL_HOME_STATE: HomeState = { kind: 'upload', loadError: null };

const percent = (value: number) => Math.max(0, Math.min(100, Math.round(value)));

/** A job known only by its id (opened on a phone, where no status call is made). */
export function bareJob(jobId: string): JobView {
  return {
    jobId,
    requestId: '',
    fileName: '',
    message: MESSAGES.defaultProcessingMessage,
    stage: 'queued',
    progress: 0,
    error: null,
  };
}

function settle(job: JobView, status: JobStatus): HomeState {
  if (status === 'completed') return { kind: 'success', job: { ...job, progress: 100 } };
  if (status === 'failed') return { kind: 'error', job };
  return { kind: 'processing', job, completing: false };
}

/** The transitions of spec section 4 (Home page), as a pure reducer. */
export function homeReducer(state: HomeState, action: HomeAction): HomeState {
  switch (action.type) {
    case 'started':
      return {
        kind: 'processing',
        completing: false,
        job: { ...bareJob(action.job.jobId), ...action.job },
      };
    case 'startFailed':
      // "processing -> error on a failed status or a failed start": the start is the last step
      // of the submit sequence, so the wizard is still showing when it fails.
      return state.kind === 'upload'
        ? {
            kind: 'error',
            job: {
              ...bareJob(''),
              // No job was made; the refused call's request id is what support can look up.
              requestId: action.requestId ?? '',
              fileName: action.fileName,
              stage: 'failed',
              error: action.error,
            },
          }
        : state;
    case 'load':
      return { kind: 'loading', jobId: action.jobId };
    case 'loaded':
      return state.kind === 'loading' && state.jobId === action.job.jobId
        ? settle(action.job, action.status)
        : state;
    case 'loadFailed':
      return state.kind === 'loading' ? { kind: 'upload', loadError: action.message } : state;
    case 'status': {
      if (state.kind !== 'processing' || state.completing) return state;
      const s = action.status;
      if (s.jobId !== state.job.jobId) return state;
      // Two sources report (the live stream and check-status polling): an in-progress answer
      // older than what is shown would move the bar back, so it is passed over.
      const inProgress = s.status !== 'completed' && s.status !== 'failed';
      if (inProgress && percent(s.progress) < state.job.progress) return state;
      const job: JobView = {
        ...state.job,
        requestId: s.requestId || state.job.requestId,
        stage: s.stage,
        progress: percent(s.progress),
        message: s.message || MESSAGES.defaultProcessingMessage,
        error: s.error,
      };
      if (s.status === 'completed') {
        return {
          kind: 'processing',
          completing: true,
          job: { ...job, progress: 100, message: MESSAGES.processingComplete },
        };
      }
      if (s.status === 'failed') return { kind: 'error', job };
      return { kind: 'processing', completing: false, job };
    }
    case 'completeShown':
      return state.kind === 'processing' && state.completing
        ? { kind: 'success', job: state.job }
        : state;
    case 'openOnMobile':
      return { kind: 'success', job: bareJob(action.jobId) };
    case 'reset':
      return INITIAL_HOME_STATE;
  }
}

/** The job id a state is about, if any. */
export function stateJobId(state: HomeState): string | null {
  if (state.kind === 'upload') return null;
  if (state.kind === 'loading') return state.jobId;
  return state.job.jobId || null;
}

/**
 * The processing label: 'Generating new video' while the final video is being made (or
 * regenerated), else 'Analyzing'.
 */
export function processingLabel(stage: string): 'Analyzing' | 'Generating new video' {
  return /final[_\s-]?video[_\s-]?generation|video_regenerated/i.test(stage)
    ? 'Generating new video'
    : 'Analyzing';
}

/** A pipeline stage for people: 'extracting_audio' -> 'Extracting audio'. */
export function stageText(stage: string): string {
  const words = stage.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Queued';
}
