/** A labelled progress bar; value is a percent, 0..100. */
export function ProgressBar(props: { value: number; label: string; tone?: 'accent' | 'success' }) {
  const value = Math.max(0, Math.min(100, Math.round(props.value)));
  return (
    <div
      className={`progress ${props.tone === 'success' ? 'progress-success' : ''}`}
      role="progressbar"
      aria-label={props.label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
    >
      <div className="progress-fill" style={{ width: `${String(value)}%` }} />
    </div>
  );
}
