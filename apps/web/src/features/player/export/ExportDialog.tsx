import {
  CONVERSION_FALLBACK_PAUSE_MS,
  EXPORT_PREVIEW,
  bandPicture,
  exportFileName,
  exportLayout,
  type ExportPlacement,
} from '@riffscribe/core';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { Dialog } from '../../../ui/Dialog';
import { ProgressBar } from '../../../ui/ProgressBar';
import { readCanvasTheme } from '../timeline/theme';
import { ConversionError, convertOnServer, type Mp4Stage } from './convert';
import { EXPORT_OUTPUT, ExportRenderer, logoPng, type ExportLesson } from './exportRenderer';
import {
  DEFAULT_FRAMING,
  FRAMING_CONTROLS,
  clampFraming,
  loadFraming,
  saveFraming,
  type ExportFraming,
} from './framing';
import {
  ExportCancelled,
  recordLesson,
  renderBand,
  videoDuration,
  webCodecsAvailable,
} from './recorder';
import { download } from '../../../ui/download';

type Format = 'webm' | 'mp4';
type Phase =
  | { kind: 'setup' }
  /** `note`: why the video is being made in this browser (the server's part failed). */
  | { kind: 'recording'; fraction: number; note?: string | undefined }
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

/** The settings the server needs to place the video, the band and the logo. */
function placementOf(f: ExportFraming): ExportPlacement {
  const { overlayHeight, overlayY, videoZoom, videoOffsetX, videoOffsetY, logoX, logoY } = f;
  return { overlayHeight, overlayY, videoZoom, videoOffsetX, videoOffsetY, logoX, logoY };
}

/** A blob's bytes as base64 (no data: prefix). */
function base64Of(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = typeof reader.result === 'string' ? reader.result : '';
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => {
      reject(new Error('The logo could not be read.'));
    };
    reader.readAsDataURL(blob);
  });
}

