import { CONVERSION_FALLBACK_PAUSE_MS, EXPORT_PREVIEW } from '@riffscribe/core';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Dialog } from '../../../ui/Dialog';
import { ProgressBar } from '../../../ui/ProgressBar';
import { readCanvasTheme } from '../timeline/theme';
import { ConversionError, convertToMp4, type Mp4Stage } from './convert';
import { EXPORT_OUTPUT, ExportRenderer, type ExportLesson } from './exportRenderer';
import {
  DEFAULT_FRAMING,
  FRAMING_CONTROLS,
  clampFraming,
  loadFraming,
  saveFraming,
  type ExportFraming,
} from './framing';
import { ExportCancelled, recordLesson } from './recorder';
import { download } from '../../../ui/download';

type Format = 'webm' | 'mp4';
type Phase =
  | { kind: 'setup' }
  | { kind: 'recording'; fraction: number }
  | { kind: Mp4Stage; fraction: number }
  | { kind: 'fallback'; message: string }
  | { kind: 'done'; fileName: string }
  | { kind: 'failed'; message: string };

const STAGE_LABEL: Record<string, string> = {
  recording: 'Recording',
  uploading: 'Uploading',
  converting: 'Converting',
  downloading: 'Downloading',
};

function fileStem(name: string): string {
  const stem = name
    .replace(/[^\p{L}\p{N} _-]+/gu, '')
    .trim()
    .replace(/\s+/g, '-');
  return stem || 'lesson';
}

/**
 * Export video with tabs (spec section 4): the framing editor with a live preview (the player's
 * video at its current time, drawn exactly as the export draws it), WebM or MP4, then the
 * recording in real time with its progress; MP4 goes on through upload, conversion on the server
 * and download, and falls back to the WebM with the spec's message if any step fails.
 */
