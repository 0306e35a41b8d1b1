import { barLineTimes, type BeatGrid, type ChordEvent } from '@riffscribe/core';
import { firstStartingAt, type NoteIndex } from '../model/noteIndex';
import type { Loop } from '../model/playerState';
import { drawFrets, drawGlyphs, drawStaff, type BarLine } from './draw';
import {
  FRET_FONT_PX,
  buildGlyphs,
  chordLabelMask,
  chordLabelWidth,
  fretGlyph,
  type FretGlyph,
} from './glyphs';
import { timelineLayout, type TimelineLayout } from './layout';
import { STAFF_GUTTER, rulerTicks, type TimelineView } from './scale';
import { TileCache } from './tileCache';
import type { CanvasTheme } from './theme';

/** Content width of one cached tile, CSS px. */
const TILE_WIDTH = 512;
const MAX_TILES = 24;
/** How far glyphs reach outside their note's time (labels, slide-outs, chord names), CSS px. */
const GLYPH_MARGIN = 90;

export interface TimelineContent {
  index: NoteIndex;
  chords: readonly ChordEvent[];
  chordText: (chord: ChordEvent) => string;
  zoom: number;
  theme: CanvasTheme;
  /** The lesson's beats and bars: bar lines across the staff. */
  grid?: BeatGrid | undefined;
  /**
   * Marks the doubtful notes (the review queue's): only in the owner's editor, where they can be
   * fixed; viewers and exported videos get the plain tab.
   */
  doubt?: boolean;
}

/** Bar lines of `grid` between t0 and t1 seconds. */
export function barLinesBetween(grid: BeatGrid | undefined, t0: number, t1: number): BarLine[] {
  if (!grid) return [];
  return barLineTimes(grid)
    .map((time, bar) => ({ time, number: bar + 1 }))
    .filter(({ time }) => time >= t0 && time <= t1);
}

type Tile = HTMLCanvasElement | OffscreenCanvas;

/** What the editor shows over the tab: the selection and the rectangle being dragged. */
export interface TimelineOverlay {
  /** Indices of the selected notes. */
  notes: readonly number[];
  /** Index of the selected chord, null when none. */
  chord: number | null;
  /** Selection rectangle in content coordinates while dragging, null otherwise. */
  rect: { x0: number; y0: number; x1: number; y1: number } | null;
}

/** Listen & check's verdict per note (issue 40), drawn under each judged note. */
export interface ListenMarks {
  verdictOf: (note: number) => 'hit' | 'early' | 'late' | 'missed' | undefined;
  /** Changes whenever a verdict does. */
  version: number;
}

/** A piece of text the timeline drew, in CSS px from the canvas's top left corner. */
export interface DrawnText {
  kind: 'fret' | 'chord';
  text: string;
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * Draws the timeline. The static tab (lanes, strings, ruler, notes and technique glyphs) is drawn
 * once into tiles of 512 CSS px and cached; each frame only copies the visible tiles and draws
 * what moves: the loop band, the sounding notes and the playhead. So a frame costs the same for
 * 20 notes on screen as for 2,000, and only a new tile scrolling in builds glyphs.
 */
export class TimelineRenderer {
  private readonly ctx: CanvasRenderingContext2D;
  private content: TimelineContent | null = null;
  private chordLabels: Uint8Array = new Uint8Array(0);
  private layout: TimelineLayout = timelineLayout(240);
  private width = 0;
  private dpr = 1;
  private readonly tiles = new TileCache<Tile>(MAX_TILES);
  private lastView: TimelineView | null = null;

  constructor(private readonly canvas: HTMLCanvasElement) {
    const ctx = canvas.getContext('2d', { alpha: false });
    if (!ctx) throw new Error('This browser cannot draw on a canvas.');
    this.ctx = ctx;
  }

  /** Sizes the backing store to CSS size x devicePixelRatio, so lines and text stay crisp. */
  resize(cssWidth: number, cssHeight: number, dpr: number): void {
    const w = Math.max(1, Math.round(cssWidth * dpr));
    const h = Math.max(1, Math.round(cssHeight * dpr));
    if (this.canvas.width === w && this.canvas.height === h && this.dpr === dpr) return;
    this.canvas.width = w;
    this.canvas.height = h;
    this.width = cssWidth;
    this.dpr = dpr;
    this.layout = timelineLayout(cssHeight);
    this.tiles.clear();
  }

  /** New notes, chords, zoom or colours: the cached tiles no longer apply. */
  setContent(content: TimelineContent): void {
    const c = this.content;
    if (
      c?.index === content.index &&
      c.chords === content.chords &&
      c.chordText === content.chordText &&
      c.zoom === content.zoom &&
      c.theme === content.theme &&
      c.grid === content.grid &&
      c.doubt === content.doubt
    ) {
      return;
    }
    this.content = content;
    this.chordLabels = chordLabelMask(content.chords, content.chordText, content.zoom);
    this.tiles.invalidate();
  }

