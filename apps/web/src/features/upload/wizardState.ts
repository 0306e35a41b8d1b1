import { MESSAGES } from '@riffscribe/core';
import { DEFAULT_CHOICES, type SetupChoices } from './uploadConfig';

/** The three wizard steps, in order (spec section 2). */
export const WIZARD_STEPS = ['upload', 'config', 'playing-type'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

/** A video that passed every check; durationSeconds was read in the browser. */
export interface ChosenVideo {
  file: File;
  durationSeconds: number;
  source: 'file' | 'recording';
}

export interface WizardState {
  step: WizardStep;
  video: ChosenVideo | null;
  choices: SetupChoices;
  /** A validation message of spec section 5, shown until the next choice. */
  error: string | null;
  /** True while a chosen file's duration is being read. */
  checking: boolean;
}

export type WizardAction =
  | { type: 'checking' }
  | { type: 'chose'; video: ChosenVideo }
  | { type: 'invalid'; message: string }
  | { type: 'next' }
  | { type: 'back' }
  | { type: 'choices'; choices: Partial<SetupChoices> }
  | { type: 'reset' };

export const INITIAL_WIZARD: WizardState = {
  step: 'upload',
  video: null,
  choices: DEFAULT_CHOICES,
  error: null,
  checking: false,
};

const offset = (step: WizardStep, by: 1 | -1): WizardStep =>
  WIZARD_STEPS[Math.max(0, Math.min(WIZARD_STEPS.length - 1, WIZARD_STEPS.indexOf(step) + by))] ??
  step;

/**
 * upload -> config after a valid file or accepted recording; config -> playing-type; Back returns
 * one step; leaving the upload step needs a video ('Please select a file to upload.'); reset
 * ('Choose different file') clears everything.
 */
export function wizardReducer(state: WizardState, action: WizardAction): WizardState {
  switch (action.type) {
    case 'checking':
      return { ...state, checking: true, error: null };
    case 'chose':
      return { ...state, video: action.video, step: 'config', error: null, checking: false };
    case 'invalid':
      return { ...state, video: null, error: action.message, checking: false };
    case 'next':
      if (!state.video) return { ...state, step: 'upload', error: MESSAGES.noFile };
      return { ...state, step: offset(state.step, 1), error: null };
    case 'back':
      return { ...state, step: offset(state.step, -1), error: null };
    case 'choices':
      return { ...state, choices: { ...state.choices, ...action.choices } };
    case 'reset':
      return INITIAL_WIZARD;
  }
}
