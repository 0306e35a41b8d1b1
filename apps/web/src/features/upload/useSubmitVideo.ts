import { MESSAGES, type ProcessVideoResponse } from '@riffscribe/core';
import { useCallback, useState } from 'react';
import { session } from '../../api/session';
import { OutOfCreditsError, StartError, submitUpload } from './submitUpload';
import { buildUploadConfig, type SetupChoices } from './uploadConfig';
import type { ChosenVideo } from './wizardState';

export interface SubmitState {
  busy: boolean;
  message: string | null;
  /** Fraction of the file sent, 0..1, once the upload has started. */
  progress: number | null;
  error: string | null;
}

const IDLE: SubmitState = { busy: false, message: null, progress: null, error: null };

/**
 * 'GO!': checks the file, the sign-in and the creator credits, then runs the submit sequence.
 * Creator credits at 0 (or a 402 answer) open the out-of-credits dialog instead. A failed start
 * (the process call after the upload) goes to onStartFailed, for the home page's error state;
 * any earlier error is kept for display ('Error: ...') and the button is enabled again.
 */
export function useSubmitVideo(options: {
  creatorCredits: number | null;
  onStarted: (response: ProcessVideoResponse, fileName: string) => void;
  onStartFailed: (error: string, fileName: string, requestId: string | null) => void;
  onOutOfCredits: () => void;
}) {
  const { creatorCredits, onStarted, onStartFailed, onOutOfCredits } = options;
  const [state, setState] = useState<SubmitState>(IDLE);

  const submit = useCallback(
    async (video: ChosenVideo | null, choices: SetupChoices) => {
      if (!video) {
        setState({ ...IDLE, error: MESSAGES.noFile });
        return;
      }
      const user = await session.renew();
      if (!user?.email) {
        setState({ ...IDLE, error: MESSAGES.notSignedIn });
        return;
      }
      if (creatorCredits !== null && creatorCredits <= 0) {
        setState(IDLE);
        onOutOfCredits();
        return;
      }
      setState({ busy: true, message: null, progress: null, error: null });
      try {
        const response = await submitUpload({
          file: video.file,
          fileName: video.file.name,
          fileType: video.file.type,
          email: user.email,
          config: buildUploadConfig(choices, video.durationSeconds),
          onStatus: (message) => {
            setState((s) => ({ ...s, message }));
          },
          onProgress: (fraction) => {
            setState((s) => ({ ...s, progress: fraction }));
          },
        });
        setState(IDLE);
        onStarted(response, video.file.name);
      } catch (error) {
        if (error instanceof OutOfCreditsError) {
          setState(IDLE);
          onOutOfCredits();
          return;
        }
        if (error instanceof StartError) {
          setState(IDLE);
          onStartFailed(error.message, video.file.name, error.requestId);
          return;
        }
        setState({
          ...IDLE,
          error: error instanceof Error ? error.message : MESSAGES.unknownUploadError,
        });
      }
    },
    [creatorCredits, onStarted, onStartFailed, onOutOfCredits],
  );

  const clear = useCallback(() => {
    setState(IDLE);
  }, []);

  return { state, submit, clear };
}