export function ExportDialog(props: {
  open: boolean;
  onClose: () => void;
  jobId: string;
  lessonName: string;
  lesson: Omit<ExportLesson, 'theme'>;
  videoUrl: string | null;
  /** The player's video, for the preview's picture. */
  playerVideo: HTMLVideoElement | null;
  /** An element of the player, whose colours the overlay takes. */
  themeElement: Element | null;
}) {
  const { open, onClose, jobId, lesson, videoUrl, playerVideo, themeElement } = props;
  const [framing, setFraming] = useState<ExportFraming>(() => loadFraming(jobId));
  const [format, setFormat] = useState<Format>('webm');
  const [phase, setPhase] = useState<Phase>({ kind: 'setup' });
  /** How the last video was made (shown with the result, and read by the e2e test). */
  const [made, setMade] = useState<{ method: string; speed: number } | null>(null);
  const preview = useRef<HTMLCanvasElement>(null);
  const abort = useRef<AbortController | null>(null);
  const formatName = useId();
  const theme = useMemo(
    () => (themeElement ? readCanvasTheme(themeElement) : null),
    [themeElement, open], // eslint-disable-line react-hooks/exhaustive-deps -- re-read on open (scheme changes)
  );
  const exportLesson = useMemo(() => (theme ? { ...lesson, theme } : null), [lesson, theme]);

  // The live preview: redrawn when the framing changes or the player's video moves.
  useEffect(() => {
    const canvas = preview.current;
    if (!open || phase.kind !== 'setup' || !canvas || !exportLesson) return;
    const renderer = new ExportRenderer(canvas, exportLesson);
    const draw = () => {
      renderer.draw(playerVideo, playerVideo?.currentTime ?? 0, framing);
    };
    draw();
    playerVideo?.addEventListener('seeked', draw);
    playerVideo?.addEventListener('timeupdate', draw);
    return () => {
      playerVideo?.removeEventListener('seeked', draw);
      playerVideo?.removeEventListener('timeupdate', draw);
    };
  }, [open, phase.kind, exportLesson, playerVideo, framing]);

  useEffect(() => {
    saveFraming(jobId, framing);
  }, [jobId, framing]);

  // Closing the dialog stops whatever runs (and so does leaving the player).
  const close = () => {
    abort.current?.abort();
    abort.current = null;
    setPhase({ kind: 'setup' });
    onClose();
  };
  useEffect(
    () => () => {
      abort.current?.abort();
    },
    [],
  );

  const start = async () => {
    if (!videoUrl || !exportLesson) return;
    playerVideo?.pause();
    const controller = new AbortController();
    abort.current = controller;
    const stem = fileStem(props.lessonName);
    const canvas = document.createElement('canvas');
    canvas.width = EXPORT_OUTPUT.width;
    canvas.height = EXPORT_OUTPUT.height;
    const renderer = new ExportRenderer(canvas, exportLesson);
    let webm: Blob;
    try {
      setPhase({ kind: 'recording', fraction: 0 });
      const made = await recordLesson({
        videoUrl,
        canvas,
        draw: (video, time) => {
          renderer.draw(video, time, framing);
        },
        onProgress: (fraction) => {
          setPhase({ kind: 'recording', fraction });
        },
        signal: controller.signal,
      });
      webm = made.webm;
      setMade({ method: made.method, speed: made.speed });
    } catch (error) {
      if (error instanceof ExportCancelled) return;
      setPhase({
        kind: 'failed',
        message: error instanceof Error ? error.message : 'The recording failed.',
      });
      return;
    }
    const webmUrl = URL.createObjectURL(webm);
    if (format === 'webm') {
      download(webmUrl, `${stem}-tabs.webm`);
      setPhase({ kind: 'done', fileName: `${stem}-tabs.webm` });
      return;
    }
    try {
      const mp4 = await convertToMp4({
        jobId,
        webm,
        onStage: (kind, fraction) => {
          setPhase({ kind, fraction });
        },
        signal: controller.signal,
      });
      download(mp4, 'webm_converted.mp4');
      setPhase({ kind: 'done', fileName: 'webm_converted.mp4' });
    } catch (error) {
      if (error instanceof ExportCancelled) return;
      const reason = error instanceof ConversionError ? error.message : 'Conversion failed';
      setPhase({
        kind: 'fallback',
        message: `MP4 conversion failed: ${reason}. Downloading WebM instead...`,
      });
      await new Promise((resolve) => setTimeout(resolve, CONVERSION_FALLBACK_PAUSE_MS));
      if (controller.signal.aborted) return;
      download(webmUrl, `${stem}-tabs.webm`);
      setPhase({ kind: 'done', fileName: `${stem}-tabs.webm` });
    }
  };

  const working =
    phase.kind === 'recording' ||
    phase.kind === 'uploading' ||
    phase.kind === 'converting' ||
    phase.kind === 'downloading';

  return createPortal(
    <Dialog
      open={open}
      title="Export video with tabs"
      wide
      onClose={close}
      actions={
        phase.kind === 'setup' ? (
          <>
            <button type="button" className="button ghost" onClick={close}>
              Cancel
            </button>
            <button
              type="button"
              className="button"
              disabled={!videoUrl || !exportLesson}
              onClick={() => void start()}
            >
              Export
            </button>
          </>
        ) : (
          <button type="button" className="button ghost" onClick={close}>
            {working || phase.kind === 'fallback' ? 'Cancel' : 'Close'}
          </button>
        )
      }
    >
      {phase.kind === 'setup' ? (
        <div className="lp-export">
          <canvas
            ref={preview}
            className="lp-export-preview"
            width={EXPORT_PREVIEW.width}
            height={EXPORT_PREVIEW.height}
            aria-label="Preview of the exported video"
          />
          <div className="lp-export-settings">
            <fieldset className="lp-export-format">
              <legend>Format</legend>
              {(['webm', 'mp4'] as const).map((f) => (
                <label key={f}>
                  <input
                    type="radio"
                    name={formatName}
                    checked={format === f}
                    onChange={() => {
                      setFormat(f);
                    }}
                  />
                  {f === 'webm' ? 'WebM (fastest)' : 'MP4 (plays everywhere)'}
                </label>
              ))}
            </fieldset>
            {FRAMING_CONTROLS.map((c) => (
              <label key={c.key} className="lp-export-slider">
                <span>{c.label}</span>
                <input
                  type="range"
                  min={c.min}
                  max={c.max}
                  step={c.step}
                  value={framing[c.key]}
                  onChange={(e) => {
                    setFraming(clampFraming({ ...framing, [c.key]: Number(e.target.value) }));
                  }}
                />
              </label>
            ))}
            <button
              type="button"
              className="button small secondary"
              onClick={() => {
                setFraming({ ...DEFAULT_FRAMING });
              }}
            >
              Reset framing
            </button>
            <p className="muted small">
              {EXPORT_OUTPUT.width} × {EXPORT_OUTPUT.height}, 30 fps. Every frame is drawn and
              encoded here in the browser: a fast computer needs less time than the lesson lasts, a
              slow one more. Keep this tab open until the download starts.
            </p>
          </div>
        </div>
      ) : working ? (
        <div className="lp-export-progress" role="status">
          <p>
            {STAGE_LABEL[phase.kind] ?? 'Processing'}… {Math.round(phase.fraction * 100)}%
          </p>
          <ProgressBar value={phase.fraction * 100} label="Video generation progress" />
        </div>
      ) : phase.kind === 'fallback' ? (
        <p role="alert">{phase.message}</p>
      ) : phase.kind === 'done' ? (
        <p
          role="status"
          data-method={made?.method}
          data-speed={made ? made.speed.toFixed(2) : undefined}
        >
          Done: {phase.fileName} is downloading.
          {made && (
            <span className="muted small">
              {' '}
              Made {made.method} at {made.speed.toFixed(1)}× the lesson&apos;s speed.
            </span>
          )}
        </p>
      ) : (
        <p role="alert">{'message' in phase ? phase.message : ''}</p>
      )}
    </Dialog>,
    document.body,
  );
}
