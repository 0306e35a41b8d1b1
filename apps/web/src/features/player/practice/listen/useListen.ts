import type { NoteEvent, Tuning } from '@riffscribe/core';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Loop } from '../../model/playerState';
import { noteName } from '../../tuner/tunerMath';
import { blip } from '../usePractice';
import {
  CALIBRATION_AFTER_S,
  CALIBRATION_CLICKS,
  calibratedLatency,
  clicksAnswered,
  expectedGroups,
  type HeardOnset,
  groupMatches,
  ListenChecker,
  passCountsForTrainer,
  type ExpectedGroup,
  type PassScore,
  type Verdict,
} from '@riffscribe/core/listen';
import type { FromWorker } from './listen.worker';

/** Calibration (core's listen/calibration.ts): clicks this far apart, the first this long after the microphone starts. */
const CAL_GAP_S = 0.5;
const CAL_LEAD_S = 1;
/** How long after an attack its verdict can come (the analysis' evidence); sweeps wait for it. */
const DECIDE_S = 0.15;
/** An input below this RMS for QUIET_S while playing is too quiet. */
const QUIET_RMS = 0.003;
const QUIET_S = 3;
const TICK_MS = 25;
const HISTORY = 10;
/** The score of a pass under way counts the notes up to this far past the playhead. */
const LATE_WINDOW = 0.3;
const LATENCY_KEY = 'riffscribe.listen.latency';
const LISTEN_RATE = 24000;

export const LISTEN_TEXT = {
  noMic: 'No microphone found. Connect one to use Listen & check.',
  denied: 'Unable to access microphone. Please ensure microphone permissions are granted.',
  unsupported: 'This browser cannot listen to a microphone here.',
  quiet: 'We can’t hear you — move closer or turn up the input',
} as const;

export type ListenStatus =
  | { kind: 'off' }
  | { kind: 'starting' }
  | { kind: 'error'; message: string }
  | { kind: 'calibrating'; heard: number }
  | { kind: 'listening'; calibration: 'ok' | 'failed' | 'none' };

export interface PassRecord extends PassScore {
  /** 1, 2, ... since Listen & check was turned on. */
  number: number;
  speed: number;
}

/** What the test reads (window.__RIFFSCRIBE_LISTEN__ when a test sets it). */
export interface ListenProbe {
  context?: AudioContext;
  firstFrame?: number;
  latency?: number;
  verdicts?: { time: number; verdict: Verdict | null; offset: number | null }[];
  /** Seconds from an attack to its verdict being set, per verdict. */
  shownAfter?: number[];
  /** Worker time per audio time, per two seconds of audio. */
  cost?: number[];
}

function probe(): ListenProbe | null {
  const w = window as unknown as { __RIFFSCRIBE_LISTEN__?: ListenProbe };
  return w.__RIFFSCRIBE_LISTEN__ ?? null;
}

function storedLatency(): number | null {
  try {
    const v = Number(localStorage.getItem(LATENCY_KEY));
    return localStorage.getItem(LATENCY_KEY) !== null && Number.isFinite(v) ? v : null;
  } catch {
    return null;
  }
}

/** "C3 (string 5, fret 3)" or "the chord C3 E3 G3". */
export function groupLabel(group: ExpectedGroup, notes: readonly NoteEvent[]): string {
  if (group.pitches.length === 1) {
    const n = notes[group.notes[0] ?? -1];
    const where = n ? ` (string ${String(n.string)}, fret ${String(n.fret)})` : '';
    return `${noteName(group.pitches[0] ?? 0)}${where}`;
  }
  return `the chord ${group.pitches.map(noteName).join(' ')}`;
}

interface ClockSample {
  ctx: number;
  lesson: number;
  rate: number;
  playing: boolean;
}

export interface Listen {
  status: ListenStatus;
  on: boolean;
  toggle: () => void;
  calibrate: () => void;
  latency: number | null;
  quiet: boolean;
  waitMode: boolean;
  setWaitMode: (on: boolean) => void;
  headphones: boolean;
  setHeadphones: (on: boolean) => void;
  /** The lesson's own sound is silenced (listening without headphones). */
  silenceLesson: boolean;
  passes: PassRecord[];
  /** The pass being played: its score so far. */
  current: PassScore | null;
  /** Verdict per note index of the lesson (for the timeline), and its change counter. */
  verdictOf: (note: number) => Verdict | undefined;
  version: number;
  /** Wait mode: what playback waits for, as words. */
  waitingFor: string | null;
  /** For the loop's wrap: ends the pass and starts the next; whether it counts for the trainer. */
  passCounts: (next: Loop) => boolean;
}

