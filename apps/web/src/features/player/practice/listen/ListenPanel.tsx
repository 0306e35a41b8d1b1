import { Popover } from '../../toolbar/Popover';
import { ToggleRow, ToolLabel } from '../ToolControls';
import { CALIBRATION_CLICKS, CALIBRATION_NEEDED } from '@riffscribe/core/listen';
import { LISTEN_TEXT, type Listen, type PassRecord } from './useListen';

const percent = (share: number) => `${String(Math.round(share * 100))} %`;

function passLine(p: PassRecord): string {
  const off = p.early + p.late;
  const parts = [`${String(p.hits)} of ${String(p.total)} hit`];
  if (off) parts.push(`${String(off)} early or late`);
  if (p.missed) parts.push(`${String(p.missed)} missed`);
  return `Pass ${String(p.number)} · ${percent(p.score)} · ${parts.join(', ')} · at ${percent(p.speed)}`;
}

/** What calibration asks for while it runs, in the panel and in the line under the toolbar. */
const calibrating = (heard: number) =>
  `Calibrating: play one note on each of the ${String(CALIBRATION_CLICKS)} clicks (${String(heard)} heard).`;

/** The calibration's line in the panel. */
function latencyLine(listen: Listen): string {
  const s = listen.status;
  if (s.kind === 'calibrating') return calibrating(s.heard);
  if (s.kind === 'listening' && s.calibration === 'failed')
    return `Calibration needs a note on at least ${String(CALIBRATION_NEEDED)} of the ${String(CALIBRATION_CLICKS)} clicks. Try again (Q).`;
  if (listen.latency === null) return 'Not calibrated yet: it starts when you turn listening on.';
  return `Latency ${String(Math.round(listen.latency * 1000))} ms (calibrated on this browser).`;
}

/**
 * Listen & check's controls in the toolbar (issue 40): on/off (E), wait mode (W), the lesson's
 * sound while listening (U: on only with headphones), calibration (Q), and the passes' scores.
 */
export function ListenPanel(props: { listen: Listen }) {
  const { listen } = props;
  const last = listen.passes[0];
  return (
    <Popover
      label="Listen & check"
      role="dialog"
      align="auto"
      nameFromContent
      title="Listen & check: the microphone checks your playing against the tab (E)"
      button={
        <ToolLabel
          name="Listen"
          figure={listen.on && last ? percent(last.score) : null}
          testId="listen-score"
        />
      }
    >
      {() => (
        <div className="lp-practice lp-listen">
          <ToggleRow
            label="Listen & check"
            keyName="E"
            title="Hear the microphone and check each note against the tab"
            checked={listen.on}
            onChange={(on) => {
              if (on !== listen.on) listen.toggle();
            }}
          />
          <ToggleRow
            label="Wait mode"
            keyName="W"
            title="Playback stops at each next note until you play it"
            checked={listen.waitMode}
            onChange={listen.setWaitMode}
          />
          <ToggleRow
            label="Lesson sound on (headphones)"
            keyName="U"
            title="The microphone would hear the lesson's sound from speakers as your playing"
            checked={listen.headphones}
            onChange={listen.setHeadphones}
          />
          <p className="lp-practice-status">
            {listen.headphones
              ? 'The lesson plays in your headphones while you play.'
              : 'The lesson is silent while listening, so the microphone hears only you.'}
          </p>
          <div className="lp-practice-row">
            <button
              type="button"
              className="lp-tool"
              disabled={!listen.on || listen.status.kind === 'calibrating'}
              onClick={listen.calibrate}
              title="Play one note on each of 8 clicks to measure the delay (Q)"
            >
              Calibrate <kbd>Q</kbd>
            </button>
          </div>
          <p className="lp-practice-status" data-testid="listen-latency">
            {latencyLine(listen)}
          </p>
          <section aria-label="Passes" className="lp-listen-passes">
            {listen.passes.length === 0 ? (
              <p className="lp-practice-status">
                Each pass of the loop gets a score here: the share of notes played in time.
              </p>
            ) : (
              <ol>
                {listen.passes.map((p) => (
                  <li key={p.number}>{passLine(p)}</li>
                ))}
              </ol>
            )}
          </section>
        </div>
      )}
    </Popover>
  );
}

/** The line under the toolbar while listening: errors, the quiet input, wait mode, the score. */
export function ListenBar(props: { listen: Listen }) {
  const { listen } = props;
  const s = listen.status;
  if (s.kind === 'off') return null;
  let text: string;
  let tone: 'info' | 'warn' = 'info';
  if (s.kind === 'error') {
    text = s.message;
    tone = 'warn';
  } else if (s.kind === 'starting') text = 'Starting the microphone…';
  else if (s.kind === 'calibrating') text = calibrating(s.heard);
  else if (listen.waitingFor) {
    text = `Waiting for ${listen.waitingFor}`;
    if (listen.quiet) {
      text = `${text}. ${LISTEN_TEXT.quiet}`;
      tone = 'warn';
    }
  } else if (listen.quiet) {
    text = LISTEN_TEXT.quiet;
    tone = 'warn';
  } else if (listen.current && listen.current.total > 0)
    text = `Listening · this pass ${percent(listen.current.score)} (${String(listen.current.hits)} of ${String(listen.current.total)} hit)`;
  else text = 'Listening: play along.';
  return (
    <p className="lp-listen-bar" role="status" aria-live="polite" data-tone={tone}>
      {text}
    </p>
  );
}
