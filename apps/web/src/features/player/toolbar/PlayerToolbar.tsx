import { PLAYBACK_SPEEDS, TIMELINE_ZOOM_SLIDER, clamp } from '@riffscribe/core';
import type { ReactNode } from 'react';
import type {
  AudioSource,
  ChordDisplay,
  FullscreenMode,
  PlayerSettings,
  SettingsAction,
  TabSource,
} from '../model/playerState';
import type { PlaybackBus } from '../playback/playbackBus';
import { ChoiceMenu, type Choice } from './ChoiceMenu';
import { SynthPanel } from './SynthPanel';
import { TimeReadout } from './TimeReadout';

const SPEEDS: Choice<number>[] = PLAYBACK_SPEEDS.map((s) => ({ value: s, label: `${String(s)}x` }));
const TABS: Choice<TabSource>[] = [
  { value: 'edited', label: 'Edited' },
  { value: 'original', label: 'Original (AI)' },
];
const FULLSCREEN: Choice<FullscreenMode>[] = [
  { value: 'tabs', label: 'Tabs' },
  { value: 'fretboard', label: 'Fretboard' },
  { value: 'video', label: 'Video' },
  { value: 'all', label: 'All' },
  { value: 'none', label: 'Exit fullscreen' },
];

/** Every toolbar item of the tab player screen (spec section 2), in the spec's order. */
export function PlayerToolbar(props: {
  settings: PlayerSettings;
  dispatch: (action: SettingsAction) => void;
  playing: boolean;
  onPlayPause: () => void;
  onToggleLoop: () => void;
  onAudioSource: (source: AudioSource) => void;
  stemAvailable: boolean;
  capo: number;
  canEdit: boolean;
  dirty: boolean;
  saving: boolean;
  onSave: () => void;
  onTuner: () => void;
  bus: PlaybackBus;
  duration: number;
  /** The practice tools' button and panel (practice/PracticePanel.tsx). */
  practice?: ReactNode;
}) {
  const { settings: s, dispatch, stemAvailable, capo } = props;
  const audio: Choice<AudioSource>[] = [
    { value: 'original', label: 'Original' },
    { value: 'synth', label: 'Synth' },
    {
      value: 'guitar',
      label: 'Guitar',
      disabled: !stemAvailable,
      ...(stemAvailable ? {} : { hint: 'No guitar track for this lesson' }),
    },
  ];
  const chords: Choice<ChordDisplay>[] = [
    { value: 'original', label: 'Original' },
    {
      value: 'capoed',
      label: capo > 0 ? `Capoed (capo ${String(capo)})` : 'Capoed',
      short: 'Capoed',
    },
  ];
  return (
    <div className="lp-toolbar" role="toolbar" aria-label="Player controls">
      <button
        type="button"
        className="lp-tool lp-play"
        aria-label={props.playing ? 'Pause' : 'Play'}
        title={props.playing ? 'Pause (Space)' : 'Play (Space)'}
        onClick={props.onPlayPause}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          {props.playing ? (
            <path d="M7 5h3.5v14H7zM13.5 5H17v14h-3.5z" fill="currentColor" />
          ) : (
            <path d="M7 4.5v15l12.5-7.5z" fill="currentColor" />
          )}
        </svg>
      </button>
      <button
        type="button"
        className="lp-tool"
        aria-pressed={s.loop !== null}
        title={s.loop ? 'Clear loop (L or Escape)' : 'Loop 2 s from here (L)'}
        onClick={props.onToggleLoop}
      >
        <span aria-hidden="true">⟲</span>
        <span className="lp-tool-label">{s.loop ? 'Loop on' : 'Loop'}</span>
      </button>
      <ChoiceMenu
        label="Speed"
        value={s.speed}
        choices={
          SPEEDS.some((c) => c.value === s.speed)
            ? SPEEDS
            : // The speed trainer's step between presets (0.55x) shows as it is.
              [...SPEEDS, { value: s.speed, label: `${String(s.speed)}x` }].sort(
                (a, b) => a.value - b.value,
              )
        }
        onChange={(speed) => {
          dispatch({ type: 'setSpeed', speed });
        }}
      />
      <label className="lp-slider" title="Timeline zoom (or the mouse wheel on the tab)">
        <span className="lp-tool-label">Zoom</span>
        <input
          type="range"
          aria-label="Zoom"
          min={TIMELINE_ZOOM_SLIDER.min}
          max={TIMELINE_ZOOM_SLIDER.max}
          step={1}
          value={clamp(Math.round(s.zoom), TIMELINE_ZOOM_SLIDER.min, TIMELINE_ZOOM_SLIDER.max)}
          aria-valuetext={`${String(Math.round(s.zoom))} pixels per second`}
          onChange={(e) => {
            dispatch({ type: 'zoomSlider', zoom: Number(e.target.value) });
          }}
        />
        {/* The wheel zooms from 10 to 600, the slider's range is 50 to 200 (spec): the figure
            says where the zoom is when the slider sits at an end. */}
        <output className="lp-zoom-value" data-testid="zoom-value">
          {Math.round(s.zoom)}
        </output>
      </label>
      <span className="lp-sep" aria-hidden="true" />
      <ChoiceMenu
        label="Audio source"
        caption="Audio"
        value={s.audioSource}
        choices={audio}
        onChange={props.onAudioSource}
      />
      <label className="lp-slider lp-volume" title="Volume">
        <span aria-hidden="true">🔊</span>
        <input
          type="range"
          aria-label="Volume"
          min={0}
          max={1}
          step={0.01}
          value={s.volume}
          onChange={(e) => {
            dispatch({ type: 'setVolume', volume: Number(e.target.value) });
          }}
        />
      </label>
      <SynthPanel
        settings={s.synth}
        onChange={(patch) => {
          dispatch({ type: 'setSynth', patch });
        }}
      />
      <span className="lp-sep" aria-hidden="true" />
      <ChoiceMenu
        label="Tabs source"
        caption="Tabs"
        value={s.tabSource}
        choices={TABS}
        onChange={(source) => {
          dispatch({ type: 'setTabSource', source });
        }}
      />
      <ChoiceMenu
        label="Chord display"
        caption="Chords"
        value={s.chordDisplay}
        choices={chords}
        onChange={(display) => {
          dispatch({ type: 'setChordDisplay', display });
        }}
      />
      <button type="button" className="lp-tool" onClick={props.onTuner} aria-label="Tuner">
        <span aria-hidden="true">𝄞</span>
        <span className="lp-tool-label">Tuner</span>
      </button>
      {props.canEdit && (
        <button
          type="button"
          className="lp-tool lp-save"
          onClick={props.onSave}
          disabled={!props.dirty || props.saving}
          title={props.dirty ? 'Save your changes' : 'No changes to save'}
        >
          {props.saving ? 'Saving…' : 'Save'}
        </button>
      )}
      <ChoiceMenu
        label="Fullscreen"
        value={s.fullscreen}
        choices={FULLSCREEN.filter((c) => c.value !== 'none' || s.fullscreen !== 'none')}
        align="right"
        button={<span className="lp-tool-label">Fullscreen</span>}
        onChange={(mode) => {
          dispatch({ type: 'setFullscreen', mode });
        }}
      />
      {/* Beyond the spec's items, after them so that theirs keep the spec's order. */}
      {props.practice}
      <TimeReadout bus={props.bus} duration={props.duration} />
    </div>
  );
}
