import { MAX_SECTION_NAME, MAX_SECTIONS } from '@riffscribe/core';
import { useId, useState } from 'react';
import { Popover } from '../toolbar/Popover';
import { SectionRow, sectionSpan } from './SectionRow';
import type { Sections } from './useSections';
import './sections.css';

/**
 * Sections in the toolbar (issue 40 part 3), after Practice: the user's named loops of the lesson
 * (click one to loop it), "Save loop as section", rename and delete; while there are none, the
 * sections the lesson's bars suggest. Shift+← and Shift+→ step through them.
 */
export function SectionsPanel(props: { sections: Sections }) {
  return (
    <Popover
      label="Sections"
      role="dialog"
      align="auto"
      title="Your named loops of this lesson (Shift+← / Shift+→: previous / next)"
      button={<span className="lp-tool-label">Sections</span>}
    >
      {(close) => <SectionsBody sections={props.sections} close={close} />}
    </Popover>
  );
}

function SectionsBody(props: { sections: Sections; close: () => void }) {
  const { sections: s, close } = props;
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const nameId = useId();
  const full = s.list.length >= MAX_SECTIONS;
  const hint = full
    ? `A lesson can have at most ${String(MAX_SECTIONS)} sections.`
    : s.canSaveLoop
      ? ''
      : 'Set a loop first (L).';

  const save = () => {
    const wrong = s.saveLoop(name);
    setProblem(wrong);
    if (!wrong) setName('');
  };

  return (
    <div className="lp-sections" data-saving={s.saving ? 'true' : 'false'}>
      {s.status === 'loading' && (
        <p className="lp-sections-note" role="status">
          Loading your sections…
        </p>
      )}
      {s.status === 'failed' && (
        <p className="lp-sections-error" role="alert">
          Your sections could not be loaded.{' '}
          <button type="button" className="lp-sections-link" onClick={s.reload}>
            Try again
          </button>
        </p>
      )}
      {s.status === 'ready' && (
        <>
          {s.list.length > 0 ? (
            <ul className="lp-sections-list" aria-label="Your sections">
              {s.list.map((section) => (
                <SectionRow
                  key={section.id}
                  section={section}
                  current={s.current?.id === section.id}
                  onPlay={() => {
                    s.play(section);
                  }}
                  onRename={(next) => s.rename(section.id, next)}
                  onDelete={() => {
                    s.remove(section.id);
                  }}
                />
              ))}
            </ul>
          ) : (
            <p className="lp-sections-note">
              No sections yet. Set a loop (L) and save it, or use the suggested ones.
            </p>
          )}
          {s.suggested.length > 0 && (
            <fieldset className="lp-panel-box">
              <legend>Suggested from the bars</legend>
              <ul className="lp-sections-list" aria-label="Suggested sections">
                {s.suggested.map((section) => (
                  <li
                    key={`${String(section.start)}-${String(section.end)}`}
                    className="lp-section"
                  >
                    <button
                      type="button"
                      className="lp-section-play"
                      title={`Try ${section.name}: loop it and go to its start`}
                      onClick={() => {
                        s.play(section);
                      }}
                    >
                      <span className="lp-section-name">{section.name}</span>
                      <span className="lp-section-span">{sectionSpan(section)}</span>
                    </button>
                  </li>
                ))}
              </ul>
              <button
                type="button"
                className="lp-tool lp-sections-primary"
                onClick={s.adoptSuggested}
              >
                Use suggested sections
              </button>
            </fieldset>
          )}
          <form
            className="lp-panel-box lp-sections-save"
            onSubmit={(e) => {
              e.preventDefault();
              save();
            }}
          >
            <label htmlFor={nameId}>Name</label>
            <input
              id={nameId}
              type="text"
              value={name}
              placeholder={s.defaultName}
              maxLength={MAX_SECTION_NAME}
              aria-invalid={problem !== null}
              onChange={(e) => {
                setName(e.target.value);
                setProblem(null);
              }}
              onKeyDown={(e) => {
                // Escape closes the panel, and does not clear the loop about to be saved.
                if (e.key !== 'Escape') return;
                e.preventDefault();
                e.stopPropagation();
                close();
              }}
            />
            <button type="submit" className="lp-tool lp-sections-primary" disabled={!s.canSaveLoop}>
              Save loop as section
            </button>
            <p className="lp-sections-note" role="status" aria-live="polite">
              {problem ?? (s.saving ? 'Saving…' : hint)}
            </p>
          </form>
        </>
      )}
      {s.saveError && (
        <p className="lp-sections-error" role="alert">
          Your sections are not saved yet: {s.saveError}{' '}
          <button type="button" className="lp-sections-link" onClick={s.retrySave}>
            Try again
          </button>
        </p>
      )}
      <p className="lp-sections-keys">
        <kbd>Shift ←</kbd> <kbd>Shift →</kbd> previous / next section
      </p>{' '}
    </div>
  );
}
