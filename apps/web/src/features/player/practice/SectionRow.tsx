import { MAX_SECTION_NAME, type Section } from '@riffscribe/core';
import { useState, type KeyboardEvent } from 'react';
import { formatClock } from '../timeline/scale';

/** "0:08.0–0:16.0": a section's loop as the time readout writes times. */
export const sectionSpan = (s: { start: number; end: number }) =>
  `${formatClock(s.start, 1)}–${formatClock(s.end, 1)}`;

/**
 * One of the user's sections: a button that loops it and goes to its start, and rename (an inline
 * text field: Enter or leaving it keeps the name, Escape cancels) and delete buttons.
 */
export function SectionRow(props: {
  section: Section;
  /** The loop is set to this section. */
  current: boolean;
  onPlay: () => void;
  /** Answers what is wrong with the name, or null once renamed. */
  onRename: (name: string) => string | null;
  onDelete: () => void;
}) {
  const { section, current } = props;
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const problemId = `lp-section-problem-${section.id}`;

  const finish = (keep: boolean) => {
    if (draft === null) return;
    if (keep && draft.trim() !== section.name) {
      const wrong = props.onRename(draft);
      if (wrong) {
        setProblem(wrong);
        return;
      }
    }
    setDraft(null);
    setProblem(null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter' && e.key !== 'Escape') return;
    // Neither the player (Escape clears the loop) nor the popover (it closes) takes these.
    e.preventDefault();
    e.stopPropagation();
    finish(e.key === 'Enter');
  };

  return (
    <li className="lp-section" data-current={current ? 'true' : 'false'}>
      {draft === null ? (
        <button
          type="button"
          className="lp-section-play"
          aria-pressed={current}
          title={`Loop ${section.name} and go to its start`}
          onClick={props.onPlay}
        >
          <span className="lp-section-name">{section.name}</span>
          <span className="lp-section-span">{sectionSpan(section)}</span>
        </button>
      ) : (
        <span className="lp-section-edit">
          <input
            type="text"
            // Focus follows the rename button's click: the field takes the name's place.
            autoFocus
            aria-label={`New name for ${section.name}`}
            aria-invalid={problem !== null}
            aria-describedby={problem ? problemId : undefined}
            maxLength={MAX_SECTION_NAME}
            value={draft}
            onChange={(e) => {
              setDraft(e.target.value);
              setProblem(null);
            }}
            onKeyDown={onKeyDown}
            onBlur={() => {
              finish(true);
            }}
          />
          {problem && (
            <span id={problemId} className="lp-section-problem" role="alert">
              {problem}
            </span>
          )}
        </span>
      )}
      <button
        type="button"
        className="lp-tool lp-section-action"
        aria-label={`Rename ${section.name}`}
        title="Rename"
        aria-pressed={draft !== null}
        onMouseDown={(e) => {
          // Keeps the field's blur from renaming before this click toggles it.
          if (draft !== null) e.preventDefault();
        }}
        onClick={() => {
          if (draft === null) setDraft(section.name);
          else finish(true);
        }}
      >
        <span aria-hidden="true">✎</span>
      </button>
      <button
        type="button"
        className="lp-tool lp-section-action"
        aria-label={`Delete ${section.name}`}
        title="Delete"
        onClick={props.onDelete}
      >
        <span aria-hidden="true">×</span>
      </button>
    </li>
  );
}
