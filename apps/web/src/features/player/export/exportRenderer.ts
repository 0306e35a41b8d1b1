import {
  DEFAULT_OUTPUT_RESOLUTION,
  EXPORT_CANVAS,
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

/** The exported video's size: the spec's upload default (1536 x 2728, portrait). */
export const EXPORT_OUTPUT = (() => {
  const [w, h] = DEFAULT_OUTPUT_RESOLUTION.split('x').map(Number);
  return { width: w ?? 1536, height: h ?? 2728 };
})();

/** Share of the overlay the tab takes; the fretboard has the rest. */
const TAB_SHARE = 0.7;
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
    const { ctx, canvas, lesson } = this;
    const scale = canvas.width / EXPORT_CANVAS.width;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, canvas.width, canvas.height);

    // The video: as wide as the picture, centred in the space above the tab, then zoomed about
    // its centre and moved by the offsets.
    const picture = video ? pictureSize(video) : null;
    if (video && picture && picture.width > 0) {
      const base = EXPORT_CANVAS.width / picture.width;
      const w = picture.width * base * framing.videoZoom;
      const h = picture.height * base * framing.videoZoom;
      const cx = EXPORT_CANVAS.width / 2 + framing.videoOffsetX;
      const cy = Math.max(h / 2, framing.overlayY / 2) + framing.videoOffsetY;
      ctx.drawImage(video, (cx - w / 2) * scale, (cy - h / 2) * scale, w * scale, h * scale);
    }

    // The overlay: tab then fretboard, drawn by the player's renderers and scaled in.
    const top = framing.overlayY * scale;
    const width = canvas.width;
    const height = framing.overlayHeight * scale;
    const tabHeight = Math.round(height * TAB_SHARE);
    const fretHeight = Math.round(height - tabHeight);
    const dpr = tabHeight / TAB_CSS_HEIGHT;
    const cssWidth = width / dpr;
    const key = `${String(width)}x${String(tabHeight)}|${String(framing.zoom)}`;
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

    this.drawLogo(framing.logoX * scale, framing.logoY * scale, scale);
  }

  /** The brand mark and name on a dark plate, so it reads over any video. */
  private drawLogo(x: number, y: number, scale: number): void {
    const { ctx } = this;
    const size = 96 * scale;
    ctx.save();
    ctx.font = `700 ${String(64 * scale)}px Inter, system-ui, sans-serif`;
    const text = 'Riffscribe';
    const textWidth = ctx.measureText(text).width;
    const pad = 20 * scale;
    ctx.fillStyle = 'rgba(11, 12, 16, 0.72)';
    roundRect(ctx, x, y, size + textWidth + pad * 3, size + pad * 2, 24 * scale);
    ctx.fill();
    ctx.fillStyle = '#ffa53a';
    roundRect(ctx, x + pad, y + pad, size, size, 22 * scale);
    ctx.fill();
    ctx.fillStyle = '#1c0f02';
    ctx.fillRect(x + pad + size * 0.22, y + pad + size * 0.44, size * 0.56, size * 0.12);
    ctx.fillStyle = '#f4f1ea';
    ctx.textBaseline = 'middle';
    ctx.fillText(text, x + size + pad * 2, y + pad + size / 2);
    ctx.restore();
  }
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