  draw(
    view: TimelineView,
    time: number,
    sounding: readonly number[],
    loop: Loop | null,
    overlay: TimelineOverlay | null = null,
    marks: ListenMarks | null = null,
  ): void {
    const content = this.content;
    const { ctx, dpr, layout } = this;
    if (!content) return;
    this.lastView = view;
    const scrollDevice = Math.round(view.scrollX * dpr);
    const first = Math.floor(view.scrollX / TILE_WIDTH);
    const last = Math.floor((view.scrollX + view.width) / TILE_WIDTH);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    for (let k = first; k <= last; k += 1) {
      const tile = this.tile(k, content);
      ctx.drawImage(tile, Math.round(k * TILE_WIDTH * dpr) - scrollDevice, 0);
    }
    // Moving parts, in CSS px with the same whole-device-pixel scroll as the tiles.
    ctx.setTransform(dpr, 0, 0, dpr, -scrollDevice, 0);
    const { theme, zoom } = content;
    if (loop) {
      ctx.fillStyle = theme.loop;
      ctx.fillRect(loop.start * zoom, 0, (loop.end - loop.start) * zoom, layout.rulerY);
      ctx.fillStyle = theme.accent;
      ctx.fillRect(loop.start * zoom - 1, 0, 2, layout.rulerY);
      ctx.fillRect(loop.end * zoom - 1, 0, 2, layout.rulerY);
    }
    const lit: FretGlyph[] = [];
    for (const i of sounding) {
      const f = fretGlyph(content.index, i, zoom, layout);
      if (f) lit.push(f);
    }
    drawFrets(ctx, lit, theme, true);
    if (marks) this.drawMarks(marks, content, view);
    if (overlay) this.drawOverlay(overlay, content, view);
    const x = Math.round(time * zoom * dpr) / dpr;
    ctx.fillStyle = theme.accent;
    ctx.fillRect(x - 1, 4, 2, layout.rulerY - 4);
    ctx.beginPath();
    ctx.moveTo(x - 6, 0);
    ctx.lineTo(x + 6, 0);
    ctx.lineTo(x, 8);
    ctx.closePath();
    ctx.fill();
  }

  /**
   * Listen & check's verdicts: a filled dot under a hit, a hollow ring under an early or late
   * note (with a tick on the side it was off), a cross under a missed one: told apart by shape,
   * not only by colour.
   */
  private drawMarks(marks: ListenMarks, content: TimelineContent, view: TimelineView) {
    const { ctx, layout } = this;
    const { theme, zoom, index } = content;
    const t0 = (view.scrollX - GLYPH_MARGIN) / zoom;
    const t1 = (view.scrollX + view.width + GLYPH_MARGIN) / zoom;
    const to = firstStartingAt(index.notes, t1);
    ctx.lineWidth = 2;
    for (let i = firstStartingAt(index.notes, t0); i < to; i += 1) {
      const v = marks.verdictOf(i);
      const f = v && fretGlyph(index, i, zoom, layout);
      if (!v || !f) continue;
      const x = f.x;
      // Under the fret number; above it where that would touch the ruler (the lowest string).
      const under = f.y + FRET_FONT_PX / 2 + 6;
      const y = under + 5 > layout.rulerY ? f.y - FRET_FONT_PX / 2 - 6 : under;
      if (v === 'hit') {
        ctx.fillStyle = theme.hit;
        ctx.beginPath();
        ctx.arc(x, y, 3.5, 0, 2 * Math.PI);
        ctx.fill();
      } else if (v === 'missed') {
        ctx.strokeStyle = theme.missed;
        ctx.beginPath();
        ctx.moveTo(x - 3.5, y - 3.5);
        ctx.lineTo(x + 3.5, y + 3.5);
        ctx.moveTo(x + 3.5, y - 3.5);
        ctx.lineTo(x - 3.5, y + 3.5);
        ctx.stroke();
      } else {
        ctx.strokeStyle = theme.off;
        ctx.beginPath();
        ctx.arc(x, y, 3.5, 0, 2 * Math.PI);
        ctx.moveTo(v === 'early' ? x - 3.5 : x + 3.5, y);
        ctx.lineTo(v === 'early' ? x - 7 : x + 7, y);
        ctx.stroke();
      }
    }
  }

