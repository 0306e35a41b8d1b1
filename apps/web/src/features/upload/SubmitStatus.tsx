import { ProgressBar } from '../../ui/ProgressBar';

/**
 * The submit sequence's status line, the upload progress bar (it stays, full, through the steps
 * after the upload), and an error as 'Error: ...'.
 */
export function SubmitStatus(props: {
  message: string | null;
  /** Fraction of the file sent, 0..1, or null before the upload starts. */
  progress: number | null;
  error: string | null;
}) {
  const { message, progress, error } = props;
  return (
    <div className="submit-status">
      {message ? (
        <p className="submit-message" role="status">
          {message}
        </p>
      ) : null}
      {progress !== null ? (
        <div className="submit-progress">
          <ProgressBar value={progress * 100} label="Upload progress" />
          <span className="submit-percent">{Math.round(progress * 100)}%</span>
        </div>
      ) : null}
      {error ? (
        <p className="form-error" role="alert">
          Error: {error}
        </p>
      ) : null}
    </div>
  );
}