/**
 * Listen & check (issue 40): the microphone through a capture worklet to the analysis worker,
 * attacks placed on the lesson's time (the audio clock mapped to the video's, less the calibrated
 * latency) and judged against the tab around the playhead; passes scored; wait mode.
 */
export function useListen(input: {
  video: HTMLVideoElement | null;
  notes: readonly NoteEvent[];
  tuning: Tuning;
  capo: number;
  loop: Loop | null;
  duration: number;
}): Listen {
  const { video, notes, tuning, capo, loop, duration } = input;
  const [on, setOn] = useState(false);
  const [status, setStatus] = useState<ListenStatus>({ kind: 'off' });
  const [latency, setLatency] = useState<number | null>(storedLatency);
  const [quiet, setQuiet] = useState(false);
  const [waitMode, setWaitMode] = useState(false);
  const [headphones, setHeadphones] = useState(false);
  const [passes, setPasses] = useState<PassRecord[]>([]);
  const [current, setCurrent] = useState<PassScore | null>(null);
  const [version, setVersion] = useState(0);
  const [waiting, setWaiting] = useState<number | null>(null);

  const groups = useMemo(() => expectedGroups(notes, tuning, capo), [notes, tuning, capo]);
  const checker = useMemo(() => new ListenChecker(groups), [groups]);
  const noteGroup = useMemo(() => {
    const out = new Map<number, number>();
    groups.forEach((g, i) => {
      for (const n of g.notes) out.set(n, i);
    });
    return out;
  }, [groups]);

  const audio = useRef<{
    context: AudioContext;
    stream: MediaStream;
    worker: Worker;
    node: AudioWorkletNode;
  } | null>(null);
  const clock = useRef<ClockSample[]>([]);
  const calibration = useRef<{ clicks: number[]; heard: number[]; timer: number } | null>(null);
  /** The pass being played: from where, how far so far, its number and the speed it is at. */
  const pass = useRef<{ from: number; last: number; number: number; speed: number } | null>(null);
  const lastLoud = useRef(0);
  const waitPause = useRef(false);
  const live = useRef({ latency, waitMode, loop, duration, checker, waiting, video });
  useEffect(() => {
    live.current = {
      latency,
      waitMode,
      loop,
      duration,
      checker,
      waiting,
      video,
    };
  }, [latency, waitMode, loop, duration, checker, waiting, video]);

  const bump = useCallback(() => {
    setVersion((v) => v + 1);
    const p = probe();
    if (p) {
      const c = live.current.checker;
      p.verdicts = c.groups.map((g, i) => ({
        time: g.time,
        verdict: c.verdicts[i] ?? null,
        offset: c.offsets[i] ?? null,
      }));
    }
  }, []);

  /** The lesson's time when the audio clock read `ctx`, or null if the video was not playing. */
  const lessonAt = useCallback((ctx: number): number | null => {
    const samples = clock.current;
    let s: ClockSample | undefined;
    for (let i = samples.length - 1; i >= 0 && !s; i -= 1) {
      const at = samples[i];
      if (at && at.ctx <= ctx) s = at;
    }
    s ??= samples[0];
    if (!s?.playing) return null;
    return s.lesson + (ctx - s.ctx) * s.rate;
  }, []);

  const endPass = useCallback((): PassScore | null => {
    const p = pass.current;
    if (!p) return null;
    pass.current = null;
    const c = live.current.checker;
    // The last notes' verdicts may still be on their way: only what is surely over counts.
    c.sweep(p.from, p.last - DECIDE_S);
    const s = c.score(p.from, p.last + 0.01);
    if (s.total > 0) {
      setPasses((list) => [{ ...s, number: p.number, speed: p.speed }, ...list].slice(0, HISTORY));
    }
    setCurrent(null);
    bump();
    return s;
  }, [bump]);

  const passCount = useRef(0);
  const startPass = useCallback(
    (from: number) => {
      const { loop: l, duration: d, checker: c } = live.current;
      passCount.current += 1;
      pass.current = {
        from,
        last: from,
        number: passCount.current,
        speed: live.current.video?.playbackRate ?? 1,
      };
      c.clear(from, l && from >= l.start - 0.05 && from < l.end ? l.end : d + 1);
      setCurrent(c.score(from, from));
      bump();
    },
    [bump],
  );

  const passCounts = useCallback(
    (next: Loop): boolean => {
      if (!audio.current || live.current.waitMode) return true;
      const s = endPass();
      startPass(next.start);
      return passCountsForTrainer(s);
    },
    [endPass, startPass],
  );

  // Heard attacks: calibration, wait mode, or the check.
  const onOnset = useCallback(
    (o: HeardOnset) => {
      const cal = calibration.current;
      if (cal) {
        cal.heard.push(o.time);
        setStatus({ kind: 'calibrating', heard: clicksAnswered(cal.clicks, cal.heard) });
        return;
      }
      const { checker: c, waiting: w, video: v } = live.current;
      if (w !== null && v) {
        const g = c.groups[w];
        if (g && groupMatches(g.pitches, o.salience, o.before)) {
          c.matchNow(w);
          setWaiting(null);
          live.current.waiting = null;
          bump();
          void v.play().catch(() => undefined);
        }
        return;
      }
      const t = lessonAt(o.time - (live.current.latency ?? 0));
      if (t === null) return;
      const i = c.heard(t, o.salience, o.before);
      if (i < 0) return;
      const p = probe();
      const ctx = audio.current?.context;
      if (p && ctx) (p.shownAfter ??= []).push(ctx.currentTime - o.time);
      if (pass.current) setCurrent(c.score(pass.current.from, pass.current.last + LATE_WINDOW));
      bump();
    },
    [lessonAt, bump],
  );

  const finishCalibration = useCallback(() => {
    const cal = calibration.current;
    calibration.current = null;
    if (!cal) return;
    const median = calibratedLatency(cal.clicks, cal.heard);
    if (median === null) {
      setStatus({ kind: 'listening', calibration: 'failed' });
      return;
    }
    setLatency(median);
    try {
      localStorage.setItem(LATENCY_KEY, String(median));
    } catch {
      // Private mode: the latency holds for this visit.
    }
    const p = probe();
    if (p) p.latency = median;
    setStatus({ kind: 'listening', calibration: 'ok' });
  }, []);

  /** Eight clicks from `at` (audio clock); a note on each measures the latency. */
  const runCalibration = useCallback(
    (at: number) => {
      const a = audio.current;
      if (!a) return;
      if (calibration.current) window.clearTimeout(calibration.current.timer);
      video?.pause();
      const clicks = Array.from({ length: CALIBRATION_CLICKS }, (_, k) => at + k * CAL_GAP_S);
      clicks.forEach((c, k) => {
        blip(a.context, c, k % 4 === 0, 0.6);
      });
      const end = (clicks[clicks.length - 1] ?? at) + CALIBRATION_AFTER_S + DECIDE_S;
      calibration.current = {
        clicks,
        heard: [],
        timer: window.setTimeout(finishCalibration, (end - a.context.currentTime) * 1000),
      };
      setStatus({ kind: 'calibrating', heard: 0 });
    },
    [video, finishCalibration],
  );

  const calibrate = useCallback(() => {
    const a = audio.current;
    if (a) runCalibration(a.context.currentTime + CAL_LEAD_S);
  }, [runCalibration]);

  // Start and stop the microphone with `on`.
  useEffect(() => {
    if (!on) return;
    const run = { stopped: false };
    const stopped = () => run.stopped;
    void (async () => {
      const devices = navigator.mediaDevices as MediaDevices | undefined;
      if (!devices || typeof AudioWorkletNode === 'undefined') {
        setStatus({ kind: 'error', message: LISTEN_TEXT.unsupported });
        return;
      }
      let stream: MediaStream;
      try {
        stream = await devices.getUserMedia({
          audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
        });
      } catch (e) {
        if (run.stopped) return;
        const name = e instanceof DOMException ? e.name : '';
        setStatus({
          kind: 'error',
          message:
            name === 'NotFoundError' || name === 'OverconstrainedError'
              ? LISTEN_TEXT.noMic
              : LISTEN_TEXT.denied,
        });
        return;
      }
      if (run.stopped) {
        for (const t of stream.getTracks()) t.stop();
        return;
      }
      // 24 kHz is all the analysis reads (it would decimate 48 kHz to it): half the audio
      // thread's and the worklet's work.
      const context = new AudioContext({ latencyHint: 'interactive', sampleRate: LISTEN_RATE });
      await context.resume();
      await context.audioWorklet.addModule('/listen-capture.js');
      if (stopped()) {
        for (const t of stream.getTracks()) t.stop();
        void context.close();
        return;
      }
      const node = new AudioWorkletNode(context, 'riffscribe-listen-capture', {
        numberOfInputs: 1,
        numberOfOutputs: 1,
        channelCount: 1,
        channelCountMode: 'explicit',
      });
      // Pulled by the graph through a silent gain (a node nobody listens to may not run).
      const silent = context.createGain();
      silent.gain.value = 0;
      context
        .createMediaStreamSource(stream)
        .connect(node)
        .connect(silent)
        .connect(context.destination);
      const worker = new Worker(new URL('./listen.worker.ts', import.meta.url), { type: 'module' });
      const channel = new MessageChannel();
      node.port.postMessage({ port: channel.port1 }, [channel.port1]);
      worker.postMessage({ type: 'start', port: channel.port2, sampleRate: context.sampleRate }, [
        channel.port2,
      ]);
      audio.current = { context, stream, worker, node };
      const p = probe();
      if (p) p.context = context;
      lastLoud.current = context.currentTime;
      setStatus({ kind: 'listening', calibration: live.current.latency === null ? 'none' : 'ok' });
      worker.onmessage = (m: MessageEvent<FromWorker>) => {
        const msg = m.data;
        if (msg.type === 'onset') onOnset(msg.onset);
        else if (msg.type === 'level') {
          if (msg.level.rms >= QUIET_RMS) lastLoud.current = msg.level.time;
        } else if (msg.type === 'first') {
          const pr = probe();
          if (pr) pr.firstFrame = msg.start;
          // The first time on this browser: calibrate at once.
          if (live.current.latency === null) runCalibration(msg.start + CAL_LEAD_S);
        } else {
          const pr = probe();
          if (pr) (pr.cost ??= []).push(msg.busyMs / msg.audioMs);
        }
      };
    })();
    return () => {
      run.stopped = true;
      const a = audio.current;
      audio.current = null;
      if (calibration.current) window.clearTimeout(calibration.current.timer);
      calibration.current = null;
      if (a) {
        a.worker.terminate();
        a.node.disconnect();
        for (const t of a.stream.getTracks()) t.stop();
        void a.context.close();
      }
      pass.current = null;
      setWaiting(null);
      setQuiet(false);
      setStatus({ kind: 'off' });
    };
  }, [on, onOnset, runCalibration]);

  // The clock map, passes, sweeps, wait mode and the quiet check, every TICK_MS while on.
  useEffect(() => {
    if (!on || !video) return;
    const onPlay = () => {
      if (waitPause.current) {
        waitPause.current = false;
        return;
      }
      if (!pass.current && audio.current) startPass(video.currentTime);
    };
    const onPause = () => {
      if (waitPause.current) return;
      endPass();
    };
    video.addEventListener('play', onPlay);
    video.addEventListener('pause', onPause);
    const timer = window.setInterval(() => {
      const a = audio.current;
      if (!a) return;
      const playing = !video.paused && !video.ended && !video.seeking;
      const now = a.context.currentTime;
      const lesson = video.currentTime;
      const samples = clock.current;
      samples.push({ ctx: now, lesson, rate: video.playbackRate || 1, playing });
      while (now - (samples[0]?.ctx ?? now) > 2) samples.shift();
      const waitingNow = live.current.waiting !== null;
      setQuiet((playing || waitingNow) && !calibration.current && now - lastLoud.current > QUIET_S);
      const p = pass.current;
      if (!playing || calibration.current) return;
      if (p && (lesson < p.last - 0.3 || lesson > p.last + 1)) {
        // A jump (a seek while playing): a new pass from here.
        endPass();
        startPass(lesson);
        return;
      }
      if (!p) {
        startPass(lesson);
        return;
      }
      p.last = lesson;
      // The speed it was played at (the trainer sets the next pass's just after it starts).
      p.speed = video.playbackRate || 1;
      const c = live.current.checker;
      if (live.current.waitMode) {
        const next = c.nextOpen(Math.max(p.from, lesson - 0.05));
        const g = c.groups[next];
        if (g && lesson >= g.time - 0.03) {
          waitPause.current = true;
          video.pause();
          live.current.waiting = next;
          setWaiting(next);
        }
        return;
      }
      if (c.sweep(p.from, lesson - DECIDE_S).length > 0) {
        setCurrent(c.score(p.from, lesson));
        bump();
      }
    }, TICK_MS);
    return () => {
      window.clearInterval(timer);
      video.removeEventListener('play', onPlay);
      video.removeEventListener('pause', onPause);
    };
  }, [on, video, startPass, endPass, bump]);

  const setWait = useCallback((on: boolean) => {
    setWaitMode(on);
    // Wait mode off: nothing to wait for.
    if (!on) {
      setWaiting(null);
      live.current.waiting = null;
    }
  }, []);

  const toggle = useCallback(() => {
    if (!on) setStatus({ kind: 'starting' });
    setOn(!on);
  }, [on]);
  const verdictOf = useCallback(
    (note: number) => {
      const g = noteGroup.get(note);
      return g === undefined ? undefined : checker.verdicts[g];
    },
    [noteGroup, checker],
  );

  const waitingGroup = waiting === null ? undefined : groups[waiting];
  return {
    status,
    on,
    toggle,
    calibrate,
    latency,
    quiet,
    waitMode,
    setWaitMode: setWait,
    headphones,
    setHeadphones,
    silenceLesson: on && !headphones,
    passes,
    current,
    verdictOf,
    version,
    waitingFor: waitingGroup ? groupLabel(waitingGroup, notes) : null,
    passCounts,
  };
}
