import {
  GUITAR_TYPES,
  HAND_POSITION_LABELS,
  HAND_POSITIONS,
  noteWithOctave,
  spellTuning,
  TUNING_PRESETS,
  VISIBLE_FRETS,
  type GuitarType,
  type HandPosition,
  type TuningPresetId,
} from '@riffscribe/core';
import { useId } from 'react';
import {
  CAPO_OPTIONS,
  CUSTOM_PITCH_MAX,
  CUSTOM_PITCH_MIN,
  type SetupChoices,
} from './uploadConfig';

/** The pitches a custom tuning's string may take, lowest first. */
const CUSTOM_PITCHES = Array.from(
  { length: CUSTOM_PITCH_MAX - CUSTOM_PITCH_MIN + 1 },
  (_, i) => CUSTOM_PITCH_MIN + i,
);

/** What each hand position asks of the tab, shown under the choice. */
const HAND_POSITION_HINTS: Record<HandPosition, string> = {
  auto: 'Riffscribe picks strings and frets from what it hears.',
  open: 'Favour the first frets and open strings (campfire chords, folk, fingerstyle).',
  up_neck: 'Favour frets higher up the neck (lead lines, solos in the 5th position and above).',
};

const GUITAR_LABELS: Record<GuitarType, { name: string; hint: string }> = {
  acoustic: { name: 'Acoustic', hint: 'Steel strings' },
  classical: { name: 'Classical', hint: 'Nylon strings, wide neck' },
  electric: { name: 'Electric', hint: 'Slim neck' },
};

/**
 * Step 2, 'Guitar Setup': guitar type, tuning (a preset or six open strings of one's own), capo
 * and where on the neck the tab should lean (hand position).
 */
export function GuitarSetupStep(props: {
  choices: SetupChoices;
  onChange: (choices: Partial<SetupChoices>) => void;
}) {
  const { choices, onChange } = props;
  const tuningId = useId();
  const capoId = useId();
  const handId = useId();
  const handHintId = useId();
  return (
    <div className="wizard-panel">
      <h3 className="wizard-title">Guitar Setup</h3>
      <p className="muted">
        Tell us what you play so the tab lands on the right strings and frets.
      </p>

      <fieldset className="choice-group">
        <legend>Guitar type</legend>
        <div className="choice-grid three">
          {GUITAR_TYPES.map((type) => (
            <label key={type} className="choice-card">
              <input
                type="radio"
                name="guitar-type"
                value={type}
                checked={choices.guitarType === type}
                onChange={() => {
                  onChange({ guitarType: type });
                }}
              />
              <span className="choice-name">{GUITAR_LABELS[type].name}</span>
              <span className="choice-hint">
                {GUITAR_LABELS[type].hint} · {VISIBLE_FRETS[type]} frets
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      <div className="field-row">
        <div className="field">
          <label htmlFor={tuningId}>Tuning</label>
          <select
            id={tuningId}
            value={choices.tuningId}
            onChange={(event) => {
              onChange({ tuningId: event.target.value as TuningPresetId | 'custom' });
            }}
          >
            {TUNING_PRESETS.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({spellTuning(t.pitches)})
              </option>
            ))}
            <option value="custom">Custom ({spellTuning(choices.customTuning)})</option>
          </select>
        </div>
        <div className="field narrow">
          <label htmlFor={capoId}>Capo</label>
          <select
            id={capoId}
            value={choices.capo}
            onChange={(event) => {
              onChange({ capo: Number(event.target.value) });
            }}
          >
            {CAPO_OPTIONS.map((fret) => (
              <option key={fret} value={fret}>
                {fret === 0 ? 'No capo' : `Fret ${String(fret)}`}
              </option>
            ))}
          </select>
        </div>
      </div>
      {choices.tuningId === 'custom' && (
        <fieldset className="choice-group custom-tuning">
          <legend>Open strings, low to high</legend>
          <div className="custom-tuning-row">
            {choices.customTuning.map((pitch, k) => (
              <label key={k} className="field">
                <span>String {6 - k}</span>
                <select
                  aria-label={`String ${String(6 - k)} open note`}
                  value={pitch}
                  onChange={(event) => {
                    const next = [...choices.customTuning];
                    next[k] = Number(event.target.value);
                    onChange({ customTuning: next });
                  }}
                >
                  {CUSTOM_PITCHES.map((p) => (
                    <option key={p} value={p}>
                      {noteWithOctave(p)}
                    </option>
                  ))}
                </select>
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <div className="field">
        <label htmlFor={handId}>Hand position</label>
        <select
          id={handId}
          aria-describedby={handHintId}
          value={choices.handPosition}
          onChange={(event) => {
            onChange({ handPosition: event.target.value as HandPosition });
          }}
        >
          {HAND_POSITIONS.map((position) => (
            <option key={position} value={position}>
              {HAND_POSITION_LABELS[position]}
            </option>
          ))}
        </select>
        <p id={handHintId} className="choice-hint field-note">
          {HAND_POSITION_HINTS[choices.handPosition]} You can re-finger any passage later in the
          editor.
        </p>
      </div>
    </div>
  );
}
