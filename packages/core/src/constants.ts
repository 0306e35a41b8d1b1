/**
 * Business constants of the product specification (section 9), word for word where the spec
 * gives a value. Sizes in bytes, durations in seconds unless the name says otherwise.
 */

/** Ordinary users may upload at most this many bytes (100MB). */
export const MAX_UPLOAD_BYTES = 104_857_600;
/** Ordinary users' maximum video length, as shown to them. */
export const MAX_VIDEO_SECONDS = 30;
/** A video is rejected only when it is longer than this (a second of grace over 30). */
export const REJECT_VIDEO_OVER_SECONDS = 31;
/** Recording auto-stops at this many seconds for ordinary users. */
export const RECORDING_LIMIT_SECONDS = 30;
/** The recording countdown warning starts at this many seconds. */
export const RECORDING_WARNING_FROM_SECONDS = 20;

export const STATUS_POLL_INTERVAL_MS = 10_000;
export const SUCCESS_DELAY_MS = 2_000;
export const MOBILE_WIDTH_THRESHOLD_PX = 1024;

export const DEFAULT_FPS = 30;
export const DEFAULT_PIXELS_PER_SECOND = 240;
export const DEFAULT_OUTPUT_RESOLUTION = '1536x2728';
export const CAPO_MIN = 0;
export const CAPO_MAX = 12;

export const PLAYBACK_SPEEDS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2] as const;
export const TIMELINE_ZOOM_WHEEL = { min: 10, max: 600 } as const;
export const TIMELINE_ZOOM_SLIDER = { min: 50, max: 200 } as const;
export const TIMELINE_ZOOM_DEFAULT = 100;
export const RULER_TICK_SECONDS = 0.5;
export const VIDEO_ZOOM = { min: 1, max: 5, step: 0.1 } as const;
/** The guitar stem plays at this multiple of the playback speed ratio. */
export const GUITAR_STEM_SPEED_RATIO = 1.4286;
export const DEFAULT_LOOP_SECONDS = 2;
export const UNDO_HISTORY = 100;
export const AUTO_SAVE_MS = 30_000;
export const ARROW_SEEK_SECONDS = 0.5;
export const NOTE_NUDGE_SECONDS = 0.05;
export const NOTE_NUDGE_SHIFT_FACTOR = 4;
export const COPIED_LINK_NOTICE_MS = 2_000;
export const SAVED_NOTICE_MS = 3_000;
export const CONTACT_COPY_NOTICE_MS = 1_200;
export const RATING_MIN = 1;
export const RATING_MAX = 5;
export const FRETBOARD_FRETS = 22;
export const STRING_COUNT = 6;
export const FRET_MIN = 0;
export const FRET_MAX = 24;
export const TUNER_GAUGE_CENTS = 50;

/** Editing rules of spec section 5. */
export const MIN_NOTE_SECONDS = 0.05;
export const NEW_NOTE_SECONDS = 0.1;
export const NOTE_WITHOUT_END_SECONDS = 0.3;
export const NEW_CHORD_SECONDS = 0.6;
export const MIN_CHORD_SECONDS = 0.05;
/** Longest chord name the server stores (characters, after trim). */
export const MAX_CHORD_NAME = 64;

/** Pitch curves: 1 = unbent, +3 per fret of bend, clamped. */
export const PITCH_POINT_MIN = -8;
export const PITCH_POINT_MAX = 10;
export const PITCH_STEPS_PER_FRET = 3;
export const ANALYSIS_SAMPLE_RATE = 22_050;
export const ANALYSIS_HOP = 256;
export const GENERATED_CURVE_POINTS = 9;
export const VIBRATO_CENTS = { small: 15, big: 35 } as const;
export const VIBRATO_RATE_HZ = 6.5;

export const SYNTH_PRESETS = ['nylon', 'steel', 'electric'] as const;
export const SYNTH_HIGH_PASS_HZ = { min: 40, max: 250, default: 90 } as const;
export const SYNTH_CAB_LOW_PASS_HZ = { min: 2500, max: 12_000, default: 5500 } as const;
export const SYNTH_COMPRESSOR_THRESHOLD_DB = { min: -36, max: 0, default: -18 } as const;
export const SYNTH_COMPRESSOR_RATIO = { min: 1, max: 12, default: 3 } as const;

export const EXPORT_OVERLAY_DEFAULTS = {
  overlayHeight: 1152,
  overlayY: 2672,
  logoX: 32,
  logoY: 32,
} as const;
export const EXPORT_CANVAS = { width: 2160, height: 3840 } as const;
export const EXPORT_VIDEO_BITRATE = 20_000_000;
export const EXPORT_FPS = 30;
export const EXPORT_PREVIEW = { width: 270, height: 480 } as const;
export const CONVERSION_POLL_MS = 2_000;
export const CONVERSION_POLL_MAX_TRIES = 150;
export const CONVERSION_FALLBACK_PAUSE_MS = 10_000;

export const PRO_MONTHLY_CREATOR_CREDITS = 10;
/** Sign-up grant defaults; the server may override them by configuration. */
export const DEFAULT_SIGNUP_CREDITS = { creator: 3, view: 10 } as const;

/** File names a client may ask for through download-result (spec section 7). */
export const DOWNLOADABLE_FILE_NAMES = [
  'results',
  'video.mp4',
  'webm_converted.mp4',
  'video_with_tabs.webm',
  'solo.wav',
  'guitar.wav',
  'electric.wav',
  'acustic.wav',
  'acoustic.wav',
] as const;
export type DownloadableFileName = (typeof DOWNLOADABLE_FILE_NAMES)[number];

/** Stem files that enable the 'guitar' audio source in the player. */
export const STEM_FILE_NAMES = [
  'solo.wav',
  'guitar.wav',
  'electric.wav',
  'acustic.wav',
  'acoustic.wav',
] as const;
