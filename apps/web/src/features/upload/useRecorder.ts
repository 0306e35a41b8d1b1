import { MESSAGES } from '@riffscribe/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { webmWithDuration } from './webmDuration';

export type RecorderPhase = 'idle' | 'starting' | 'camera' | 'recording' | 'stopped';

/** A finished take: the recorded blob, an object URL for its preview, its length in seconds. */
export interface Take {
  blob: Blob;
  url: string;
  seconds: number;
}

const TICK_MS = 200;
const CHUNK_MS = 250;
const MIME_TYPES = [
  'video/webm;codecs=vp9,opus',
  'video/webm;codecs=vp8,opus',
  'video/webm',
  'video/mp4',
];

function pickMimeType(): string | undefined {
  return MIME_TYPES.find((t) => MediaRecorder.isTypeSupported(t));
}

/**
 * Camera recording (spec section 4, Recording): idle -> camera on -> recording (with a timer)
 * -> stopped with a preview. With `limitSeconds`, recording stops by itself at that length.
 * Time is read from Date.now() so that elapsed time survives throttled timers.
 */
export function useRecorder(limitSeconds: number | null) {
  const [phase, setPhase] = useState<RecorderPhase>('idle');
  const [stream, setStream] = useState<MediaStream | null>(null);
  const [elapsed, setElapsed] = useState(0);
  const [take, setTake] = useState<Take | null>(null);
  const [error, setError] = useState<string | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const timers = useRef<number[]>([]);
  const startedAt = useRef(0);
  const stoppedAt = useRef(0);

  const clearTimers = useCallback(() => {
    for (const t of timers.current) window.clearTimeout(t);
    timers.current = [];
  }, []);

  // Stops the camera when it is switched off or the recorder goes away.
  useEffect(() => {
    if (!stream) return;
    return () => {
      for (const track of stream.getTracks()) track.stop();
    };
  }, [stream]);

  useEffect(() => clearTimers, [clearTimers]);

  useEffect(() => {
    if (!take) return;
    return () => {
      URL.revokeObjectURL(take.url);
    };
  }, [take]);

  const startCamera = useCallback(async () => {
    setError(null);
    setPhase('starting');
    try {
      const media = await navigator.mediaDevices.getUserMedia({
        video: { width: { ideal: 1280 }, height: { ideal: 720 } },
        audio: true,
      });
      setStream(media);
      setPhase('camera');
    } catch {
      setError(MESSAGES.cameraDenied);
      setPhase('idle');
    }
  }, []);

  const stopRecording = useCallback(() => {
    clearTimers();
    const active = recorder.current;
    if (active && active.state !== 'inactive') {
      stoppedAt.current = Date.now();
      active.stop();
    }
  }, [clearTimers]);

  const startRecording = useCallback(() => {
    if (!stream) return;
    setError(null);
    try {
      const mimeType = pickMimeType();
      const rec = new MediaRecorder(stream, mimeType ? { mimeType } : {});
      const chunks: Blob[] = [];
      rec.ondataavailable = (event) => {
        if (event.data.size > 0) chunks.push(event.data);
      };
      rec.onstop = () => {
        const full = rec.mimeType !== '' ? rec.mimeType : (mimeType ?? 'video/webm');
        const type = full.split(';')[0] ?? 'video/webm';
        const blob = new Blob(chunks, { type });
        // Stopped by the browser (the camera went away): the take ends now.
        const end = stoppedAt.current > startedAt.current ? stoppedAt.current : Date.now();
        const seconds = (end - startedAt.current) / 1000;
        setElapsed(seconds);
        // The recorder writes no length into the WebM: without it the preview shows 0:00 and
        // cannot seek, and the upload's own check reads no duration.
        const finished = (take: Blob) => {
          setTake({ blob: take, url: URL.createObjectURL(take), seconds });
          setPhase('stopped');
        };
        if (type === 'video/webm') {
          webmWithDuration(blob, seconds).then(finished, () => {
            finished(blob);
          });
        } else {
          finished(blob);
        }
      };
      rec.start(CHUNK_MS);
      startedAt.current = Date.now();
      stoppedAt.current = startedAt.current;
      recorder.current = rec;
      setElapsed(0);
      setPhase('recording');
      const tick = () => {
        setElapsed((Date.now() - startedAt.current) / 1000);
        timers.current.push(window.setTimeout(tick, TICK_MS));
      };
      timers.current.push(window.setTimeout(tick, TICK_MS));
      if (limitSeconds !== null) {
        timers.current.push(window.setTimeout(stopRecording, limitSeconds * 1000));
      }
    } catch {
      setError(MESSAGES.recordingFailed);
    }
  }, [stream, limitSeconds, stopRecording]);

  /** Drops the take and goes back to the live camera. */
  const reRecord = useCallback(() => {
    setTake(null);
    setElapsed(0);
    setPhase('camera');
  }, []);

  /** Stops everything and switches the camera off. */
  const cancel = useCallback(() => {
    clearTimers();
    const active = recorder.current;
    if (active && active.state !== 'inactive') {
      active.onstop = null;
      active.stop();
    }
    recorder.current = null;
    setTake(null);
    setStream(null);
    setElapsed(0);
    setPhase('idle');
  }, [clearTimers]);

  return {
    phase,
    stream,
    elapsed,
    take,
    error,
    startCamera,
    startRecording,
    stopRecording,
    reRecord,
    cancel,
  };
}
