import { STRING_COUNT } from '@riffscribe/core';
import { FRET_FONT_PX, type FretGlyph, type Glyphs } from './glyphs';
import { RULER_HEIGHT, stringY, type TimelineLayout } from './layout';
import type { RulerTick } from './scale';
import type { CanvasTheme } from './theme';

/**
 * Canvas strokes for the shapes glyphs.ts computes. Every function draws in content coordinates
 * (the caller translates), and none computes musical geometry of its own.
 */

export const FRET_FONT = `700 ${String(FRET_FONT_PX)}px 'Inter Var', Inter, system-ui, -apple-system, 'Segoe UI', sans-serif`;
const SMALL_FONT = `600 10px 'Inter Var', Inter, system-ui, -apple-system, 'Segoe UI', sans-serif`;
const CHORD_FONT = `700 13px 'Inter Var', Inter, system-ui, -apple-system, 'Segoe UI', sans-serif`;
const LABEL_FONT = `700 11px 'Inter Var', Inter, system-ui, -apple-system, 'Segoe UI', sans-serif`;

type Ctx = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

/** A bar line: where bar `number` (1 = the first) starts, seconds. */
export interface BarLine {
  time: number;
  number: number;
}

/** Distance above string 1's line of the bar numbers' middle, CSS px (the handle to drag). */
export const BAR_NUMBER_RISE = 14;

/** Lanes, string lines, bar lines with their numbers, and ruler between content x0 and x1. */
export function drawStaff(
  ctx: Ctx,
  layout: TimelineLayout,
  theme: CanvasTheme,
  x0: number,
  x1: number,
  ticks: readonly RulerTick[],
  zoom: number,
  bars: readonly BarLine[] = [],
): void {
  ctx.fillStyle = theme.background;
  ctx.fillRect(x0, 0, x1 - x0, layout.height);
  ctx.fillStyle = theme.lane;
  ctx.fillRect(x0, layout.rulerY, x1 - x0, RULER_HEIGHT);
  ctx.strokeStyle = theme.string;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let s = 1; s <= STRING_COUNT; s += 1) {
    // Half-pixel offsets keep 1 px lines sharp.
    const y = Math.round(stringY(layout, s)) + 0.5;
    ctx.moveTo(x0, y);
    ctx.lineTo(x1, y);
  }
  ctx.stroke();
  if (bars.length > 0) {
    // Bar lines across the staff, as tab is printed, numbered above string 1.
    const top = Math.round(stringY(layout, 1)) + 0.5;
    const bottom = Math.round(stringY(layout, STRING_COUNT)) + 0.5;
    ctx.strokeStyle = theme.muted;
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    for (const bar of bars) {
      const x = Math.round(bar.time * zoom) + 0.5;
      ctx.moveTo(x, top - BAR_NUMBER_RISE + 6);
      ctx.lineTo(x, bottom);
    }
    ctx.stroke();
    ctx.lineWidth = 1;
    ctx.fillStyle = theme.muted;
    ctx.font = LABEL_FONT;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    for (const bar of bars)
      ctx.fillText(String(bar.number), Math.round(bar.time * zoom) + 4, top - BAR_NUMBER_RISE);
  }
  ctx.strokeStyle = theme.ruler;
  ctx.fillStyle = theme.muted;
  ctx.font = SMALL_FONT;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  ctx.beginPath();
  for (const tick of ticks) {
    const x = Math.round(tick.time * zoom) + 0.5;
    const len = tick.label ? 9 : tick.major ? 6 : 3;
    ctx.moveTo(x, layout.rulerY);
    ctx.lineTo(x, layout.rulerY + len);
  }
  ctx.stroke();
  for (const tick of ticks) {
    if (tick.label) ctx.fillText(tick.label, Math.round(tick.time * zoom) + 3, layout.rulerY + 14);
  }
}

