import {
  DEFAULT_LOOP_SECONDS,
  PLAYBACK_SPEEDS,
  SYNTH_CAB_LOW_PASS_HZ,
  SYNTH_COMPRESSOR_RATIO,
  SYNTH_COMPRESSOR_THRESHOLD_DB,
  SYNTH_HIGH_PASS_HZ,
  SYNTH_PRESETS,
  TIMELINE_ZOOM_DEFAULT,
  TIMELINE_ZOOM_SLIDER,
  TIMELINE_ZOOM_WHEEL,
  VIDEO_ZOOM,
  clamp,
} from '@riffscribe/core';

export type AudioSource = 'original' | 'synth' | 'guitar';
export type TabSource = 'edited' | 'original';
export type ChordDisplay = 'original' | 'capoed';
export type FullscreenMode = 'none' | 'tabs' | 'fretboard' | 'video' | 'all';
export type SynthPreset = (typeof SYNTH_PRESETS)[number];

/** The synth's controls (spec section 9); mixes are 0..1, frequencies Hz, threshold dB. */
export interface SynthSettings {
  preset: SynthPreset;
  reverb: number;
  drive: number;
  chorus: number;
  highPassHz: number;
  cabLowPassHz: number;
  compressorThresholdDb: number;
  compressorRatio: number;
}

/** A loop over [start, end) in seconds. */
export interface Loop {
  start: number;
  end: number;
}

/** Everything the toolbar controls. Playback time is not here: the video element owns it. */
export interface PlayerSettings {
  speed: number;
  /** Timeline zoom in pixels per second, 10..600. */
  zoom: number;
  loop: Loop | null;
  audioSource: AudioSource;
  /** 0..1. */
  volume: number;
  tabSource: TabSource;
  chordDisplay: ChordDisplay;
  fullscreen: FullscreenMode;
  /** 1.0..5.0. */
  videoZoom: number;
  synth: SynthSettings;
}

/** Mix levels each preset starts from; the player can change them afterwards. */
export const SYNTH_PRESET_MIX: Record<
  SynthPreset,
  Pick<SynthSettings, 'reverb' | 'drive' | 'chorus'>
> = {
  nylon: { reverb: 0.3, drive: 0, chorus: 0.1 },
  steel: { reverb: 0.22, drive: 0, chorus: 0.2 },
  electric: { reverb: 0.18, drive: 0.35, chorus: 0.15 },
};

export const DEFAULT_SYNTH: SynthSettings = {
  preset: 'steel',
  ...SYNTH_PRESET_MIX.steel,
  highPassHz: SYNTH_HIGH_PASS_HZ.default,
  cabLowPassHz: SYNTH_CAB_LOW_PASS_HZ.default,
  compressorThresholdDb: SYNTH_COMPRESSOR_THRESHOLD_DB.default,
  compressorRatio: SYNTH_COMPRESSOR_RATIO.default,
};

export const DEFAULT_SETTINGS: PlayerSettings = {
  speed: 1,
  zoom: TIMELINE_ZOOM_DEFAULT,
  loop: null,
  audioSource: 'original',
  volume: 0.8,
  tabSource: 'edited',
  chordDisplay: 'original',
  fullscreen: 'none',
  videoZoom: 1,
  synth: DEFAULT_SYNTH,
};

export type SettingsAction =
  | { type: 'setSpeed'; speed: number }
  /** The speed trainer's speeds fall between the presets (0.55x): kept as they are, in range. */
  | { type: 'setTrainerSpeed'; speed: number }
  | { type: 'stepSpeed'; by: 1 | -1 }
  | { type: 'zoomWheel'; zoom: number }
  | { type: 'zoomSlider'; zoom: number }
  | { type: 'toggleLoop'; now: number; duration: number }
  | { type: 'clearLoop' }
  | { type: 'setLoop'; loop: Loop }
  | { type: 'setAudioSource'; source: AudioSource; stemAvailable: boolean }
  | { type: 'setVolume'; volume: number }
  | { type: 'setTabSource'; source: TabSource }
  | { type: 'setChordDisplay'; display: ChordDisplay }
  | { type: 'setFullscreen'; mode: FullscreenMode }
  | { type: 'setVideoZoom'; zoom: number }
  | { type: 'setSynth'; patch: Partial<SynthSettings> };

/** The allowed speed nearest to `speed` (spec: 0.25..2 in steps of 0.25). */
export function nearestSpeed(speed: number): number {
  let best: number = PLAYBACK_SPEEDS[0];
  for (const s of PLAYBACK_SPEEDS) if (Math.abs(s - speed) < Math.abs(best - speed)) best = s;
  return best;
}

