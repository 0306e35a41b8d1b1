import { z } from 'zod';
import {
  FRET_MAX,
  FRET_MIN,
  MAX_CHORD_NAME,
  MIN_CHORD_SECONDS,
  MIN_NOTE_SECONDS,
  NEW_CHORD_SECONDS,
  PITCH_POINT_MAX,
  PITCH_POINT_MIN,
  STRING_COUNT,
} from './constants.js';
import { normalizeFlag } from './flags.js';

/** A note of the tab (spec section 3). Times in seconds; string 1 = high e. */
export interface NoteEvent {
  time: number;
  end_time: number;
  string: number;
  fret: number;
  event_type: 'note';
  pitch_arr: number[];
  mute: boolean;
  vibrato: '' | 'small' | 'big';
  bend_to_fret: number | null;
  release_to_fret: number | null;
  leading_slide: boolean;
  trailing_slide: boolean;
  leading_hammer_on: boolean;
  trailing_hammer_on: boolean;
  leading_pull_off: boolean;
  trailing_pull_off: boolean;
  /**
   * How sure the engine is of this note, 0..1 (the AI's notes only; see review.ts): from the
   * model's activation and how clearly the tab stage chose the string. Absent on a note the user
   * added, edited or confirmed: a person has checked it.
   */
  confidence?: number;
  /**
   * Techniques the engine heard but is not sure of (issue 39, precision first): kept off the tab
   * and offered in the review queue as "bend?" until a person adds or dismisses them (review.ts).
   * Absent on a note a person has checked.
   */
  suggestions?: TechniqueSuggestion[];
}

/** The techniques the engine may suggest rather than write (see NoteEvent.suggestions). */
export const SUGGESTED_TECHNIQUES = [
  'bend',
  'release',
  'vibrato',
  'slide',
  'hammer_on',
  'pull_off',
] as const;
export type SuggestedTechnique = (typeof SUGGESTED_TECHNIQUES)[number];

/** The note's technique fields a suggestion sets when a person adds it. */
export type SuggestionFields = Partial<
  Pick<
    NoteEvent,
    | 'vibrato'
    | 'bend_to_fret'
    | 'release_to_fret'
    | 'leading_slide'
    | 'trailing_slide'
    | 'leading_hammer_on'
    | 'trailing_hammer_on'
    | 'leading_pull_off'
    | 'trailing_pull_off'
  >
>;

/** A doubtful technique: what it is, how sure the engine is (0..1), and the fields it sets. */
export interface TechniqueSuggestion {
  technique: SuggestedTechnique;
  confidence: number;
  fields: SuggestionFields;
}

/**
 * A note with no technique, in the spec's format: the one place for the defaults of the technique
 * fields (pitch_arr [1, 1] = unbent). `fields` sets the position and any field that differs.
 */
export function plainNote(
  fields: Pick<NoteEvent, 'time' | 'end_time' | 'string' | 'fret'> & Partial<NoteEvent>,
): NoteEvent {
  return {
    event_type: 'note',
    pitch_arr: [1, 1],
    mute: false,
    vibrato: '',
    bend_to_fret: null,
    release_to_fret: null,
    leading_slide: false,
    trailing_slide: false,
    leading_hammer_on: false,
    trailing_hammer_on: false,
    leading_pull_off: false,
    trailing_pull_off: false,
    ...fields,
  };
}

/** A chord name over a time span (spec section 3). */
export interface ChordEvent {
  time: number;
  end_time: number;
  chord: string;
  event_type: 'chord';
}

export const TECHNIQUE_FLAGS = [
  'leading_slide',
  'trailing_slide',
  'leading_hammer_on',
  'trailing_hammer_on',
  'leading_pull_off',
  'trailing_pull_off',
] as const;

const flag = z.unknown().transform(normalizeFlag);
const seconds = z.number().min(0);
const nullableFret = z
  .union([z.number(), z.null(), z.undefined(), z.literal('')])
  .transform((v) => (typeof v === 'number' ? clamp(Math.round(v), FRET_MIN, FRET_MAX) : null));

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** A suggestion as stored and sent back by the editor (see TechniqueSuggestion). */
export const techniqueSuggestionSchema = z
  .object({
    technique: z.enum(SUGGESTED_TECHNIQUES),
    confidence: z.number().min(0).max(1),
    fields: z
      .object({
        vibrato: z.enum(['small', 'big', '']).optional(),
        bend_to_fret: nullableFret.optional(),
        release_to_fret: nullableFret.optional(),
        leading_slide: z.boolean().optional(),
        trailing_slide: z.boolean().optional(),
        leading_hammer_on: z.boolean().optional(),
        trailing_hammer_on: z.boolean().optional(),
        leading_pull_off: z.boolean().optional(),
        trailing_pull_off: z.boolean().optional(),
      })
      .strict(),
  })
  .transform((s): TechniqueSuggestion => {
    const fields: SuggestionFields = {};
    for (const [key, value] of Object.entries(s.fields)) {
      if (value !== undefined) Object.assign(fields, { [key]: value });
    }
    return { technique: s.technique, confidence: s.confidence, fields };
  });

/**
 * Validates one note as the editor sends it and normalises it: flags to booleans, pitch points
 * clamped, bend frets clamped. Rejects what cannot be repaired (a string outside 1..6, a fret that
 * is not a whole number 0..24, an end less than 0.05 s after the start).
 */
