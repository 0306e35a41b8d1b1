/** Shown while a lesson is loaded by id. */
export function LoadingOverlay() {
  return (
    <div className="lp-loading" role="status">
      <span className="lp-spinner" aria-hidden="true" />
      <strong>Loading video…</strong>
      <span>Please wait while we load the lesson.</span>
    </div>
  );
}
