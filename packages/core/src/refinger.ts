import { z } from 'zod';
import { FRET_MAX, FRET_MIN, STRING_COUNT } from './constants.js';
import { MAX_EVENTS_PER_SAVE, noteEventInputSchema, type NoteEvent } from './events.js';

/**
 * Re-fingering a selection (issue 19, POST /api/refinger): the notes keep their pitches, times
 * and techniques; the learned fingering model chooses their strings again under one constraint.
 */

/** Most notes one re-fingering may select (a few minutes of dense playing). */
export const REFINGER_MAX_SELECTION = 2000;

/** A hand position spans this many frets from its first: fret p..p+3 (open strings too). */
export const HAND_POSITION_FRETS = 4;

const stringNumber = z.number().int().min(1).max(STRING_COUNT);

/**
 * What the selection must do: be played in the hand position starting at `position` (frets
 * position..position+3, open strings allowed), only on `strings`, or keep note `pin.index` (an
 * index of the selection) on `pin.string`.
 */
export const refingerConstraintSchema = z.union([
  z.object({ position: z.number().int().min(FRET_MIN).max(FRET_MAX) }).strict(),
  z
    .object({
      strings: z
        .array(stringNumber)
        .min(1)
        .max(STRING_COUNT)
        .refine((s) => new Set(s).size === s.length, 'Each string may be listed once.'),
    })
    .strict(),
  z.object({ pin: z.object({ index: z.number().int().min(0), string: stringNumber }) }).strict(),
]);
export type RefingerConstraint = z.infer<typeof refingerConstraintSchema>;

/**
 * Body of POST /api/refinger?jobId=. `events`: the notes as the editor has them now (sorted by
 * time, possibly unsaved); left out, the lesson's saved edited version (or the original when
 * none) is used. `selection`: indices into those notes.
 */
export const refingerBodySchema = z.object({
  events: z.array(noteEventInputSchema).max(MAX_EVENTS_PER_SAVE).optional(),
  selection: z
    .array(z.number().int().min(0))
    .min(1)
    .max(REFINGER_MAX_SELECTION)
    .refine((s) => new Set(s).size === s.length, 'Each note may be selected once.'),
  constraint: refingerConstraintSchema,
});
export type RefingerRequest = z.input<typeof refingerBodySchema>;

/** One note the re-fingering moved: its index in the request's notes and the note as it is now. */
export interface RefingeredNote {
  index: number;
  note: NoteEvent;
}

/**
 * Answer of POST /api/refinger: only the notes whose string changed (the selection's and any
 * neighbour's), each at the same pitch; nothing is saved. `window` is the range of indices the
 * model looked at (the selection and its context).
 */
export interface RefingerResponse {
  changed: RefingeredNote[];
  window: { from: number; to: number };
}