export const noteEventInputSchema = z
  .object({
    time: seconds,
    end_time: seconds,
    string: z.number().int().min(1).max(STRING_COUNT),
    fret: z.number().int().min(FRET_MIN).max(FRET_MAX),
    event_type: z.literal('note').optional(),
    pitch_arr: z
      .array(z.number())
      .min(2)
      .max(100_000)
      .optional()
      .transform((arr) => (arr ?? [1, 1]).map((p) => clamp(p, PITCH_POINT_MIN, PITCH_POINT_MAX))),
    mute: flag.optional(),
    vibrato: z
      .enum(['small', 'big', ''])
      .nullish()
      .transform((v) => v ?? ''),
    bend_to_fret: nullableFret.optional(),
    release_to_fret: nullableFret.optional(),
    leading_slide: flag.optional(),
    trailing_slide: flag.optional(),
    leading_hammer_on: flag.optional(),
    trailing_hammer_on: flag.optional(),
    leading_pull_off: flag.optional(),
    trailing_pull_off: flag.optional(),
    confidence: z.number().min(0).max(1).optional(),
    suggestions: z.array(techniqueSuggestionSchema).max(SUGGESTED_TECHNIQUES.length).optional(),
  })
  .refine((n) => n.end_time - n.time >= MIN_NOTE_SECONDS - 1e-9, {
    message: `A note must end at least ${MIN_NOTE_SECONDS} s after it starts.`,
    path: ['end_time'],
  })
  .refine((n) => !conflicting(n, 'leading') && !conflicting(n, 'trailing'), {
    message: 'Slide, hammer-on and pull-off cannot be set together on one side of a note.',
  })
  .transform((n): NoteEvent => ({
    time: n.time,
    end_time: n.end_time,
    string: n.string,
    fret: n.fret,
    event_type: 'note',
    pitch_arr: n.pitch_arr,
    mute: n.mute ?? false,
    vibrato: n.vibrato,
    bend_to_fret: n.bend_to_fret ?? null,
    release_to_fret: n.release_to_fret ?? null,
    leading_slide: n.leading_slide ?? false,
    trailing_slide: n.trailing_slide ?? false,
    leading_hammer_on: n.leading_hammer_on ?? false,
    trailing_hammer_on: n.trailing_hammer_on ?? false,
    leading_pull_off: n.leading_pull_off ?? false,
    trailing_pull_off: n.trailing_pull_off ?? false,
    // Kept so that a saved tab still knows which of the AI's notes nobody has checked yet.
    ...(n.confidence === undefined ? {} : { confidence: n.confidence }),
    ...(n.suggestions === undefined || n.suggestions.length === 0
      ? {}
      : { suggestions: n.suggestions }),
  }));

/** More than one of slide, hammer-on and pull-off on one side of a note (spec section 4). */
function conflicting(
  n: Partial<Record<(typeof TECHNIQUE_FLAGS)[number], boolean | undefined>>,
  side: 'leading' | 'trailing',
): boolean {
  const set = [n[`${side}_slide`], n[`${side}_hammer_on`], n[`${side}_pull_off`]].filter(Boolean);
  return set.length > 1;
}

/**
 * One technique per side of a note (spec section 4), for notes read from anywhere (the AI's
 * may carry several): the first of slide, hammer-on, pull-off wins.
 */
export function exclusiveTechniques<T extends Record<(typeof TECHNIQUE_FLAGS)[number], boolean>>(
  n: T,
): T {
  const side = (prefix: 'leading' | 'trailing') => {
    const slide = n[`${prefix}_slide`];
    const hammer = !slide && n[`${prefix}_hammer_on`];
    const pull = !slide && !hammer && n[`${prefix}_pull_off`];
    return { slide, hammer, pull };
  };
  const l = side('leading');
  const t = side('trailing');
  return {
    ...n,
    leading_slide: l.slide,
    trailing_slide: t.slide,
    leading_hammer_on: l.hammer,
    trailing_hammer_on: t.hammer,
    leading_pull_off: l.pull,
    trailing_pull_off: t.pull,
  };
}

/** Validates one chord: a non-empty name after trim; the end defaults to 0.6 s after the start. */
export const chordEventInputSchema = z
  .object({
    time: seconds,
    end_time: seconds.optional(),
    chord: z
      .string()
      .transform((s) => s.trim())
      .pipe(z.string().min(1, 'A chord name must not be empty.').max(MAX_CHORD_NAME)),
    event_type: z.literal('chord').optional(),
  })
  .transform((c): ChordEvent => ({
    time: c.time,
    end_time: c.end_time ?? c.time + NEW_CHORD_SECONDS,
    chord: c.chord,
    event_type: 'chord',
  }))
  .refine((c) => c.end_time - c.time >= MIN_CHORD_SECONDS - 1e-9, {
    message: `A chord must last at least ${MIN_CHORD_SECONDS} s.`,
    path: ['end_time'],
  });

/**
 * The most notes a lesson may hold, one limit for the engine's output, edit-notes and every
 * export (a 10-minute lesson has about 5,000 notes): past it a transcription fails with a
 * sentence, a save is refused, an export answers 413. Also the most chords a save may carry.
 */
export const MAX_NOTES_PER_LESSON = 50_000;
/** The most events one save may carry: MAX_NOTES_PER_LESSON. */
export const MAX_EVENTS_PER_SAVE = MAX_NOTES_PER_LESSON;
/** The sentence for a lesson past MAX_NOTES_PER_LESSON. */
export const TOO_MANY_NOTES = `A lesson may hold at most ${MAX_NOTES_PER_LESSON.toLocaleString('en-US')} notes.`;

export const editNotesBodySchema = z.object({
  events: z
    .array(noteEventInputSchema)
    .max(MAX_EVENTS_PER_SAVE, TOO_MANY_NOTES)
    .describe(
      `The lesson's notes: at most ${String(MAX_NOTES_PER_LESSON)} (MAX_NOTES_PER_LESSON).`,
    ),
});
export const editChordsBodySchema = z.object({
  events: z.array(chordEventInputSchema).max(MAX_EVENTS_PER_SAVE),
});
