import {
  FRET_MAX,
  HAND_POSITION_FRETS,
  type RefingerConstraint,
  type Tuning,
} from '@riffscribe/core';
import { useEffect, useState } from 'react';
import { playerApi } from '../api/playerApi';
import { staffStringNames } from '../fretboard/labels';
import type { Editor } from './useEditor';

type Mode = 'position' | 'strings' | 'pin';

/**
 * Re-finger the selected notes (issue 19): a hand position, a set of strings, or (one note
 * selected) the string of that note. The server's fingering model re-solves the selection around
 * that choice keeping every pitch (POST /api/refinger); the answer is one undoable edit, saved
 * like any other. A constraint no fingering meets is refused with the reason and changes nothing.
 */
export function RefingerPanel(props: {
  editor: Editor;
  jobId: string;
  tuning: Tuning;
  capo: number;
}) {
  const { editor, jobId } = props;
  // The staff's names of the lesson's strings (its tuning and capo), high string first.
  const stringNames = staffStringNames(props.tuning, props.capo);
  const notes = editor.selectedNotes;
  const one = notes.length === 1 ? notes[0] : undefined;
  const fretted = notes.map((n) => n.fret).filter((f) => f > 0);
  const [mode, setMode] = useState<Mode>('position');
  const [position, setPosition] = useState(() => (fretted.length ? Math.min(...fretted) : 0));
  const [strings, setStrings] = useState<number[]>(() => [...new Set(notes.map((n) => n.string))]);
  const [pin, setPin] = useState(one?.string ?? 1);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    editor.setRefingering(false);
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !busy) editor.setRefingering(false);
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
    };
  }, [busy, editor]);

  const constraint = (): RefingerConstraint | null => {
    if (mode === 'position') return { position };
    if (mode === 'strings') return strings.length > 0 ? { strings } : null;
    const index = editor.selection.notes[0];
    return one && index !== undefined ? { pin: { index, string: pin } } : null;
  };

  const apply = async () => {
    const c = constraint();
    if (!c) {
      setError('Choose at least one string.');
      return;
    }
    const base = editor.doc;
    setBusy(true);
    setError(null);
    try {
      const res = await playerApi.refinger(jobId, {
        events: [...base.notes],
        selection: [...editor.selection.notes],
        constraint: c,
      });
      if (res.changed.length === 0) {
        setError('The selection is already played that way: nothing changed.');
      } else if (!editor.applyRefinger(base, res.changed)) {
        setError('The notes changed while re-fingering: nothing was applied. Try again.');
      } else {
        close();
      }
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Re-fingering failed.');
    } finally {
      setBusy(false);
    }
  };

  const radio = (value: Mode, label: string, disabled = false) => (
    <label className="lp-refinger-mode">
      <input
        type="radio"
        name="refinger-mode"
        value={value}
        checked={mode === value}
        disabled={disabled || busy}
        onChange={() => {
          setMode(value);
          setError(null);
        }}
      />
      {label}
    </label>
  );

  return (
    <div
      className="lp-panel lp-panel-left lp-refinger"
      role="dialog"
      aria-label="Re-finger the selection"
      data-testid="refinger-panel"
      aria-busy={busy}
    >
      <p className="lp-refinger-title">
        Re-finger {notes.length} note{notes.length === 1 ? '' : 's'}, same pitches
      </p>
      <fieldset className="lp-refinger-modes" disabled={busy}>
        <legend className="visually-hidden">Constraint</legend>
        {radio('position', 'Hand position')}
        {radio('strings', 'Strings')}
        {radio('pin', 'Pin string', !one)}
      </fieldset>
      {mode === 'position' && (
        <label className="lp-edit-field">
          Fret
          <input
            type="number"
            aria-label="Hand position (fret)"
            min={0}
            max={FRET_MAX}
            value={position}
            disabled={busy}
            onChange={(e) => {
              const v = Math.round(Number(e.target.value));
              if (Number.isFinite(v)) setPosition(Math.min(FRET_MAX, Math.max(0, v)));
            }}
          />
          <span className="lp-refinger-hint">
            frets {position}–{position + HAND_POSITION_FRETS - 1} or open
          </span>
        </label>
      )}
      {mode === 'strings' && (
        <div className="lp-refinger-strings" role="group" aria-label="Strings">
          {stringNames.map((name, k) => {
            const s = k + 1;
            return (
              <label key={s} className="lp-edit-field">
                <input
                  type="checkbox"
                  aria-label={`String ${String(s)} (${name})`}
                  checked={strings.includes(s)}
                  disabled={busy}
                  onChange={(e) => {
                    setStrings((all) =>
                      e.target.checked ? [...all, s].sort() : all.filter((x) => x !== s),
                    );
                  }}
                />
                {s}
              </label>
            );
          })}
        </div>
      )}
      {mode === 'pin' && one && (
        <label className="lp-edit-field">
          String
          <select
            aria-label="Pin to string"
            value={pin}
            disabled={busy}
            onChange={(e) => {
              setPin(Number(e.target.value));
            }}
          >
            {stringNames.map((name, k) => (
              <option key={name + String(k)} value={k + 1}>
                {k + 1} ({name})
              </option>
            ))}
          </select>
        </label>
      )}
      {error && (
        <p className="lp-refinger-error" role="alert">
          {error}
        </p>
      )}
      <div className="lp-refinger-actions">
        <button type="button" className="button" disabled={busy} onClick={() => void apply()}>
          {busy ? 'Re-fingering…' : 'Apply'}
        </button>
        <button type="button" className="lp-tool" disabled={busy} onClick={close}>
          Cancel
        </button>
      </div>
    </div>
  );
}