export function drawGlyphs(
  ctx: Ctx,
  g: Glyphs,
  layout: TimelineLayout,
  theme: CanvasTheme,
  doubt = false,
): void {
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.strokeStyle = theme.sustain;
  ctx.lineWidth = 2.5;
  for (const s of g.sustains) {
    const p = s.points;
    ctx.beginPath();
    ctx.moveTo(p[0] ?? 0, p[1] ?? 0);
    for (let k = 2; k < p.length; k += 2) ctx.lineTo(p[k] ?? 0, p[k + 1] ?? 0);
    ctx.stroke();
  }
  ctx.strokeStyle = theme.technique;
  ctx.fillStyle = theme.technique;
  ctx.lineWidth = 1.6;
  for (const s of g.slides) {
    ctx.beginPath();
    ctx.moveTo(s.x0, s.y0);
    ctx.lineTo(s.x1, s.y1);
    ctx.stroke();
  }
  ctx.font = SMALL_FONT;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  for (const l of g.legatos) {
    ctx.beginPath();
    ctx.moveTo(l.x0, l.y);
    ctx.quadraticCurveTo((l.x0 + l.x1) / 2, l.y - 2 * l.height, l.x1, l.y);
    ctx.stroke();
    if (l.label) ctx.fillText(l.label, (l.x0 + l.x1) / 2, l.y - l.height - 3);
  }
  ctx.font = LABEL_FONT;
  for (const b of g.bends) {
    const [x0, y0, cx, cy, x1, y1] = b.curve;
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.quadraticCurveTo(cx, cy, x1, y1 + 4);
    ctx.stroke();
    arrowHead(ctx, x1, y1, -1);
    ctx.fillText(b.label, x1, y1 - 5);
    if (b.release) {
      const [rx0, ry0, rcx, rcy, rx1, ry1] = b.release;
      ctx.beginPath();
      ctx.setLineDash([3, 3]);
      ctx.moveTo(rx0, ry0);
      ctx.quadraticCurveTo(rcx, rcy, rx1, ry1 - 4);
      ctx.stroke();
      ctx.setLineDash([]);
      arrowHead(ctx, rx1, ry1, 1);
    }
  }
  drawFrets(ctx, g.frets, theme, false, doubt);
  ctx.font = CHORD_FONT;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'middle';
  for (const c of g.chords) {
    ctx.fillStyle = theme.chord;
    if (!c.text) continue;
    ctx.fillText(c.text, c.x + 1, layout.chordY);
    const w = ctx.measureText(c.text).width;
    if (c.x1 - c.x > w + 10) {
      ctx.strokeStyle = theme.chord;
      ctx.globalAlpha = 0.35;
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(c.x + w + 6, layout.chordY + 0.5);
      ctx.lineTo(c.x1 - 2, layout.chordY + 0.5);
      ctx.moveTo(c.x1 - 2, layout.chordY - 3);
      ctx.lineTo(c.x1 - 2, layout.chordY + 4);
      ctx.stroke();
      ctx.globalAlpha = 1;
    }
  }
}

function arrowHead(ctx: Ctx, x: number, y: number, dir: 1 | -1): void {
  ctx.beginPath();
  ctx.moveTo(x, y);
  ctx.lineTo(x - 3.5, y - dir * 6);
  ctx.lineTo(x + 3.5, y - dir * 6);
  ctx.closePath();
  ctx.fill();
}

/**
 * Fret numbers on a knockout of the background; highlighted ones filled with the accent. With
 * `doubt` (the owner's editor), a doubtful note (review queue) gets a thick bar in the doubt
 * colour just under its knockout, so its digits keep their full contrast.
 */
export function drawFrets(
  ctx: Ctx,
  frets: readonly FretGlyph[],
  theme: CanvasTheme,
  highlight: boolean,
  doubt = false,
): void {
  ctx.font = FRET_FONT;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const h = FRET_FONT_PX + 3;
  for (const glyph of frets) {
    const f = doubt || !glyph.doubtful ? glyph : { ...glyph, doubtful: false };
    if (f.compact && !highlight) {
      ctx.fillStyle = f.doubtful ? theme.doubt : theme.text;
      ctx.fillRect(f.x - 1, f.y - 3, 2.5, 6);
      if (f.doubtful) ctx.fillRect(f.x - 2, f.y + 4, 4.5, 3);
      continue;
    }
    if (f.doubtful && !highlight) {
      ctx.fillStyle = theme.doubt;
      roundRect(ctx, f.x - f.halfWidth - 1, f.y + h / 2 + 1, f.halfWidth * 2 + 2, 3.5, 1.5);
      ctx.fill();
    }
    ctx.fillStyle = highlight ? theme.accent : theme.background;
    const w = f.halfWidth * 2;
    if (highlight) {
      roundRect(ctx, f.x - f.halfWidth - 1.5, f.y - h / 2 - 1.5, w + 3, h + 3, 4);
      ctx.fill();
    } else {
      ctx.fillRect(f.x - f.halfWidth, f.y - h / 2, w, h);
    }
    ctx.fillStyle = highlight ? theme.accentText : theme.text;
    ctx.fillText(f.text, f.x, f.y + 1);
  }
}

function roundRect(ctx: Ctx, x: number, y: number, w: number, h: number, r: number): void {
  ctx.beginPath();
  ctx.roundRect(x, y, w, h, r);
}
