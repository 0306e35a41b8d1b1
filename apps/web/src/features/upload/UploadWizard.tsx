import {
  RECORDING_LIMIT_SECONDS,
  isPrivileged,
  type ProcessVideoResponse,
  type SessionUser,
} from '@riffscribe/core';
import { useCallback, useReducer, useState } from 'react';
import { Icon } from '../../ui/Icon';
import { OutOfCreditsDialog } from '../credits/OutOfCreditsDialog';
import { useIsMobile } from '../device/useIsMobile';
import { checkRecording, checkVideoFile } from './checkVideo';
import { GuitarSetupStep } from './GuitarSetupStep';
import { PlayingStyleStep } from './PlayingStyleStep';
import { SelectedVideo } from './SelectedVideo';
import { SourceStep } from './SourceStep';
import { StepIndicator } from './StepIndicator';
import { SubmitStatus } from './SubmitStatus';
import { useSubmitVideo } from './useSubmitVideo';
import { clearStoredThumbnail } from './videoProbe';
import { INITIAL_WIZARD, wizardReducer } from './wizardState';

const recordingName = () =>
  `recording-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}.webm`;

/** The three-step upload wizard of spec section 2, ending in 'GO!'. */
export function UploadWizard(props: {
  user: SessionUser;
  creatorCredits: number | null;
  onStarted: (response: ProcessVideoResponse, fileName: string) => void;
  /** The upload went through but the start of processing failed. */
  onStartFailed: (error: string, fileName: string, requestId: string | null) => void;
}) {
  const { user, creatorCredits, onStarted, onStartFailed } = props;
  const [state, dispatch] = useReducer(wizardReducer, INITIAL_WIZARD);
  const [outOfCredits, setOutOfCredits] = useState(false);
  const isMobile = useIsMobile();
  const limited = !isPrivileged(user.role);
  const submission = useSubmitVideo({
    creatorCredits,
    onStarted,
    onStartFailed,
    onOutOfCredits: useCallback(() => {
      setOutOfCredits(true);
    }, []),
  });
  const busy = submission.state.busy;

  const chooseFile = async (file: File) => {
    dispatch({ type: 'checking' });
    clearStoredThumbnail();
    const result = await checkVideoFile(file, limited);
    dispatch(
      result.ok
        ? { type: 'chose', video: { file, durationSeconds: result.seconds, source: 'file' } }
        : { type: 'invalid', message: result.message },
    );
  };

  const acceptRecording = (blob: Blob, seconds: number) => {
    const file = new File([blob], recordingName(), { type: blob.type || 'video/webm' });
    const result = checkRecording(file, seconds, limited);
    dispatch(
      result.ok
        ? { type: 'chose', video: { file, durationSeconds: result.seconds, source: 'recording' } }
        : { type: 'invalid', message: result.message },
    );
  };

  const reset = () => {
    dispatch({ type: 'reset' });
    submission.clear();
    clearStoredThumbnail();
  };

  return (
    <div className="wizard">
      <StepIndicator step={state.step} />

      {state.video && state.step !== 'upload' ? (
        <SelectedVideo video={state.video} onReset={reset} disabled={busy} />
      ) : null}

      {state.step === 'upload' ? (
        <SourceStep
          canRecord={!isMobile}
          limitSeconds={limited ? RECORDING_LIMIT_SECONDS : null}
          checking={state.checking}
          onFile={(file) => void chooseFile(file)}
          onRecording={acceptRecording}
        />
      ) : state.step === 'config' ? (
        <GuitarSetupStep
          choices={state.choices}
          onChange={(choices) => {
            dispatch({ type: 'choices', choices });
          }}
        />
      ) : (
        <PlayingStyleStep
          value={state.choices.stemType}
          disabled={busy}
          onChange={(stemType) => {
            dispatch({ type: 'choices', choices: { stemType } });
          }}
        />
      )}

      {state.error ? (
        <p className="form-error" role="alert">
          {state.error}
        </p>
      ) : null}
      {state.step === 'playing-type' ? <SubmitStatus {...submission.state} /> : null}

      <div className="wizard-nav">
        {state.step !== 'upload' ? (
          <button
            type="button"
            className="button ghost"
            disabled={busy}
            onClick={() => {
              dispatch({ type: 'back' });
              submission.clear();
            }}
          >
            <Icon name="arrowLeft" size={18} /> Back
          </button>
        ) : (
          <span />
        )}
        {state.step === 'playing-type' ? (
          <button
            type="button"
            className="button go"
            disabled={busy}
            onClick={() => void submission.submit(state.video, state.choices)}
          >
            GO!
          </button>
        ) : (
          <button
            type="button"
            className="button"
            disabled={state.checking}
            onClick={() => {
              dispatch({ type: 'next' });
            }}
          >
            Continue <Icon name="arrowRight" size={18} />
          </button>
        )}
      </div>

      <OutOfCreditsDialog
        kind="creator"
        open={outOfCredits}
        onClose={() => {
          setOutOfCredits(false);
        }}
      />
    </div>
  );
}
