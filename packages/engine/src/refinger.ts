import type {
  NoteEvent,
  RefingerConstraint,
  RefingerResponse,
  UploadConfig,
} from '@riffscribe/core';
import { fingerNotes } from './adapters/fingering-model.js';
import { guitarSetup } from './guitar.js';
import { guitarClassOfType } from './tab/learned/features.js';
import { applyRefinger, planRefinger } from './tab/refinger.js';

/**
 * Re-fingers `selection` (indices into `notes`, the lesson's notes as the editor has them) under
 * `constraint` with the learned fingering model (tab/refinger.ts has the rule): the notes whose
 * string changes, each at the same pitch. Throws RefingerError when the constraint cannot be met.
 */
export async function refingerSelection(
  notes: readonly NoteEvent[],
  selection: readonly number[],
  constraint: RefingerConstraint,
  config: Pick<UploadConfig, 'tuning' | 'capo' | 'visible_frets' | 'guitar_type'> &
    Partial<Pick<UploadConfig, 'hand_position'>>,
): Promise<RefingerResponse> {
  const guitar = guitarSetup(config);
  const plan = planRefinger(notes, selection, constraint, guitar);
  const fingered = await fingerNotes(
    plan.notes,
    plan.setup,
    guitarClassOfType(config.guitar_type),
    plan.pinned,
    plan.allowed,
    undefined,
    // The lesson's hand position (Guitar Setup) leans a re-fingering as it leaned the tab.
    config.hand_position ?? 'auto',
  );
  return {
    changed: applyRefinger(notes, plan, fingered, guitar, constraint),
    window: { from: Math.min(...plan.window), to: Math.max(...plan.window) },
  };
}
