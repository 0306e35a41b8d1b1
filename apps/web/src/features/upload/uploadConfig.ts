import {
  CAPO_MAX,
  CAPO_MIN,
  DEFAULT_TUNING,
  TUNING_PRESETS,
  defaultUploadConfig,
  tuningName,
  type GuitarType,
  type HandPosition,
  type StemType,
  type Tuning,
  type TuningPresetId,
  type UploadConfig,
} from '@riffscribe/core';

/** What the wizard's 'Guitar Setup' and 'Playing Style' steps let a person choose. */
export interface SetupChoices {
  guitarType: GuitarType;
  /** A preset, or 'custom' for the six open-string pitches in `customTuning`. */
  tuningId: TuningPresetId | 'custom';
  /** Six open-string MIDI pitches, low string first (used when tuningId is 'custom'). */
  customTuning: readonly number[];
  /** Capo fret, 0..12. */
  capo: number;
  /** Where on the neck the tab should lean (the fingering's choice when 'auto'). */
  handPosition: HandPosition;
  stemType: StemType;
}

export const DEFAULT_CHOICES: SetupChoices = {
  guitarType: 'acoustic',
  tuningId: 'standard',
  customTuning: DEFAULT_TUNING,
  capo: 0,
  handPosition: 'auto',
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
  const custom = choices.tuningId === 'custom' ? customPitches(choices.customTuning) : null;
  return {
    ...defaultUploadConfig(choices.guitarType),
    stem_type: choices.stemType,
    capo,
    tuning: custom ?? preset.pitches,
    // A custom tuning that is a preset after all is named as the preset.
    tuning_name: custom ? tuningName(custom) : preset.name,
    metadata: { duration: durationSeconds },
    hand_position: choices.handPosition,
  };
}

/** Lowest and highest open-string pitch offered for a custom tuning (B0 .. E5). */
export const CUSTOM_PITCH_MIN = 23;
export const CUSTOM_PITCH_MAX = 76;

/** Six whole MIDI pitches in the offered range (the wizard's selects can give nothing else). */
function customPitches(pitches: readonly number[]): Tuning {
  const at = (k: number) => {
    const p = pitches[k] ?? DEFAULT_TUNING[k] ?? 40;
    return Math.min(CUSTOM_PITCH_MAX, Math.max(CUSTOM_PITCH_MIN, Math.round(p)));
  };
  return [at(0), at(1), at(2), at(3), at(4), at(5)];
}
