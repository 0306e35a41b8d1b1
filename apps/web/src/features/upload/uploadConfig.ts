import {
  CAPO_MAX,
  CAPO_MIN,
  TUNING_PRESETS,
  defaultUploadConfig,
  type GuitarType,
  type StemType,
  type TuningPresetId,
  type UploadConfig,
} from '@riffscribe/core';

/** What the wizard's 'Guitar Setup' and 'Playing Style' steps let a person choose. */
export interface SetupChoices {
  guitarType: GuitarType;
  tuningId: TuningPresetId;
  /** Capo fret, 0..12. */
  capo: number;
  stemType: StemType;
}

export const DEFAULT_CHOICES: SetupChoices = {
  guitarType: 'acoustic',
  tuningId: 'standard',
  capo: 0,
  stemType: 'guitar',
};

/** Capo options offered, 0..12. */
export const CAPO_OPTIONS: readonly number[] = Array.from(
  { length: CAPO_MAX - CAPO_MIN + 1 },
  (_, i) => CAPO_MIN + i,
);

/**
 * The config sent with process-video: every field of spec section 3 at the spec's defaults for
 * the chosen guitar type (visible frets and neck size follow the type), with the chosen tuning,
 * capo and playing style, and the duration (seconds) read in the browser.
 */
export function buildUploadConfig(
  choices: SetupChoices,
  durationSeconds: number | null,
): UploadConfig {
  const preset = TUNING_PRESETS.find((t) => t.id === choices.tuningId) ?? TUNING_PRESETS[0];
  const capo = Math.min(CAPO_MAX, Math.max(CAPO_MIN, Math.round(choices.capo)));
  return {
    ...defaultUploadConfig(choices.guitarType),
    stem_type: choices.stemType,
    capo,
    tuning: preset.pitches,
    tuning_name: preset.name,
    metadata: { duration: durationSeconds },
  };
}
