import {
  SYNTH_CAB_LOW_PASS_HZ,
  SYNTH_COMPRESSOR_RATIO,
  SYNTH_COMPRESSOR_THRESHOLD_DB,
  SYNTH_HIGH_PASS_HZ,
  SYNTH_PRESETS,
} from '@riffscribe/core';
import type { SynthSettings } from '../model/playerState';
import { Popover } from './Popover';

type NumberKey = Exclude<keyof SynthSettings, 'preset'>;

const SLIDERS: {
  key: NumberKey;
  label: string;
  min: number;
  max: number;
  step: number;
  unit: string;
}[] = [
  { key: 'reverb', label: 'Reverb', min: 0, max: 1, step: 0.01, unit: '%' },
  { key: 'drive', label: 'Drive', min: 0, max: 1, step: 0.01, unit: '%' },
  { key: 'chorus', label: 'Chorus', min: 0, max: 1, step: 0.01, unit: '%' },
  { key: 'highPassHz', label: 'High-pass', ...SYNTH_HIGH_PASS_HZ, step: 1, unit: 'Hz' },
  { key: 'cabLowPassHz', label: 'Cab low-pass', ...SYNTH_CAB_LOW_PASS_HZ, step: 50, unit: 'Hz' },
  {
    key: 'compressorThresholdDb',
    label: 'Comp. threshold',
    ...SYNTH_COMPRESSOR_THRESHOLD_DB,
    step: 1,
    unit: 'dB',
  },
  {
    key: 'compressorRatio',
    label: 'Comp. ratio',
    ...SYNTH_COMPRESSOR_RATIO,
    step: 0.5,
    unit: ':1',
  },
];

const show = (value: number, unit: string) =>
  unit === '%' ? `${String(Math.round(value * 100))}%` : `${String(value)} ${unit}`;

/** The synth's settings: preset, effects and tone controls (spec section 9). */
export function SynthPanel(props: {
  settings: SynthSettings;
  onChange: (patch: Partial<SynthSettings>) => void;
}) {
  const { settings, onChange } = props;
  return (
    <Popover
      label="Synth settings"
      role="dialog"
      button={<span className="lp-tool-label">Synth</span>}
    >
      {() => (
        <div className="lp-synth">
          <div className="lp-segmented" role="radiogroup" aria-label="Synth preset">
            {SYNTH_PRESETS.map((p) => (
              <button
                key={p}
                type="button"
                role="radio"
                aria-checked={settings.preset === p}
                onClick={() => {
                  onChange({ preset: p });
                }}
              >
                {p}
              </button>
            ))}
          </div>
          {SLIDERS.map((s) => (
            <label key={s.key} className="lp-synth-row">
              <span>{s.label}</span>
              <input
                type="range"
                aria-label={s.label}
                aria-valuetext={show(settings[s.key], s.unit)}
                min={s.min}
                max={s.max}
                step={s.step}
                value={settings[s.key]}
                onChange={(e) => {
                  onChange({ [s.key]: Number(e.target.value) });
                }}
              />
              <output>{show(settings[s.key], s.unit)}</output>
            </label>
          ))}
        </div>
      )}
    </Popover>
  );
}
