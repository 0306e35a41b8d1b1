import type { StemType } from '@riffscribe/core';
import { Icon, type IconName } from '../../ui/Icon';

const STYLES: readonly { value: StemType; name: string; hint: string; icon: IconName }[] = [
  {
    value: 'guitar',
    name: 'Guitar',
    hint: 'Chords, strumming and fingerstyle: everything the guitar plays.',
    icon: 'grid',
  },
  {
    value: 'solo',
    name: 'Solo',
    hint: 'Single-note lines and leads, with bends and vibrato in focus.',
    icon: 'music',
  },
];

/** Step 3, 'Playing Style': a whole guitar part or a solo. */
export function PlayingStyleStep(props: {
  value: StemType;
  disabled: boolean;
  onChange: (value: StemType) => void;
}) {
  return (
    <div className="wizard-panel">
      <h3 className="wizard-title">Playing Style</h3>
      <p className="muted">What does your video show?</p>
      <fieldset className="choice-group" disabled={props.disabled}>
        <legend className="visually-hidden">Playing style</legend>
        <div className="choice-grid two">
          {STYLES.map((style) => (
            <label key={style.value} className="choice-card tall">
              <input
                type="radio"
                name="stem-type"
                value={style.value}
                checked={props.value === style.value}
                onChange={() => {
                  props.onChange(style.value);
                }}
              />
              <span className="choice-icon" aria-hidden="true">
                <Icon name={style.icon} size={22} />
              </span>
              <span className="choice-name">{style.name}</span>
              <span className="choice-hint">{style.hint}</span>
            </label>
          ))}
        </div>
      </fieldset>
    </div>
  );
}
