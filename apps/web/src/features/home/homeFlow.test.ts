import type { CheckStatusResponse } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import {
  INITIAL_HOME_STATE,
  bareJob,
  homeReducer,
  processingLabel,
  stageText,
  stateJobId,
  type HomeState,
} from './homeFlow';

const status = (over: Partial<CheckStatusResponse>): CheckStatusResponse => ({
  success: true,
  jobId: 'j1',
  requestId: 'req_1',
  status: 'processing',
  stage: 'transcribing',
  progress: 40,
  message: 'Transcribing notes',
  error: null,
  ...over,
});

const started = homeReducer(INITIAL_HOME_STATE, {
  type: 'started',
  job: { jobId: 'j1', requestId: 'req_1', fileName: 'riff.mp4' },
});

describe('home page transitions (spec section 4)', () => {
  it('upload -> processing with the default message', () => {
    expect(started).toMatchObject({
      kind: 'processing',
      completing: false,
      job: {
        jobId: 'j1',
        fileName: 'riff.mp4',
        message: 'Your video is being processed by our AI.',
      },
    });
  });

  it('follows status polls, then completes after the pause', () => {
    const moving = homeReducer(started, { type: 'status', status: status({ progress: 40.4 }) });
    expect(moving).toMatchObject({
      kind: 'processing',
      job: { progress: 40, stage: 'transcribing' },
    });
    const done = homeReducer(moving, {
      type: 'status',
      status: status({ status: 'completed', stage: 'completed', progress: 100 }),
    });
    expect(done).toMatchObject({
      kind: 'processing',
      completing: true,
      job: { message: 'Processing complete! Your tabs are ready.', progress: 100 },
    });
    // Late polls do not undo the completion.
    expect(homeReducer(done, { type: 'status', status: status({}) })).toBe(done);
    expect(homeReducer(done, { type: 'completeShown' }).kind).toBe('success');
  });

  it('goes to error on a failed status, and back to upload on reset', () => {
    const failed = homeReducer(started, {
      type: 'status',
      status: status({ status: 'failed', stage: 'failed', error: 'no audio' }),
    });
    expect(failed).toMatchObject({ kind: 'error', job: { error: 'no audio' } });
    expect(homeReducer(failed, { type: 'reset' })).toEqual(INITIAL_HOME_STATE);
  });

  it('goes to error on a failed start, with the start error and no job id', () => {
    const failed = homeReducer(INITIAL_HOME_STATE, {
      type: 'startFailed',
      fileName: 'riff.mp4',
      error: 'Invalid or unsupported video file.',
    });
    expect(failed).toMatchObject({
      kind: 'error',
      job: {
        jobId: '',
        requestId: '',
        fileName: 'riff.mp4',
        error: 'Invalid or unsupported video file.',
      },
    });
    expect(stateJobId(failed)).toBeNull();
    expect(homeReducer(failed, { type: 'reset' })).toEqual(INITIAL_HOME_STATE);
    // Only the wizard (the upload state) starts jobs.
    expect(homeReducer(started, { type: 'startFailed', fileName: 'x.mp4', error: 'late' })).toBe(
      started,
    );
  });

  it('ignores polls for another job', () => {
    expect(homeReducer(started, { type: 'status', status: status({ jobId: 'other' }) })).toBe(
      started,
    );
  });

  it('loads by id: completed, failed, or anything else', () => {
    const loading = homeReducer(INITIAL_HOME_STATE, { type: 'load', jobId: 'j1' });
    expect(loading).toEqual({ kind: 'loading', jobId: 'j1' });
    const job = bareJob('j1');
    expect(homeReducer(loading, { type: 'loaded', job, status: 'completed' }).kind).toBe('success');
    expect(homeReducer(loading, { type: 'loaded', job, status: 'failed' }).kind).toBe('error');
    expect(homeReducer(loading, { type: 'loaded', job, status: 'queued' }).kind).toBe('processing');
    const failed = homeReducer(loading, {
      type: 'loadFailed',
      message: 'Failed to load job. Please check the Job ID.',
    });
    expect(failed).toEqual({
      kind: 'upload',
      loadError: 'Failed to load job. Please check the Job ID.',
    });
  });

  it('opens straight to success on mobile', () => {
    const s: HomeState = homeReducer(INITIAL_HOME_STATE, { type: 'openOnMobile', jobId: 'j9' });
    expect(s).toMatchObject({ kind: 'success', job: { jobId: 'j9' } });
  });
});

describe('labels', () => {
  it('names the processing phase', () => {
    expect(processingLabel('transcribing')).toBe('Analyzing');
    expect(processingLabel('final_video_generation')).toBe('Generating new video');
    expect(processingLabel('video_regenerated')).toBe('Generating new video');
    expect(stageText('extracting_audio')).toBe('Extracting audio');
    expect(stageText('')).toBe('Queued');
  });

  it('passes over an in-progress answer older than the one shown (stream and polling race)', () => {
    const ahead = homeReducer(started, {
      type: 'status',
      status: status({ stage: 'detecting_chords', progress: 90 }),
    });
    expect(homeReducer(ahead, { type: 'status', status: status({ progress: 40 }) })).toBe(ahead);
    expect(
      homeReducer(ahead, {
        type: 'status',
        status: status({ status: 'completed', progress: 100 }),
      }),
    ).toMatchObject({ kind: 'processing', completing: true });
  });
});
