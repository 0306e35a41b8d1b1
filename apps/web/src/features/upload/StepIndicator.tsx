import { Icon } from '../../ui/Icon';
import { WIZARD_STEPS, type WizardStep } from './wizardState';

const LABELS: Record<WizardStep, string> = {
  upload: 'Upload',
  config: 'Guitar Setup',
  'playing-type': 'Playing Style',
};

/** The wizard's three steps, the current one marked for sight and for screen readers. */
export function StepIndicator(props: { step: WizardStep }) {
  const current = WIZARD_STEPS.indexOf(props.step);
  return (
    <ol className="stepper" aria-label="Upload steps">
      {WIZARD_STEPS.map((step, i) => {
        const state = i < current ? 'done' : i === current ? 'current' : 'todo';
        return (
          <li
            key={step}
            className={`stepper-item is-${state}`}
            aria-current={i === current ? 'step' : undefined}
          >
            <span className="stepper-dot" aria-hidden="true">
              {state === 'done' ? <Icon name="check" size={14} /> : i + 1}
            </span>
            <span className="stepper-label">
              <span className="visually-hidden">
                Step {i + 1} of {WIZARD_STEPS.length}:{' '}
              </span>
              {LABELS[step]}
              {state === 'done' ? <span className="visually-hidden"> (done)</span> : null}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
