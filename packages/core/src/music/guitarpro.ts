import { exporter, Settings } from '@coderline/alphatab';
import type { NoteEvent } from '../events.js';
import { toAlphaTab } from './alphatab.js';
import type { Score } from './score.js';
import type { NotationMeta } from './written.js';

/**
 * The lesson as a Guitar Pro 7 file (.gp, GPIF in a zip), written by alphaTab's Gp7Exporter from
 * the model `toAlphaTab` builds. `score` is `scoreOf(notes, grid)`.
 */
export function toGuitarPro(
  score: Score,
  notes: readonly NoteEvent[],
  meta: NotationMeta,
): Uint8Array {
  const settings = new Settings();
  return new exporter.Gp7Exporter().export(toAlphaTab(score, notes, meta, settings), settings);
}
