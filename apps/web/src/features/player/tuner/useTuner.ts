import type { Tuning } from '@riffscribe/core';
import { PitchDetector } from 'pitchy';
import { useEffect, useState } from 'react';
import { readTuner, type TunerReading } from './tunerMath';

/** A reading counts when pitchy is at least this sure and the input is not near silence. */
const MIN_CLARITY = 0.9;
const MIN_RMS = 0.005;
const WINDOW = 4096;

export type TunerState =
  | { kind: 'starting' }
  | { kind: 'denied'; message: string }
  | { kind: 'listening'; hz: number | null; reading: TunerReading | null };

/**
 * Listens to the microphone while `active` and reads its pitch with pitchy (McLeod pitch method)
 * about 20 times a second; the reading is the median of the last five, so one bad frame does not
 * make the needle jump.
 */
export function useTuner(active: boolean, tuning: Tuning, capo: number): TunerState {
  const [state, setState] = useState<TunerState>({ kind: 'starting' });
  useEffect(() => {
    if (!active) return;
    // An object, so the async start sees the cleanup's change.
    const run = { stopped: false };
    let stream: MediaStream | null = null;
    let context: AudioContext | null = null;
    let timer = 0;
    const recent: number[] = [];
    void (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
        });
      } catch {
        if (!run.stopped) {
          setState({
            kind: 'denied',
            message: 'The microphone is not available. Allow it to tune.',
          });
        }
        return;
      }
      if (run.stopped) {
        for (const t of stream.getTracks()) t.stop();
        return;
      }
      context = new AudioContext();
      await context.resume();
      const analyser = context.createAnalyser();
      analyser.fftSize = WINDOW;
      context.createMediaStreamSource(stream).connect(analyser);
      const buffer = new Float32Array(analyser.fftSize);
      const detector = PitchDetector.forFloat32Array(analyser.fftSize);
      setState({ kind: 'listening', hz: null, reading: null });
      timer = window.setInterval(() => {
        if (!context) return;
        analyser.getFloatTimeDomainData(buffer);
        let sum = 0;
        for (const v of buffer) sum += v * v;
        const rms = Math.sqrt(sum / buffer.length);
        const [hz, clarity] = detector.findPitch(buffer, context.sampleRate);
        if (rms < MIN_RMS || clarity < MIN_CLARITY || !(hz > 0)) return;
        recent.push(hz);
        if (recent.length > 5) recent.shift();
        const median = [...recent].sort((a, b) => a - b)[Math.floor(recent.length / 2)] ?? hz;
        setState({ kind: 'listening', hz: median, reading: readTuner(median, tuning, capo) });
      }, 50);
    })();
    return () => {
      run.stopped = true;
      window.clearInterval(timer);
      for (const t of stream?.getTracks() ?? []) t.stop();
      void context?.close();
      setState({ kind: 'starting' });
    };
  }, [active, tuning, capo]);
  return state;
}
