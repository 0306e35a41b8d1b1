import { ListenAnalyzer, type HeardLevel, type HeardOnset } from '@riffscribe/core/listen';

/**
 * Listen & check's worker (issue 40): the analysis of the microphone off the page's thread. The
 * capture worklet sends blocks straight here through a MessagePort; attacks and levels go to the
 * page. Every two seconds of audio it also says how long the analysis took (the cost benchmark).
 */

export type ToWorker = { type: 'start'; port: MessagePort; sampleRate: number };
export type FromWorker =
  | { type: 'first'; start: number }
  | { type: 'onset'; onset: HeardOnset }
  | { type: 'level'; level: HeardLevel }
  | { type: 'cost'; busyMs: number; audioMs: number };

/** The worker's global scope, as much of it as is used (the app's types are the page's). */
const scope = self as unknown as {
  postMessage: (message: FromWorker) => void;
  onmessage: ((e: MessageEvent<ToWorker>) => void) | null;
};
const send = (m: FromWorker) => {
  scope.postMessage(m);
};

scope.onmessage = (e: MessageEvent<ToWorker>) => {
  const { port, sampleRate } = e.data;
  const analyzer = new ListenAnalyzer(sampleRate, {
    onset: (onset) => {
      send({ type: 'onset', onset });
    },
    level: (level) => {
      send({ type: 'level', level });
    },
  });
  let first = true;
  let busy = 0;
  let audio = 0;
  port.onmessage = (m: MessageEvent<{ start: number; samples: Float32Array }>) => {
    const { start, samples } = m.data;
    if (first) {
      first = false;
      send({ type: 'first', start });
    }
    const t0 = performance.now();
    analyzer.push(samples, start);
    busy += performance.now() - t0;
    audio += (samples.length / sampleRate) * 1000;
    if (audio >= 2000) {
      send({ type: 'cost', busyMs: busy, audioMs: audio });
      busy = 0;
      audio = 0;
    }
  };
};
