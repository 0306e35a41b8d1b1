import type { Draft } from './useDraft';

/** Offers back the edits kept in this browser that were never saved. */
export function DraftBanner(props: { draft: Draft; onRestore: () => void; onDiscard: () => void }) {
  const when = new Date(props.draft.at).toLocaleString();
  return (
    <div className="lp-draft" role="alert" data-testid="draft-banner">
      <span>You have unsaved edits from {when} kept in this browser.</span>
      <button type="button" className="button" onClick={props.onRestore}>
        Restore edits
      </button>
      <button type="button" className="button secondary" onClick={props.onDiscard}>
        Discard
      </button>
    </div>
  );
}
