/** 'Loading video…' while a job or lesson is loaded by its id. */
export function LoadingOverlay() {
  return (
    <div className="loading-overlay" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <p className="loading-title">Loading video…</p>
      <p className="muted">Please wait while we load the lesson.</p>
    </div>
  );
}
