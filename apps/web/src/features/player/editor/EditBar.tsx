import {
  BEND_PRESETS,
  MAX_CHORD_NAME,
  applyBend,
  clearBend,
  setTechnique,
  setVibrato,
  techniqueOn,
  toggleMute,
  type NoteEvent,
  type Technique,
  type TechniqueSide,
  type Tuning,
} from '@riffscribe/core';
import { useState } from 'react';
import { ReviewBar } from '../review/ReviewBar';
import { BarsPanel } from './BarsPanel';
import { PitchCurveEditor } from './PitchCurveEditor';
import { RefingerPanel } from './RefingerPanel';
import type { Editor } from './useEditor';

const TECHNIQUE_NAMES: Record<Technique, string> = {
  slide: 'Slide',
  hammer_on: 'Hammer-on',
  pull_off: 'Pull-off',
};

/** The bend preset a note has, by id ('' for none or a curve of its own). */
function presetOf(n: NoteEvent): string {
  const p = BEND_PRESETS.find(
    (b) =>
      n.bend_to_fret === n.fret + b.frets &&
      (n.release_to_fret !== null) === b.release &&
      n.pitch_arr.length === 9,
  );
  return p?.id ?? (n.bend_to_fret !== null ? 'custom' : '');
}

/**
 * Edit mode's bar under the toolbar: what is selected and its techniques (each side's slide,
 * hammer-on or pull-off is one choice, so they stay exclusive), re-fingering, mute, vibrato, bend
 * presets, the pitch-curve editor of a single note, the chord name being typed, and the keyboard
 * help.
 */
export function EditBar(props: {
  editor: Editor;
  onHelp: () => void;
  tuning: Tuning;
  capo: number;
  jobId: string;
}) {
  const { editor, onHelp } = props;
  const [barsOpen, setBarsOpen] = useState(false);
  const notes = editor.selectedNotes;
  const one = notes.length === 1 ? notes[0] : undefined;
  const chord = editor.selectedChord;
  const summary =
    notes.length > 0
      ? `${String(notes.length)} note${notes.length === 1 ? '' : 's'} selected`
      : chord
        ? `Chord ${chord.chord}`
        : 'Click a note to select it; double-click a string to add one';
  const side = (s: TechniqueSide) => (
    <label className="lp-edit-field">
      {s === 'leading' ? 'Into' : 'Out of'}
      <select
        aria-label={s === 'leading' ? 'Technique into the note' : 'Technique out of the note'}
        value={one ? (techniqueOn(one, s) ?? '') : ''}
        onChange={(e) => {
          const t = (e.target.value || null) as Technique | null;
          editor.editSelected('Technique', (n) =>
            techniqueOn(n, s) === t ? n : setTechnique(n, s, t ?? techniqueOn(n, s)),
          );
        }}
      >
        <option value="">None</option>
        {(Object.keys(TECHNIQUE_NAMES) as Technique[]).map((t) => (
          <option key={t} value={t}>
            {TECHNIQUE_NAMES[t]}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div className="lp-editbar" role="region" aria-label="Editing" data-testid="edit-bar">
      <div className="lp-editbar-row">
        <span className="lp-edit-mode">Editing</span>
        <span
          className="lp-edit-summary"
          data-testid="edit-summary"
          data-selected={
            one ? `${one.time.toFixed(3)}:${String(one.string)}:${String(one.fret)}` : undefined
          }
        >
          {summary}
        </span>
        {editor.refusal && (
          <span className="lp-edit-refusal" role="status" data-testid="edit-refusal">
            {editor.refusal}
          </span>
        )}
        {notes.length > 0 && (
          <>
            <div className="lp-popover">
              <button
                type="button"
                className="lp-tool"
                aria-haspopup="dialog"
                aria-expanded={editor.refingering}
                title="Re-finger the selection (F)"
                onClick={() => {
                  editor.setRefingering(!editor.refingering);
                }}
              >
                Re-finger…
              </button>
              {editor.refingering && (
                <RefingerPanel
                  editor={editor}
                  jobId={props.jobId}
                  tuning={props.tuning}
                  capo={props.capo}
                />
              )}
            </div>
            {side('leading')}
            {side('trailing')}
            <button
              type="button"
              className="lp-tool"
              aria-pressed={notes.every((n) => n.mute)}
              onClick={() => {
                editor.editSelected('Mute', toggleMute);
              }}
            >
              Mute
            </button>
            <label className="lp-edit-field">
              Vibrato
              <select
                aria-label="Vibrato"
                value={one?.vibrato ?? ''}
                onChange={(e) => {
                  const v = e.target.value as '' | 'small' | 'big';
                  editor.editSelected('Vibrato', (n) =>
                    v === '' ? { ...n, vibrato: '' } : setVibrato({ ...n, vibrato: '' }, v),
                  );
                }}
              >
                <option value="">None</option>
                <option value="small">Small</option>
                <option value="big">Big</option>
              </select>
            </label>
            <label className="lp-edit-field">
              Bend
              <select
                aria-label="Bend"
                value={one ? presetOf(one) : ''}
                onChange={(e) => {
                  const p = BEND_PRESETS.find((b) => b.id === e.target.value);
                  editor.editSelected('Bend', (n) => (p ? applyBend(n, p) : clearBend(n)));
                }}
              >
                <option value="">None</option>
                {one && presetOf(one) === 'custom' && <option value="custom">Custom</option>}
                {BEND_PRESETS.map((b) => (
                  <option key={b.id} value={b.id}>
                    {b.label}
                  </option>
                ))}
              </select>
            </label>
          </>
        )}
        {one && <PitchCurveEditor note={one} onChange={editor.setCurve} />}
        {editor.naming && <ChordNameInput editor={editor} />}
        {editor.doc.beats && (
          <div className="lp-popover lp-bars-button">
            <button
              type="button"
              className="lp-tool"
              aria-haspopup="dialog"
              aria-expanded={barsOpen}
              onClick={() => {
                setBarsOpen(!barsOpen);
              }}
            >
              Bars…
            </button>
            {barsOpen && (
              <BarsPanel
                editor={editor}
                onClose={() => {
                  setBarsOpen(false);
                }}
              />
            )}
          </div>
        )}
        <button
          type="button"
          className="lp-tool lp-help-button"
          onClick={onHelp}
          aria-label="Keyboard shortcuts"
        >
          ?
        </button>
      </div>
      {/* A row of its own that keeps one height whatever is selected, so the tab below does not
          move under the pointer when a click selects a note and its other places appear. */}
      <ReviewBar editor={editor} tuning={props.tuning} capo={props.capo} />
    </div>
  );
}

/** The chord name being typed: saved on Enter or blur, dropped on Escape or when empty. */
function ChordNameInput(props: { editor: Editor }) {
  const { editor } = props;
  const naming = editor.naming;
  const current = naming?.mode === 'rename' ? (editor.selectedChord?.chord ?? '') : '';
  const [value, setValue] = useState(current);
  return (
    <label className="lp-edit-field">
      {naming?.mode === 'add' ? 'New chord' : 'Chord name'}
      <input
        autoFocus
        aria-label="Chord name"
        value={value}
        maxLength={MAX_CHORD_NAME}
        size={8}
        onChange={(e) => {
          setValue(e.target.value);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') editor.nameChord(value);
          if (e.key === 'Escape') editor.setNaming(null);
        }}
        onBlur={() => {
          if (editor.naming) editor.nameChord(value);
        }}
      />
    </label>
  );
}
