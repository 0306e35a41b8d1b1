import { TUNER_GAUGE_CENTS, type Tuning } from '@riffscribe/core';
import { Dialog } from '../../../ui/Dialog';
import { noteName, stringNames } from './tunerMath';
import { useTuner } from './useTuner';

/** The tuner: the microphone's pitch, the nearest string of the lesson's tuning and capo, a gauge. */
export function TunerModal(props: {
  open: boolean;
  onClose: () => void;
  tuning: Tuning;
  capo: number;
}) {
  const { open, onClose, tuning, capo } = props;
  const state = useTuner(open, tuning, capo);
  const reading = state.kind === 'listening' ? state.reading : null;
  const needle = reading ? 50 + (reading.gauge / TUNER_GAUGE_CENTS) * 50 : 50;
  return (
    <Dialog
      open={open}
      title="Tuner"
      onClose={onClose}
      actions={
        <button type="button" className="button secondary" onClick={onClose}>
          Close
        </button>
      }
    >
      <div className="lp-tuner" data-testid="tuner">
        <p className="lp-quiet">
          Tuning to the lesson: {stringNames(tuning, capo).join(' ')}
          {capo > 0 ? ` (capo ${String(capo)})` : ''}
        </p>
        {state.kind === 'denied' ? (
          <p role="alert">{state.message}</p>
        ) : state.kind === 'starting' ? (
          <p>Starting the microphone…</p>
        ) : !reading ? (
          <p>Play a single string…</p>
        ) : (
          <>
            <p className="lp-tuner-note" data-testid="tuner-string" data-string={reading.string}>
              String {reading.string} · {noteName(reading.target)}
            </p>
            <p
              className={reading.inTune ? 'lp-tuner-cents in-tune' : 'lp-tuner-cents'}
              data-testid="tuner-cents"
              data-cents={reading.cents.toFixed(1)}
            >
              {reading.inTune
                ? 'In tune'
                : `${reading.cents > 0 ? '+' : ''}${reading.cents.toFixed(0)} cents ${reading.cents > 0 ? 'sharp' : 'flat'}`}
              <small> {state.hz?.toFixed(1)} Hz</small>
            </p>
          </>
        )}
        <div
          className="lp-gauge"
          role="meter"
          aria-label="Cents from the target"
          aria-valuemin={-TUNER_GAUGE_CENTS}
          aria-valuemax={TUNER_GAUGE_CENTS}
          aria-valuenow={reading ? Math.round(reading.gauge) : 0}
        >
          <span className="lp-gauge-zone" />
          <span className="lp-gauge-needle" style={{ left: `${String(needle)}%` }} />
          <span className="lp-gauge-scale">
            <span>-50</span>
            <span>0</span>
            <span>+50</span>
          </span>
        </div>
      </div>
    </Dialog>
  );
}