/**
 * Export video with tabs (spec section 4): the framing editor with a live preview (the player's
 * video at its current time, drawn exactly as the export draws it), WebM or MP4, then the
 * spec's stages with true progress: recording (here, the tab overlay's band), uploading,
 * converting (the server puts the band over the lesson's video), downloading. If the server's
 * part fails, the video is made in this browser instead (for MP4 after the spec's message).
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
  const [made, setMade] = useState<{ method: string; seconds: number; speed: number } | null>(null);
  const began = useRef(0);
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

  /** Downloads the result and says how long the whole export took. */
  const finish = (url: string, fileName: string, method: string, lessonSeconds: number) => {
    download(url, fileName);
    setPhase({ kind: 'done', fileName });
    const seconds = (performance.now() - began.current) / 1000;
    setMade({ method, seconds, speed: seconds > 0 ? lessonSeconds / seconds : 0 });
  };

  /**
   * The fast path: the browser renders only the tab overlay's band (a few milliseconds a frame)
   * and the logo; the server puts them over the lesson's own video with ffmpeg, framed as here,
   * and encodes the MP4 or WebM. Returns false when this browser cannot render the band
   * (no WebCodecs VP8): the caller records the whole video instead.
   */
  const exportOnServer = async (
    lesson: ExportLesson,
    url: string,
    signal: AbortSignal,
    lessonName: string,
  ): Promise<boolean> => {
    const layout = exportLayout(framing, null, EXPORT_OUTPUT);
    const band = bandPicture(layout);
    if (!(await webCodecsAvailable(band.width, band.height))) return false;
    setPhase({ kind: 'recording', fraction: 0 });
    const seconds =
      playerVideo && Number.isFinite(playerVideo.duration) && playerVideo.duration > 0
        ? playerVideo.duration
        : await videoDuration(url, signal);
    const canvas = document.createElement('canvas');
    canvas.width = band.width;
    canvas.height = band.height;
    const renderer = new ExportRenderer(canvas, lesson);
    const webm = await renderBand({
      canvas,
      duration: seconds,
      draw: (time) => {
        renderer.drawBandOnly(canvas, time, framing);
      },
      onProgress: (fraction) => {
        setPhase({ kind: 'recording', fraction });
      },
      signal,
    });
    const logo = await base64Of(await logoPng(layout.scale));
    const result = await convertOnServer({
      jobId,
      webm,
      overlay: { format, framing: placementOf(framing), logo_png: logo },
      onStage: (kind, fraction) => {
        setPhase({ kind, fraction });
      },
      signal,
    });
    finish(result, exportFileName(lessonName, format), 'on the server', seconds);
    return true;
  };

  /**
   * The whole video made in this browser (every frame drawn and encoded here: slow at
   * 1536 x 2728), as a WebM: where the band cannot be rendered, and the fallback when the
   * server's part fails.
   */
  const recordHere = async (
    lesson: ExportLesson,
    url: string,
    signal: AbortSignal,
    note?: string,
  ): Promise<{ webm: Blob; method: string; seconds: number }> => {
    const canvas = document.createElement('canvas');
    canvas.width = EXPORT_OUTPUT.width;
    canvas.height = EXPORT_OUTPUT.height;
    const renderer = new ExportRenderer(canvas, lesson);
    setPhase({ kind: 'recording', fraction: 0, note });
    const made = await recordLesson({
      videoUrl: url,
      canvas,
      draw: (video, time) => {
        renderer.draw(video, time, framing);
      },
      onProgress: (fraction) => {
        setPhase({ kind: 'recording', fraction, note });
      },
      signal,
    });
    return { webm: made.webm, method: `${made.method} in this browser`, seconds: made.duration };
  };

  const start = async () => {
    if (!videoUrl || !exportLesson) return;
    playerVideo?.pause();
    const controller = new AbortController();
    abort.current = controller;
    const { signal } = controller;
    const lessonName = props.lessonName;
    began.current = performance.now();
    let note: string | undefined;
    try {
      if (await exportOnServer(exportLesson, videoUrl, signal, lessonName)) return;
    } catch (error) {
      if (error instanceof ExportCancelled) return;
      const reason =
        error instanceof ConversionError
          ? error.message
          : error instanceof Error
            ? error.message
            : 'Conversion failed';
      if (format === 'mp4') {
        // The spec's fallback: the WebM instead, after a pause to read why.
        setPhase({
          kind: 'fallback',
          message: `MP4 conversion failed: ${reason}. Downloading WebM instead...`,
        });
        await new Promise((resolve) => setTimeout(resolve, CONVERSION_FALLBACK_PAUSE_MS));
        if (signal.aborted) return;
        note = 'The server could not make the MP4: making the WebM in this browser (slower).';
      } else {
        note = `The server could not make the video (${reason}): making it in this browser instead (slower).`;
      }
    }

    let recorded: { webm: Blob; method: string; seconds: number };
    try {
      recorded = await recordHere(exportLesson, videoUrl, signal, note);
    } catch (error) {
      if (error instanceof ExportCancelled) return;
      setPhase({
        kind: 'failed',
        message: error instanceof Error ? error.message : 'The recording failed.',
      });
      return;
    }
    const webmUrl = URL.createObjectURL(recorded.webm);
    if (format === 'webm' || note !== undefined) {
      finish(webmUrl, exportFileName(lessonName, 'webm'), recorded.method, recorded.seconds);
      return;
    }
    // No band rendering in this browser: the whole recording is converted to MP4 as it is.
    try {
      const mp4 = await convertOnServer({
        jobId,
        webm: recorded.webm,
        onStage: (kind, fraction) => {
          setPhase({ kind, fraction });
        },
        signal,
      });
      finish(mp4, exportFileName(lessonName, 'mp4'), recorded.method, recorded.seconds);
    } catch (error) {
      if (error instanceof ExportCancelled) return;
      const reason = error instanceof ConversionError ? error.message : 'Conversion failed';
      setPhase({
        kind: 'fallback',
        message: `MP4 conversion failed: ${reason}. Downloading WebM instead...`,
      });
      await new Promise((resolve) => setTimeout(resolve, CONVERSION_FALLBACK_PAUSE_MS));
      if (signal.aborted) return;
      finish(webmUrl, exportFileName(lessonName, 'webm'), recorded.method, recorded.seconds);
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
                  {f === 'webm' ? 'WebM' : 'MP4 (plays everywhere)'}
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
              {EXPORT_OUTPUT.width} × {EXPORT_OUTPUT.height}, 30 fps. The tab is drawn here and put
              over the video on our server: about as long as the lesson lasts, or less. Keep this
              tab open until the download starts.
            </p>
          </div>
        </div>
      ) : working ? (
        <div className="lp-export-progress" role="status">
          {phase.kind === 'recording' && phase.note && <p>{phase.note}</p>}
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
              Made {made.method} in {Math.round(made.seconds)} s ({made.speed.toFixed(1)}× the
              lesson&apos;s speed).
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
