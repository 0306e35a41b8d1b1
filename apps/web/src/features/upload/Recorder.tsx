import { useEffect, useRef } from 'react';
import { Icon } from '../../ui/Icon';
import { useRecorder } from './useRecorder';
import { recordingWarning } from './validation';

const clock = (seconds: number) => {
  const s = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};

/**
 * The 'Record Video' panel: Start Camera, Start/Stop Recording with a timer, Cancel, and a
 * preview with Re-record and Use This Recording. Ordinary users stop at 30 s, warned from 20 s.
 */
export function Recorder(props: {
  limitSeconds: number | null;
  onUse: (blob: Blob, seconds: number) => void;
}) {
  const { limitSeconds, onUse } = props;
  const rec = useRecorder(limitSeconds);
  const warning =
    rec.phase === 'recording' ? recordingWarning(rec.elapsed, limitSeconds !== null) : null;
  const live = rec.phase === 'camera' || rec.phase === 'recording';
  const stage = useRef<HTMLDivElement>(null);

  // The camera's picture (and the REC timer on it) in sight when the camera starts, recording
  // starts or the take is shown: not left under the sticky header, nor below the window.
  useEffect(() => {
    const el = stage.current;
    if (!el || !(live || rec.phase === 'stopped')) return;
    const header = document.querySelector('header');
    const top = el.getBoundingClientRect().top;
    const below = header ? Math.max(0, header.getBoundingClientRect().bottom) + 12 : 12;
    if (top < below) {
      window.scrollBy({ top: top - below });
    } else {
      const bottom = el.getBoundingClientRect().bottom;
      if (bottom > window.innerHeight) {
        window.scrollBy({ top: Math.min(bottom - window.innerHeight + 12, top - below) });
      }
    }
  }, [live, rec.phase]);

  return (
    <div className="recorder">
      <div
        ref={stage}
        className={`recorder-stage ${rec.phase === 'recording' ? 'is-recording' : ''}`}
      >
        {live && rec.stream ? (
          <video
            key="camera"
            className="recorder-video mirrored"
            aria-label="Camera preview"
            muted
            autoPlay
            playsInline
            ref={(el) => {
              if (el && el.srcObject !== rec.stream) el.srcObject = rec.stream;
            }}
          />
        ) : rec.phase === 'stopped' && rec.take ? (
          // Its own element: React would otherwise reuse the camera's, whose srcObject (the live
          // stream) wins over src, and the take would show as 0:00 on black.
          <video
            key={rec.take.url}
            className="recorder-video"
            aria-label="Recording preview"
            src={rec.take.url}
            controls
            playsInline
            preload="auto"
            onLoadedMetadata={(e) => {
              // Show a frame of the take, not the black before its first one.
              const video = e.currentTarget;
              if (video.currentTime === 0 && Number.isFinite(video.duration)) {
                video.currentTime = Math.min(0.1, video.duration / 2);
              }
            }}
          />
        ) : (
          <div className="recorder-placeholder">
            <Icon name="camera" size={34} />
            <p>
              {rec.phase === 'starting'
                ? 'Starting camera…'
                : 'Frame the whole fretboard, from the nut to the body, in good light.'}
            </p>
          </div>
        )}
        {rec.phase === 'recording' ? (
          <div className="recorder-badge" role="timer" aria-live="off">
            <span className="rec-dot" aria-hidden="true" /> REC {clock(rec.elapsed)}
            {limitSeconds !== null ? <span className="muted"> / {clock(limitSeconds)}</span> : null}
          </div>
        ) : null}
      </div>

      {warning ? (
        <p className="recorder-warning" role="status">
          {warning}
        </p>
      ) : null}
      {rec.error ? (
        <p className="form-error" role="alert">
          {rec.error}
        </p>
      ) : null}

      <div className="recorder-actions">
        {rec.phase === 'idle' || rec.phase === 'starting' ? (
          <button
            type="button"
            className="button"
            disabled={rec.phase === 'starting'}
            onClick={() => void rec.startCamera()}
          >
            <Icon name="camera" size={18} /> Start Camera
          </button>
        ) : null}
        {rec.phase === 'camera' ? (
          <button type="button" className="button record" onClick={rec.startRecording}>
            <Icon name="record" size={18} /> Start Recording
          </button>
        ) : null}
        {rec.phase === 'recording' ? (
          <button type="button" className="button record" onClick={rec.stopRecording}>
            <Icon name="stop" size={18} /> Stop Recording
          </button>
        ) : null}
        {rec.phase === 'stopped' && rec.take ? (
          <>
            <button type="button" className="button secondary" onClick={rec.reRecord}>
              <Icon name="refresh" size={18} /> Re-record
            </button>
            <button
              type="button"
              className="button"
              onClick={() => {
                if (rec.take) onUse(rec.take.blob, rec.take.seconds);
              }}
            >
              <Icon name="check" size={18} /> Use This Recording
            </button>
          </>
        ) : null}
        {live || rec.phase === 'stopped' ? (
          <button type="button" className="button ghost" onClick={rec.cancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </div>
  );
}