/** The next allowed speed up or down, staying at the ends. */
export function stepSpeed(speed: number, by: 1 | -1): number {
  const i = PLAYBACK_SPEEDS.indexOf(nearestSpeed(speed) as (typeof PLAYBACK_SPEEDS)[number]);
  return PLAYBACK_SPEEDS[clamp(i + by, 0, PLAYBACK_SPEEDS.length - 1)] ?? speed;
}

/**
 * A loop from `now` lasting 2 s (spec section 4), shortened at the end of the video; null when
 * less than a frame would be left.
 */
export function loopFrom(now: number, duration: number): Loop | null {
  const end = Math.min(now + DEFAULT_LOOP_SECONDS, duration > 0 ? duration : Infinity);
  return end - now >= 0.05 ? { start: now, end } : null;
}

/** Where playback goes next: back to the loop start once it reaches the loop end. */
export function loopTarget(loop: Loop | null, time: number): number | null {
  return loop && time >= loop.end ? loop.start : null;
}

const clampSynth = (s: SynthSettings): SynthSettings => ({
  preset: s.preset,
  reverb: clamp(s.reverb, 0, 1),
  drive: clamp(s.drive, 0, 1),
  chorus: clamp(s.chorus, 0, 1),
  highPassHz: clamp(s.highPassHz, SYNTH_HIGH_PASS_HZ.min, SYNTH_HIGH_PASS_HZ.max),
  cabLowPassHz: clamp(s.cabLowPassHz, SYNTH_CAB_LOW_PASS_HZ.min, SYNTH_CAB_LOW_PASS_HZ.max),
  compressorThresholdDb: clamp(
    s.compressorThresholdDb,
    SYNTH_COMPRESSOR_THRESHOLD_DB.min,
    SYNTH_COMPRESSOR_THRESHOLD_DB.max,
  ),
  compressorRatio: clamp(s.compressorRatio, SYNTH_COMPRESSOR_RATIO.min, SYNTH_COMPRESSOR_RATIO.max),
});

/** The player's settings reducer: every clamp of spec sections 4, 5 and 9 lives here. */
export function settingsReducer(state: PlayerSettings, action: SettingsAction): PlayerSettings {
  switch (action.type) {
    case 'setSpeed':
      return { ...state, speed: nearestSpeed(action.speed) };
    case 'setTrainerSpeed':
      return {
        ...state,
        speed: clamp(
          Math.round(action.speed * 100) / 100,
          PLAYBACK_SPEEDS[0],
          PLAYBACK_SPEEDS[PLAYBACK_SPEEDS.length - 1] ?? 2,
        ),
      };
    case 'stepSpeed':
      return { ...state, speed: stepSpeed(state.speed, action.by) };
    case 'zoomWheel':
      return {
        ...state,
        zoom: clamp(action.zoom, TIMELINE_ZOOM_WHEEL.min, TIMELINE_ZOOM_WHEEL.max),
      };
    case 'zoomSlider':
      return {
        ...state,
        zoom: clamp(action.zoom, TIMELINE_ZOOM_SLIDER.min, TIMELINE_ZOOM_SLIDER.max),
      };
    case 'toggleLoop':
      return { ...state, loop: state.loop ? null : loopFrom(action.now, action.duration) };
    case 'clearLoop':
      return state.loop ? { ...state, loop: null } : state;
    case 'setLoop':
      return action.loop.end - action.loop.start >= 0.05 ? { ...state, loop: action.loop } : state;
    case 'setAudioSource':
      if (action.source === 'guitar' && !action.stemAvailable) return state;
      return { ...state, audioSource: action.source };
    case 'setVolume':
      return { ...state, volume: clamp(action.volume, 0, 1) };
    case 'setTabSource':
      return { ...state, tabSource: action.source };
    case 'setChordDisplay':
      return { ...state, chordDisplay: action.display };
    case 'setFullscreen':
      return { ...state, fullscreen: action.mode };
    case 'setVideoZoom':
      return {
        ...state,
        // Whole steps of 0.1, without binary fractions such as 1.1000000000000001.
        videoZoom: Math.round(clamp(action.zoom, VIDEO_ZOOM.min, VIDEO_ZOOM.max) * 10) / 10,
      };
    case 'setSynth': {
      const preset = action.patch.preset;
      // Choosing a preset brings its mix; a mix control changes only itself.
      const mix = preset && preset !== state.synth.preset ? SYNTH_PRESET_MIX[preset] : {};
      return { ...state, synth: clampSynth({ ...state.synth, ...mix, ...action.patch }) };
    }
  }
}
