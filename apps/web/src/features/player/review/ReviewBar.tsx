import { SUGGESTION_NAMES, suggestionLabel, type Tuning } from '@riffscribe/core';
import type { Editor } from '../editor/useEditor';
import { staffStringNames } from '../fretboard/labels';

/**
 * The review queue's controls in the edit bar: how many of the AI's notes are still doubtful,
 * the next one (as D), accepting the selected notes (as A), and the other places of the selected
 * note's pitch as buttons (the same as clicking their rings on the fretboard).
 */
export function ReviewBar(props: { editor: Editor; tuning: Tuning; capo: number }) {
  const { editor } = props;
  const names = staffStringNames(props.tuning, props.capo);
  const left = editor.doubtful;
  const others = editor.choice?.others ?? [];
  const suggestion = editor.suggestion;
  const name = suggestion ? SUGGESTION_NAMES[suggestion.technique] : '';
  return (
    <div className="lp-review" role="group" aria-label="Review">
      <span className="lp-review-count" data-testid="doubtful-count" aria-live="polite">
        {left === 0
          ? 'No doubtful notes'
          : `${String(left)} doubtful note${left === 1 ? '' : 's'} left`}
      </span>
      <button
        type="button"
        className="lp-tool"
        disabled={left === 0}
        onClick={() => {
          editor.review(1);
        }}
        title="Next doubtful note (D)"
      >
        Next doubtful
      </button>
      <button
        type="button"
        className="lp-tool"
        disabled={editor.selectedNotes.length === 0}
        onClick={() => {
          editor.onKey({ type: 'accept' });
        }}
        title="Accept the selected notes as right (A)"
      >
        Accept
      </button>
      {suggestion && (
        <span className="lp-review-suggestion" role="group" aria-label="Suggested technique">
          <span
            className="lp-review-question"
            data-testid="suggestion"
            title={`The AI heard a ${name} here but is not sure (${String(Math.round(suggestion.confidence * 100))} %)`}
          >
            {suggestionLabel(suggestion.technique)}
          </span>
          <button
            type="button"
            className="lp-tool"
            onClick={() => {
              editor.addSuggestion();
            }}
            title={`Add the ${name} to the tab (Y)`}
          >
            Add {name}
          </button>
          <button
            type="button"
            className="lp-tool"
            onClick={() => {
              editor.onKey({ type: 'accept' });
            }}
            title={`Keep the note as written, without the ${name} (A)`}
          >
            No {name}
          </button>
        </span>
      )}
      {others.length > 0 && (
        <span className="lp-review-places" aria-label="Play it elsewhere">
          Move to
          {others.map((p) => (
            <button
              key={p.string}
              type="button"
              className="lp-tool"
              onClick={() => {
                editor.moveTo(p);
              }}
              aria-label={`String ${names[p.string - 1] ?? ''} fret ${String(p.fret)}`}
            >
              {names[p.string - 1]} {p.fret}
            </button>
          ))}
        </span>
      )}
    </div>
  );
}
