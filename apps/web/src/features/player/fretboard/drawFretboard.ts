import { FRETBOARD_FRETS, STRING_COUNT, type Tuning } from '@riffscribe/core';
import type { FretChoice } from '../review/reviewQueue';
import { noteNameOfOpen } from './labels';
import type { CanvasTheme } from '../timeline/theme';
import {
  INLAYS,
  NUT_X,
  capoX,
  fretWireX,
  stringLineY,
  positionPoint,
  type FingerDot,
  type FretboardBox,
} from './geometry';

/**
 * Draws the neck (22 frets, inlays, capo, string names), the dots of the sounding notes and, in
 * edit mode, the selected note's place (filled) and the other places of its pitch (rings to
 * click).
 */
export function drawFretboard(
  ctx: CanvasRenderingContext2D,
  box: FretboardBox,
  theme: CanvasTheme,
  tuning: Tuning,
  capo: number,
  dots: readonly FingerDot[],
  choice: FretChoice | null = null,
): void {
  const { width, height } = box;
  ctx.fillStyle = theme.background;
  ctx.fillRect(0, 0, width, height);
  const top = stringLineY(1, box) - 8;
  const bottom = stringLineY(STRING_COUNT, box) + 8;
  ctx.fillStyle = theme.dark ? '#241d17' : '#e8dcc8';
  ctx.fillRect(NUT_X, top, fretWireX(FRETBOARD_FRETS, box) - NUT_X, bottom - top);
  ctx.fillStyle = theme.dark ? '#5a4b3d' : '#c7b392';
  const mid = (top + bottom) / 2;
  for (const n of INLAYS) {
    const x = (fretWireX(n - 1, box) + fretWireX(n, box)) / 2;
    const ys = n === 12 ? [mid - (bottom - top) / 4, mid + (bottom - top) / 4] : [mid];
    for (const y of ys) {
      ctx.beginPath();
      ctx.arc(x, y, 4, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
  ctx.strokeStyle = theme.dark ? '#8a8f99' : '#9a968c';
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  for (let n = 1; n <= FRETBOARD_FRETS; n += 1) {
    const x = Math.round(fretWireX(n, box)) + 0.5;
    ctx.moveTo(x, top);
    ctx.lineTo(x, bottom);
  }
  ctx.stroke();
  ctx.fillStyle = theme.dark ? '#e9e2d0' : '#fbf8f0';
  ctx.fillRect(NUT_X - 3, top, 5, bottom - top);
  ctx.fillStyle = theme.muted;
  ctx.font = `600 10px 'Inter Var', Inter, system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  for (const n of INLAYS) {
    ctx.fillText(String(n), (fretWireX(n - 1, box) + fretWireX(n, box)) / 2, bottom + 3);
  }
  for (let s = 1; s <= STRING_COUNT; s += 1) {
    const y = stringLineY(s, box);
    ctx.strokeStyle = theme.dark ? '#b9b2a3' : '#8a857a';
    ctx.lineWidth = 0.8 + (s - 1) * 0.3;
    ctx.beginPath();
    ctx.moveTo(NUT_X, y);
    ctx.lineTo(fretWireX(FRETBOARD_FRETS, box), y);
    ctx.stroke();
    ctx.fillStyle = theme.muted;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillText(noteNameOfOpen(tuning, s, capo), 2, y);
  }
  if (capo > 0) {
    const x = capoX(capo, box);
    ctx.fillStyle = theme.dark ? '#c9ced8' : '#3b3f48';
    ctx.beginPath();
    ctx.roundRect(x - 4, top - 6, 8, bottom - top + 12, 4);
    ctx.fill();
  }
  ctx.font = `700 11px 'Inter Var', Inter, system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (const d of dots) {
    ctx.fillStyle = d.muted ? theme.muted : theme.accent;
    ctx.beginPath();
    ctx.arc(d.x, d.y, 9, 0, 2 * Math.PI);
    ctx.fill();
    ctx.fillStyle = theme.accentText;
    ctx.fillText(d.label, d.x, d.y + 0.5);
  }
  if (choice) drawChoice(ctx, box, theme, capo, choice);
}

function drawChoice(
  ctx: CanvasRenderingContext2D,
  box: FretboardBox,
  theme: CanvasTheme,
  capo: number,
  choice: FretChoice,
): void {
  ctx.font = `700 11px 'Inter Var', Inter, system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.lineWidth = 2;
  for (const p of choice.others) {
    const { x, y } = positionPoint(p, capo, box);
    ctx.fillStyle = theme.background;
    ctx.strokeStyle = theme.selection;
    ctx.setLineDash([3, 2]);
    ctx.beginPath();
    ctx.arc(x, y, 10, 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = theme.text;
    ctx.fillText(String(p.fret), x, y + 0.5);
  }
  const { x, y } = positionPoint(choice.current, capo, box);
  ctx.fillStyle = theme.selection;
  ctx.beginPath();
  ctx.arc(x, y, 10, 0, 2 * Math.PI);
  ctx.fill();
  // Dark text on the dark scheme's light blue, white on the light scheme's deep blue.
  ctx.fillStyle = theme.dark ? '#0b1220' : '#ffffff';
  ctx.fillText(String(choice.current.fret), x, y + 0.5);
}
