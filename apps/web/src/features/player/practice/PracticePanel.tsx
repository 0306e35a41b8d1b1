import { Popover } from '../toolbar/Popover';
import { ToggleRow, ToolLabel } from './ToolControls';
import type { Practice } from './usePractice';
import type { SpeedTrainer } from './speedTrainer';

const percent = (speed: number) => Math.round(speed * 100);

/** One of the trainer's numbers: a labelled number field, `range` its min, max and step. */
function NumberField(props: {
  label: string;
  range: readonly [number, number, number];
  value: number;
  onChange: (value: number) => void;
}) {
  const [min, max, step] = props.range;
  return (
    <label>
      {props.label}
      <input
        type="number"
        min={min}
        max={max}
        step={step}
        value={props.value}
        onChange={(e) => {
          props.onChange(Number(e.target.value));
        }}
      />
    </label>
  );
}

/**
 * The practice tools in the toolbar (issue 40): metronome, count-in, speed trainer and the
 * left-handed view, each with a key (K, I, T, G) shown in its title.
 */
export function PracticePanel(props: {
  practice: Practice;
  hasLoop: boolean;
  leftHanded: boolean;
  onLeftHanded: (on: boolean) => void;
}) {
  const { practice: p, hasLoop, leftHanded } = props;
  const t = p.trainer;
  const set = (patch: Partial<SpeedTrainer>) => {
    p.setTrainer({ ...t, ...patch });
  };
  const status = p.training
    ? `Speed ${String(percent(p.training.speed))} % · pass ${String(p.training.done + 1)} of ${String(t.passes)}`
    : null;
  return (
    <Popover
      label="Practice"
      role="dialog"
      align="auto"
      nameFromContent
      title="Metronome, count-in, speed trainer, left-handed view"
      button={
        <ToolLabel
          name="Practice"
          figure={p.training ? `${String(percent(p.training.speed))} %` : null}
          testId="trainer-speed"
        />
      }
    >
      {() => (
        <div className="lp-practice">
          <ToggleRow
            label="Metronome"
            keyName="K"
            title="Metronome on the lesson's beats"
            checked={p.metronome}
            onChange={p.setMetronome}
          />
          <label className="lp-practice-row">
            Click volume
            <input
              type="range"
              min={0}
              max={1}
              step={0.05}
              value={p.clickVolume}
              onChange={(e) => {
                p.setClickVolume(Number(e.target.value));
              }}
            />
          </label>
          <ToggleRow
            label="Count-in"
            keyName="I"
            title="One bar of clicks before play and before each repeat of the loop"
            checked={p.countInOn}
            onChange={p.setCountIn}
          />
          <fieldset className="lp-panel-box lp-practice-trainer">
            <legend>Speed trainer</legend>
            <NumberField
              label="Start %"
              range={[25, 200, 5]}
              value={percent(t.start)}
              onChange={(v) => {
                set({ start: v / 100 });
              }}
            />
            <NumberField
              label="Target %"
              range={[25, 200, 5]}
              value={percent(t.target)}
              onChange={(v) => {
                set({ target: v / 100 });
              }}
            />
            <NumberField
              label="Step %"
              range={[1, 50, 1]}
              value={percent(t.step)}
              onChange={(v) => {
                set({ step: v / 100 });
              }}
            />
            <NumberField
              label="Passes per step"
              range={[1, 10, 1]}
              value={t.passes}
              onChange={(v) => {
                set({ passes: v });
              }}
            />
            <button
              type="button"
              className="lp-tool"
              disabled={!hasLoop && !p.training}
              onClick={p.toggleTraining}
              title="Start or stop the speed trainer (T)"
            >
              {p.training ? 'Stop training' : 'Start training'} <kbd>T</kbd>
            </button>
            <p className="lp-practice-status" role="status" aria-live="polite">
              {status ??
                (hasLoop ? 'Plays the loop, faster after each step.' : 'Set a loop first (L).')}
            </p>
          </fieldset>
          <ToggleRow
            label="Left-handed view"
            keyName="G"
            title="Mirror the fretboard and the video for a left-handed player"
            checked={leftHanded}
            onChange={props.onLeftHanded}
          />
        </div>
      )}
    </Popover>
  );
}
