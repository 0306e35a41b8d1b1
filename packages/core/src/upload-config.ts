import { z } from 'zod';
import {
  CAPO_MAX,
  CAPO_MIN,
  DEFAULT_FPS,
  DEFAULT_OUTPUT_RESOLUTION,
  DEFAULT_PIXELS_PER_SECOND,
  FRET_MAX,
} from './constants.js';
import {
  DEFAULT_TUNING,
  GUITAR_TYPES,
  NECK_REAL_SIZE,
  STEM_TYPES,
  VISIBLE_FRETS,
  tuningName,
  type GuitarType,
  type StemType,
  type Tuning,
} from './guitar.js';

/** Analysis thresholds (spec section 9 names four; the rest are ours). */
export const DEFAULT_THRESHOLDS = {
  amplitude_threshold: 0.4,
  onset_threshold: 0.7,
  frame_threshold: 0.3,
  minimum_note_length: 5,
} as const;

/** The config the upload wizard sends with process-video (spec section 3). */
/**
 * Where on the neck the tab should lean (Guitar Setup, "Hand position"): the fingering decoder's
 * pull toward the nut or up the neck (issue 39). Only the player knows it; on the project's
 * measurements the right choice per song is worth about 5 points of string accuracy
 * (packages/engine/models/fingering/MODEL_CARD.md, "oracle of three").
 */
export const HAND_POSITIONS = ['auto', 'open', 'up_neck'] as const;
export type HandPosition = (typeof HAND_POSITIONS)[number];

export const HAND_POSITION_LABELS: Record<HandPosition, string> = {
  auto: 'Automatic',
  open: 'Open position',
  up_neck: 'Up the neck',
};

export interface UploadConfig {
  stem_type: StemType;
  capo: number;
  tuning: Tuning;
  tuning_name: string;
  guitar_type: GuitarType;
  visible_frets: number;
  pixels_per_second: number;
  output_resolution: string;
  fps: number;
  clip_duration: number | null;
  neck_real_width: number;
  neck_real_height: number;
  skip_video_generation: boolean;
  amplitude_threshold: number;
  onset_threshold: number;
  frame_threshold: number;
  minimum_note_length: number;
  metadata: { duration: number | null };
  /** Where the fingering leans (not in the spec's list: a Riffscribe addition, default auto). */
  hand_position: HandPosition;
}

/** The config with every field at the spec's default for a guitar type. */
export function defaultUploadConfig(guitarType: GuitarType = 'acoustic'): UploadConfig {
  const neck = NECK_REAL_SIZE[guitarType];
  return {
    stem_type: 'guitar',
    capo: 0,
    tuning: DEFAULT_TUNING,
    tuning_name: 'Standard',
    guitar_type: guitarType,
    visible_frets: VISIBLE_FRETS[guitarType],
    pixels_per_second: DEFAULT_PIXELS_PER_SECOND,
    output_resolution: DEFAULT_OUTPUT_RESOLUTION,
    fps: DEFAULT_FPS,
    clip_duration: null,
    neck_real_width: neck.width,
    neck_real_height: neck.height,
    skip_video_generation: false,
    ...DEFAULT_THRESHOLDS,
    metadata: { duration: null },
    hand_position: 'auto',
  };
}

const midiPitch = z.number().int().min(0).max(127);
const unit = z.number().min(0).max(1);

/**
 * Validates and completes an upload config: missing fields take the spec's defaults (the guitar
 * type decides visible frets and neck size unless they are given).
 */
export const uploadConfigSchema = z
  .object({
    stem_type: z.enum(STEM_TYPES).default('guitar'),
    capo: z.number().int().min(CAPO_MIN).max(CAPO_MAX).default(0),
    tuning: z
      .array(midiPitch)
      .length(6)
      .default([...DEFAULT_TUNING]),
    tuning_name: z.string().trim().max(40).optional(),
    guitar_type: z.enum(GUITAR_TYPES).default('acoustic'),
    visible_frets: z.number().int().min(12).max(FRET_MAX).optional(),
    pixels_per_second: z.number().positive().max(2000).default(DEFAULT_PIXELS_PER_SECOND),
    output_resolution: z
      .string()
      .regex(/^\d{2,5}x\d{2,5}$/)
      .default(DEFAULT_OUTPUT_RESOLUTION),
    fps: z.number().int().min(1).max(120).default(DEFAULT_FPS),
    clip_duration: z.number().positive().nullable().default(null),
    neck_real_width: z.number().positive().max(2000).optional(),
    neck_real_height: z.number().positive().max(500).optional(),
    skip_video_generation: z.boolean().default(false),
    amplitude_threshold: unit.default(DEFAULT_THRESHOLDS.amplitude_threshold),
    onset_threshold: unit.default(DEFAULT_THRESHOLDS.onset_threshold),
    frame_threshold: unit.default(DEFAULT_THRESHOLDS.frame_threshold),
    minimum_note_length: z
      .number()
      .int()
      .min(1)
      .max(100)
      .default(DEFAULT_THRESHOLDS.minimum_note_length),
    metadata: z
      .object({ duration: z.number().nonnegative().nullable().default(null) })
      .loose()
      .default({ duration: null }),
    hand_position: z.enum(HAND_POSITIONS).default('auto'),
  })
  .loose()
  .transform((c): UploadConfig => {
    const neck = NECK_REAL_SIZE[c.guitar_type];
    const tuning = c.tuning as unknown as Tuning;
    return {
      stem_type: c.stem_type,
      capo: c.capo,
      tuning,
      tuning_name: c.tuning_name ?? tuningName(tuning),
      guitar_type: c.guitar_type,
      visible_frets: c.visible_frets ?? VISIBLE_FRETS[c.guitar_type],
      pixels_per_second: c.pixels_per_second,
      output_resolution: c.output_resolution,
      fps: c.fps,
      clip_duration: c.clip_duration,
      neck_real_width: c.neck_real_width ?? neck.width,
      neck_real_height: c.neck_real_height ?? neck.height,
      skip_video_generation: c.skip_video_generation,
      amplitude_threshold: c.amplitude_threshold,
      onset_threshold: c.onset_threshold,
      frame_threshold: c.frame_threshold,
      minimum_note_length: c.minimum_note_length,
      metadata: { duration: c.metadata.duration },
      hand_position: c.hand_position,
    };
  });
