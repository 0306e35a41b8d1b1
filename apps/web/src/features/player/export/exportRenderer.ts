import {
  EXPORT_OUTPUT,
  bandPicture,
  exportLayout,
  type ChordEvent,
  type NoteEvent,
  type Tuning,
} from '@riffscribe/core';
import { drawFretboard } from '../fretboard/drawFretboard';
import { fingerDots } from '../fretboard/geometry';
import { soundingAt, type NoteIndex } from '../model/noteIndex';
import { TimelineRenderer } from '../timeline/renderer';
import { followScroll } from '../timeline/scale';
import type { CanvasTheme } from '../timeline/theme';
import type { ExportFraming } from './framing';

export { EXPORT_OUTPUT };

/**
 * The tab is drawn by the player's own renderer in CSS px and scaled up: this many CSS px of
 * tab height (the player's smallest comfortable layout), whatever the overlay's size in pixels,
 * so fret numbers grow with the overlay (about 36 px high in the default 1536 px wide video:
 * readable on a phone held upright).
 */
const TAB_CSS_HEIGHT = 200;
const FRETBOARD_CSS_HEIGHT = 96;

/** A frame of the lesson's video: the playing element, or a bitmap taken of it. */
export type ExportPicture = HTMLVideoElement | ImageBitmap;

function pictureSize(p: ExportPicture): { width: number; height: number } {
  return p instanceof HTMLVideoElement
    ? { width: p.videoWidth, height: p.videoHeight }
    : { width: p.width, height: p.height };
}

export interface ExportLesson {
  notes: readonly NoteEvent[];
  index: NoteIndex;
  chords: readonly ChordEvent[];
  chordText: (chord: ChordEvent) => string;
  tuning: Tuning;
  capo: number;
  theme: CanvasTheme;
}

/**
 * Draws one frame of an exported lesson video onto a canvas of any size with the export's
 * proportions (the recording's 1536 x 2728, or the framing editor's 270 x 480 preview): the video
 * framed by videoZoom/offsets, the tab overlay (chord names, tab with the playhead, the sounding
 * notes lit) with the fretboard under it, and the logo. Positions are EXPORT_CANVAS units.
 */
export class ExportRenderer {
  private readonly ctx: CanvasRenderingContext2D;
  private readonly tabCanvas = document.createElement('canvas');
  private readonly tab: TimelineRenderer;
  private readonly fretCanvas = document.createElement('canvas');
  private readonly fretCtx: CanvasRenderingContext2D;
  private sized = '';

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly lesson: ExportLesson,
  ) {
    const ctx = canvas.getContext('2d', { alpha: false });
    const fretCtx = this.fretCanvas.getContext('2d');
    if (!ctx || !fretCtx) throw new Error('This browser cannot draw on a canvas.');
    this.ctx = ctx;
    this.fretCtx = fretCtx;
    this.tab = new TimelineRenderer(this.tabCanvas);
  }

  /**
   * Draws the frame at `time` seconds; `video` is the lesson's video at that time (or null): the
   * element itself (the preview), or a bitmap of its frame (the export, see recorder.ts).
   */
  draw(video: ExportPicture | null, time: number, framing: ExportFraming): void {
    const { ctx, canvas } = this;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    const layout = exportLayout(framing, video ? pictureSize(video) : null, canvas);
    const box = layout.video;
    if (video && box) ctx.drawImage(video, box.x, box.y, box.width, box.height);
    const { top, tabHeight, fretHeight } = layout.band;
    this.drawBand(ctx, top, canvas.width, tabHeight, fretHeight, time, framing);
    drawLogo(ctx, layout.logo.x, layout.logo.y, layout.scale);
  }

  /**
   * Draws only the tab overlay's band at `time` on `target` (bandPicture's size, top at 0): what
   * the browser renders for the server, which puts it over the lesson's video (the band is
   * opaque, so nothing of the video under it is lost).
   */
  drawBandOnly(target: HTMLCanvasElement, time: number, framing: ExportFraming): void {
    const ctx = target.getContext('2d', { alpha: false });
    if (!ctx) throw new Error('This browser cannot draw on a canvas.');
    const band = bandPicture(exportLayout(framing, null, EXPORT_OUTPUT));
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    this.drawBand(ctx, 0, target.width, band.tabHeight, band.fretHeight, time, framing);
  }

  /** The overlay: tab then fretboard, drawn by the player's renderers and scaled in. */
  private drawBand(
    ctx: CanvasRenderingContext2D,
    top: number,
    width: number,
    tabHeight: number,
    fretHeight: number,
    time: number,
    framing: ExportFraming,
  ): void {
    const { lesson } = this;
    const dpr = tabHeight / TAB_CSS_HEIGHT;
    const cssWidth = width / dpr;
    const key = `${String(width)}x${String(tabHeight)}x${String(fretHeight)}|${String(framing.zoom)}`;
    if (key !== this.sized) {
      this.tab.resize(cssWidth, TAB_CSS_HEIGHT, dpr);
      this.tab.setContent({
        index: lesson.index,
        chords: lesson.chords,
        chordText: lesson.chordText,
        zoom: framing.zoom,
        theme: lesson.theme,
      });
      this.fretCanvas.width = Math.max(1, width);
      this.fretCanvas.height = Math.max(1, fretHeight);
      this.sized = key;
    }
    const sounding = soundingAt(lesson.index, time);
    this.tab.draw(
      { zoom: framing.zoom, scrollX: followScroll(time, framing.zoom, cssWidth), width: cssWidth },
      time,
      sounding,
      null,
    );
    ctx.drawImage(this.tabCanvas, 0, top, width, tabHeight);

    const fretDpr = fretHeight / FRETBOARD_CSS_HEIGHT;
    const box = { width: width / fretDpr, height: FRETBOARD_CSS_HEIGHT };
    const lit = sounding.map((i) => lesson.notes[i]).filter((n): n is NoteEvent => !!n);
    this.fretCtx.setTransform(fretDpr, 0, 0, fretDpr, 0, 0);
    drawFretboard(
      this.fretCtx,
      box,
      lesson.theme,
      lesson.tuning,
      lesson.capo,
      fingerDots(lit, lesson.capo, box),
    );
    ctx.drawImage(this.fretCanvas, 0, top + tabHeight, width, fretHeight);
  }
}