  /** Selected notes ringed (their line's end marked as a handle), the chosen chord boxed. */
  private drawOverlay(overlay: TimelineOverlay, content: TimelineContent, view: TimelineView) {
    const { ctx, layout } = this;
    const { theme, zoom } = content;
    const left = view.scrollX - GLYPH_MARGIN;
    const right = view.scrollX + view.width + GLYPH_MARGIN;
    ctx.strokeStyle = theme.selection;
    ctx.fillStyle = theme.selection;
    ctx.lineWidth = 2;
    const h = FRET_FONT_PX + 3;
    for (const i of overlay.notes) {
      const f = fretGlyph(content.index, i, zoom, layout);
      const note = content.index.notes[i];
      if (!f || !note || f.x > right || note.end_time * zoom < left) continue;
      ctx.beginPath();
      ctx.roundRect(f.x - f.halfWidth - 3, f.y - h / 2 - 3, f.halfWidth * 2 + 6, h + 6, 5);
      ctx.stroke();
      ctx.fillRect(note.end_time * zoom - 1.5, f.y - 6, 3, 12);
    }
    const chord = overlay.chord === null ? undefined : content.chords[overlay.chord];
    if (chord) {
      const x0 = chord.time * zoom;
      ctx.beginPath();
      ctx.roundRect(x0 - 3, layout.chordY - 11, (chord.end_time - chord.time) * zoom + 4, 22, 5);
      ctx.stroke();
    }
    if (overlay.rect) {
      const { x0, y0, x1, y1 } = overlay.rect;
      ctx.globalAlpha = 0.12;
      ctx.fillRect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
      ctx.globalAlpha = 1;
      ctx.lineWidth = 1;
      ctx.strokeRect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
    }
  }

  /**
   * The fret numbers (not the dots of notes too close to print one) and chord names of the last
   * frame, where they are on the canvas: what a legibility check reads the pixels of.
   */
  drawnText(): DrawnText[] {
    const content = this.content;
    const view = this.lastView;
    if (!content || !view) return [];
    const { layout } = this;
    const t0 = view.scrollX / content.zoom;
    const t1 = (view.scrollX + view.width) / content.zoom;
    const glyphs = buildGlyphs({
      index: content.index,
      chords: content.chords,
      chordText: content.chordText,
      chordLabels: this.chordLabels,
      t0,
      t1,
      zoom: content.zoom,
      layout,
    });
    const out: DrawnText[] = [];
    const h = FRET_FONT_PX + 3;
    for (const f of glyphs.frets) {
      if (f.compact) continue;
      out.push({
        kind: 'fret',
        text: f.text,
        left: f.x - f.halfWidth - view.scrollX,
        top: f.y - h / 2,
        width: f.halfWidth * 2,
        height: h,
      });
    }
    for (const c of glyphs.chords) {
      if (!c.text) continue;
      out.push({
        kind: 'chord',
        text: c.text,
        left: c.x - view.scrollX,
        top: layout.chordY - 9,
        width: chordLabelWidth(c.text),
        height: 18,
      });
    }
    return out.filter((t) => t.left >= STAFF_GUTTER && t.left + t.width <= view.width);
  }

  private tile(k: number, content: TimelineContent): Tile {
    const cached = this.tiles.get(k);
    if (cached) return cached;
    const { dpr, layout } = this;
    const w = Math.round(TILE_WIDTH * dpr);
    const h = this.canvas.height;
    const tile: Tile = this.tiles.take(() =>
      typeof OffscreenCanvas === 'undefined'
        ? Object.assign(document.createElement('canvas'), { width: w, height: h })
        : new OffscreenCanvas(w, h),
    );
    const ctx = tile.getContext('2d');
    if (ctx) {
      const x0 = k * TILE_WIDTH;
      const x1 = x0 + TILE_WIDTH;
      const { zoom } = content;
      // Tile edges in whole device pixels, so neighbouring tiles meet without a seam.
      ctx.setTransform(dpr, 0, 0, dpr, -Math.round(x0 * dpr), 0);
      const t0 = x0 / zoom;
      const t1 = x1 / zoom;
      // Ticks from a little earlier, so a label that starts in the tile before continues here.
      const ticks = rulerTicks(Math.max(0, t0 - 60 / zoom), t1, zoom);
      drawStaff(
        ctx,
        layout,
        content.theme,
        x0,
        x1,
        ticks,
        zoom,
        barLinesBetween(content.grid, Math.max(0, t0 - 40 / zoom), t1),
      );
      const glyphs = buildGlyphs({
        index: content.index,
        chords: content.chords,
        chordText: content.chordText,
        chordLabels: this.chordLabels,
        t0: Math.max(0, t0 - GLYPH_MARGIN / zoom),
        t1: t1 + GLYPH_MARGIN / zoom,
        zoom,
        layout,
      });
      drawGlyphs(ctx, glyphs, layout, content.theme, content.doubt ?? false);
    }
    this.tiles.set(k, tile);
    return tile;
  }
}
