import { MESSAGES } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import { ObjectNotFoundError } from '../storage/object-store.js';
import { RemoteEngineError } from './engine-host.js';
import {
  EngineCrashError,
  MediaToolError,
  PermanentJobError,
  classifyFailure,
} from './failures.js';
import { progressPlan, spanPercent, STAGE_MESSAGES } from './stages.js';
import { checkMediaFacts, MediaRefusal } from './upload-verification.js';

const video = {
  durationSeconds: 12,
  hasAudio: true,
  hasVideo: true,
  formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
};

describe('checkMediaFacts', () => {
  const refusal = (facts: typeof video, limited = true) => {
    try {
      checkMediaFacts(facts, limited);
      return null;
    } catch (error) {
      return error instanceof MediaRefusal ? error.message : 'not a refusal';
    }
  };
  it('accepts a video with sound within the limits', () => {
    expect(refusal(video)).toBeNull();
    expect(refusal({ ...video, durationSeconds: 31 })).toBeNull();
  });
  it("uses the spec's messages for each refusal", () => {
    expect(refusal({ ...video, hasVideo: false })).toBe(MESSAGES.invalidFileType);
    expect(refusal({ ...video, formatName: 'hls' })).toBe(MESSAGES.invalidVideo);
    expect(refusal({ ...video, durationSeconds: 0 })).toBe(MESSAGES.durationUnreadable);
    expect(refusal({ ...video, durationSeconds: 31.6 })).toBe(MESSAGES.videoTooLong(32));
    expect(refusal({ ...video, durationSeconds: 95 })).toBe(MESSAGES.videoTooLong(95));
  });
  it("fails a job whose file turned out too long with the spec's sentence (issue 38 row 11)", () => {
    // A file swapped for a longer one after acceptance: the worker's check refuses it, and the
    // refusal's reason becomes the job's error (classifyFailure).
    try {
      checkMediaFacts({ ...video, durationSeconds: 600 }, true);
      expect.unreachable();
    } catch (error) {
      expect(classifyFailure(error)).toMatchObject({
        retry: false,
        reason: MESSAGES.videoTooLong(600),
      });
    }
  });
  it('has no length limit for pilots and admins', () => {
    expect(refusal({ ...video, durationSeconds: 600 }, false)).toBeNull();
  });
});

describe('classifyFailure', () => {
  it('gives up at once on problems with the file', () => {
    expect(
      classifyFailure(new RemoteEngineError('unreadable_media', 'The file looks incomplete.')),
    ).toEqual({ retry: false, reason: 'The file looks incomplete.' });
    expect(classifyFailure(new RemoteEngineError('no_audio_stream', 'No sound.')).retry).toBe(
      false,
    );
    expect(classifyFailure(new RemoteEngineError('too_long', 'Too long.')).retry).toBe(false);
    expect(classifyFailure(new RemoteEngineError('empty_file', 'Empty.')).retry).toBe(false);
    expect(classifyFailure(new MediaRefusal(MESSAGES.invalidVideo, 'A playlist.'))).toEqual({
      retry: false,
      reason: 'A playlist.',
    });
    expect(classifyFailure(new PermanentJobError('Bad settings.')).retry).toBe(false);
    expect(classifyFailure(new MediaToolError('Cannot convert.')).retry).toBe(false);
    expect(classifyFailure(new ObjectNotFoundError('uploads/a/b')).retry).toBe(false);
  });
  it('retries crashes, timeouts and anything unexpected, without internal details', () => {
    expect(classifyFailure(new EngineCrashError('signal SIGKILL'))).toEqual({
      retry: true,
      reason: 'The transcription process stopped unexpectedly (signal SIGKILL).',
    });
    expect(classifyFailure(new RemoteEngineError('timeout', 'Took too long.')).retry).toBe(true);
    expect(classifyFailure(new RemoteEngineError('model_failed', 'Model.')).retry).toBe(true);
    const unexpected = classifyFailure(new TypeError('connect ECONNREFUSED 10.0.0.5:9000'));
    expect(unexpected.retry).toBe(true);
    expect(unexpected.reason).not.toContain('10.0.0.5');
  });
});

describe('stages and progress', () => {
  it('maps engine percentages into the job percent, leaving room for the video', () => {
    const withVideo = progressPlan(true);
    expect(spanPercent(withVideo.engineFrom, withVideo.engineTo, 0)).toBe(2);
    expect(spanPercent(withVideo.engineFrom, withVideo.engineTo, 100)).toBe(75);
    expect(spanPercent(withVideo.videoFrom, withVideo.videoTo, 50)).toBe(86);
    const without = progressPlan(false);
    expect(spanPercent(without.engineFrom, without.engineTo, 100)).toBe(95);
    expect(spanPercent(0, 100, Number.NaN)).toBe(0);
    expect(spanPercent(0, 100, 140)).toBe(100);
  });
  it('says "final video generation" while the video is made (the web app looks for it)', () => {
    expect(STAGE_MESSAGES.final_video_generation.toLowerCase()).toContain('final video generation');
    expect(STAGE_MESSAGES.failed).toBe(MESSAGES.jobFailed);
    expect(STAGE_MESSAGES.queued).toBe(MESSAGES.defaultProcessingMessage);
  });
});