/** The logo's plate size at `scale` (output pixels per EXPORT_CANVAS unit). */
function logoSize(ctx: CanvasRenderingContext2D, scale: number) {
  const size = 96 * scale;
  const pad = 20 * scale;
  ctx.font = `700 ${String(64 * scale)}px Inter, system-ui, sans-serif`;
  const textWidth = ctx.measureText(LOGO_TEXT).width;
  return { size, pad, width: size + textWidth + pad * 3, height: size + pad * 2 };
}

const LOGO_TEXT = 'Riffscribe';

/**
 * The logo alone as a PNG (transparent around its plate), as the export draws it at `scale`:
 * the server puts it over the video where the framing says.
 */
export async function logoPng(scale: number): Promise<Blob> {
  const canvas = document.createElement('canvas');
  const probe = canvas.getContext('2d');
  if (!probe) throw new Error('This browser cannot draw on a canvas.');
  const { width, height } = logoSize(probe, scale);
  canvas.width = Math.ceil(width);
  canvas.height = Math.ceil(height);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('This browser cannot draw on a canvas.');
  drawLogo(ctx, 0, 0, scale);
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => {
      if (blob) resolve(blob);
      else reject(new Error('The logo could not be drawn.'));
    }, 'image/png');
  });
}

/** The brand mark and name on a dark plate, so it reads over any video. */
function drawLogo(ctx: CanvasRenderingContext2D, x: number, y: number, scale: number): void {
  ctx.save();
  const { size, pad, width, height } = logoSize(ctx, scale);
  ctx.fillStyle = 'rgba(11, 12, 16, 0.72)';
  roundRect(ctx, x, y, width, height, 24 * scale);
  ctx.fill();
  ctx.fillStyle = '#ffa53a';
  roundRect(ctx, x + pad, y + pad, size, size, 22 * scale);
  ctx.fill();
  ctx.fillStyle = '#1c0f02';
  ctx.fillRect(x + pad + size * 0.22, y + pad + size * 0.44, size * 0.56, size * 0.12);
  ctx.fillStyle = '#f4f1ea';
  ctx.textBaseline = 'middle';
  ctx.fillText(LOGO_TEXT, x + size + pad * 2, y + pad + size / 2);
  ctx.restore();
}

function roundRect(
  ctx: CanvasRenderingContext2D,
  x: number,
  y: number,
  w: number,
  h: number,
  r: number,
): void {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}
