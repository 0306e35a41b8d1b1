import { z } from 'zod';

/**
 * Sections (issue 40 part 3): named loops a user keeps with a lesson, their own only. The API is
 * `GET /api/job-sections?jobId` and `PUT /api/job-sections?jobId` with the whole list, which
 * replaces the caller's list for that lesson. Times are lesson seconds.
 */

/** Most sections one user keeps for one lesson. */
export const MAX_SECTIONS = 100;
/** Longest section name, in characters after trimming. */
export const MAX_SECTION_NAME = 60;
/** Latest a section may end, seconds (a lesson is far shorter; this bounds what is stored). */
export const MAX_SECTION_SECONDS = 24 * 60 * 60;

/** What a section id may look like: the web app makes UUIDs; the server makes them when absent. */
const SECTION_ID = /^[A-Za-z0-9_-]{1,64}$/;
/**
 * Any control character, tab and line breaks included: a name is one line. (The server refuses
 * the other control characters in every request before any schema: control-characters.ts.)
 */
// eslint-disable-next-line no-control-regex -- the characters it refuses
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;

const SECONDS = 'A section’s start and end must be numbers of seconds.';

/** A section's name: the server's rule, and the player's check before it saves. */
export const sectionNameSchema = z
  .string({ error: 'Each section needs a name.' })
  .trim()
  .min(1, 'Each section needs a name.')
  // Characters as people count them (an emoji is one), not UTF-16 units.
  .refine((name) => Array.from(name).length <= MAX_SECTION_NAME, {
    message: `A section name can be at most ${MAX_SECTION_NAME} characters.`,
  })
  .refine((name) => !CONTROL.test(name), {
    message: 'A section name may not contain control characters, tabs or line breaks.',
  });

export const sectionInputSchema = z
  .object({
    id: z
      .string({ error: 'A section id must be text.' })
      .regex(SECTION_ID, 'A section id may hold only letters, digits, - and _ (at most 64).')
      .optional(),
    name: sectionNameSchema,
    start: z
      .number({ error: SECONDS })
      .min(0, 'A section cannot start before 0 seconds.')
      .max(MAX_SECTION_SECONDS, 'A section must end within 24 hours.'),
    end: z
      .number({ error: SECONDS })
      .min(0, 'A section must end after it starts.')
      .max(MAX_SECTION_SECONDS, 'A section must end within 24 hours.'),
  })
  .refine((s) => s.start < s.end, {
    message: 'A section must end after it starts.',
    path: ['end'],
  });

/** PUT /api/job-sections?jobId's body: the caller's whole list for the lesson. */
export const putSectionsBodySchema = z
  .object({
    sections: z
      .array(sectionInputSchema, { error: 'The body must hold a list of sections.' })
      .max(MAX_SECTIONS, `A lesson can have at most ${MAX_SECTIONS} sections.`),
  })
  .refine(
    (body) => {
      const ids = body.sections.flatMap((s) => (s.id === undefined ? [] : [s.id]));
      return new Set(ids).size === ids.length;
    },
    { message: 'Two sections have the same id.', path: ['sections'] },
  );

/** A section as a client sends it (no id: the server makes one). */
export type SectionInput = z.input<typeof sectionInputSchema>;
/** The PUT body once checked: names trimmed. */
export type PutSectionsBody = z.output<typeof putSectionsBodySchema>;

/** One saved section: a loop [start, end) with a name. */
export interface Section {
  id: string;
  name: string;
  start: number;
  end: number;
}

/** GET and PUT /api/job-sections: the caller's sections of the lesson, by start time. */
export interface SectionsResponse {
  sections: Section[];
}
