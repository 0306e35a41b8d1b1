import type { Kysely, Migration } from 'kysely';

/**
 * A conversion may put the tab overlay the browser rendered over the lesson's own video
 * (core's exportOverlaySchema, as JSON): null for a whole recorded video converted to MP4.
 */
export const conversionOverlay: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('conversions').addColumn('overlay', 'text').execute();
  },
};
