import type { NoteEvent, Position, Tuning } from '@riffscribe/core';
import { useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { drawFretboard } from '../fretboard/drawFretboard';
import { fingerDots, pickPosition } from '../fretboard/geometry';
import type { PlaybackBus } from '../playback/playbackBus';
import type { FretChoice } from '../review/reviewQueue';
import { readCanvasTheme } from '../timeline/theme';
import { useCanvasSize, useColorScheme } from './useCanvasSize';

const places = (list: readonly Position[]) =>
  list.map((p) => `${String(p.string)}:${String(p.fret)}`).join(' ');

/**
 * The live fretboard: redrawn only when the set of sounding notes (or the edit mode's choice)
 * changes. In edit mode with one note selected it shows that note's place and the other places
 * of its pitch; clicking one of those moves the note there (`onPick`).
 */
export function FretboardCanvas(props: {
  bus: PlaybackBus;
  notes: readonly NoteEvent[];
  tuning: Tuning;
  capo: number;
  choice?: FretChoice | null;
  onPick?: (position: Position) => void;
  /** The left-handed view: the neck drawn from the right, its text still readable. */
  mirrored?: boolean;
}) {
  const { bus, notes, tuning, capo, choice = null, onPick, mirrored = false } = props;
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const size = useCanvasSize(box);
  const dark = useColorScheme();
  const theme = useMemo(() => (box ? readCanvasTheme(box) : null), [box, dark]); // eslint-disable-line react-hooks/exhaustive-deps -- re-read when the scheme flips

  useEffect(() => {
    const el = canvas.current;
    const ctx = el?.getContext('2d');
    if (!el || !ctx || !size || !theme) return;
    el.width = Math.round(size.width * size.dpr);
    el.height = Math.round(size.height * size.dpr);
    let drawn: readonly number[] | null = null;
    const draw = () => {
      if (drawn === bus.sounding) return;
      drawn = bus.sounding;
      const sounding = bus.sounding.map((i) => notes[i]).filter((n): n is NoteEvent => !!n);
      const boxSize = { width: size.width, height: size.height };
      const dots = fingerDots(sounding, capo, boxSize);
      if (mirrored) {
        ctx.setTransform(-size.dpr, 0, 0, size.dpr, size.width * size.dpr, 0);
        withReadableText(ctx, () => {
          drawFretboard(ctx, boxSize, theme, tuning, capo, dots, choice);
        });
      } else {
        ctx.setTransform(size.dpr, 0, 0, size.dpr, 0, 0);
        drawFretboard(ctx, boxSize, theme, tuning, capo, dots, choice);
      }
      el.dataset.lit = sounding
        .map((n) => `${String(n.string)}:${String(capo + n.fret)}`)
        .join(' ');
    };
    draw();
    return bus.subscribe(draw);
  }, [bus, notes, tuning, capo, size, theme, choice, mirrored]);

  const pick = (e: MouseEvent<HTMLCanvasElement>) => {
    if (!choice || !onPick || !size) return;
    const r = e.currentTarget.getBoundingClientRect();
    const x = mirrored ? r.right - e.clientX : e.clientX - r.left;
    const p = pickPosition(x, e.clientY - r.top, choice.others, capo, size);
    if (p) onPick(p);
  };

  return (
    <div className="lp-fretboard" ref={setBox}>
      <canvas
        ref={canvas}
        role="img"
        aria-label={
          choice
            ? 'Fretboard: the selected note and the other places of its pitch'
            : 'Fretboard: the notes sounding now'
        }
        data-testid="fretboard"
        data-mirrored={mirrored ? 'true' : 'false'}
        data-current={choice ? places([choice.current]) : undefined}
        data-choices={choice ? places(choice.others) : undefined}
        style={choice && choice.others.length > 0 ? { cursor: 'pointer' } : undefined}
        onClick={pick}
      />
    </div>
  );
}

/**
 * Runs `draw` on a context whose transform mirrors x, with its text drawn the right way round at
 * the mirrored place (left and right alignment swap sides with the mirror).
 */
function withReadableText(ctx: CanvasRenderingContext2D, draw: () => void): void {
  const fillText = ctx.fillText.bind(ctx);
  ctx.fillText = (text: string, x: number, y: number, maxWidth?: number) => {
    ctx.save();
    ctx.scale(-1, 1);
    const align = ctx.textAlign;
    if (align === 'left' || align === 'start') ctx.textAlign = 'right';
    else if (align === 'right' || align === 'end') ctx.textAlign = 'left';
    if (maxWidth === undefined) fillText(text, -x, y);
    else fillText(text, -x, y, maxWidth);
    ctx.restore();
  };
  try {
    draw();
  } finally {
    // Back to the prototype's own method.
    Reflect.deleteProperty(ctx, 'fillText');
  }
}
