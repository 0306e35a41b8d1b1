import type { UploadConfig } from '@riffscribe/core';
import type { GuitarSetup } from './types.js';

/** The guitar a config describes: tuning, capo, and its visible frets as the highest fret. */
export function guitarSetup(
  config: Pick<UploadConfig, 'tuning' | 'capo' | 'visible_frets'>,
): GuitarSetup {
  return { tuning: config.tuning, capo: config.capo, frets: config.visible_frets };
}
