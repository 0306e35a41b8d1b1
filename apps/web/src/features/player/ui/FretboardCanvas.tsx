import type { NoteEvent, Tuning } from '@riffscribe/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import { drawFretboard } from '../fretboard/drawFretboard';
import { fingerDots } from '../fretboard/geometry';
import type { PlaybackBus } from '../playback/playbackBus';
import { readCanvasTheme } from '../timeline/theme';
import { useCanvasSize, useColorScheme } from './useCanvasSize';

/** The live fretboard: redrawn only when the set of sounding notes changes. */
export function FretboardCanvas(props: {
  bus: PlaybackBus;
  notes: readonly NoteEvent[];
  tuning: Tuning;
  capo: number;
}) {
  const { bus, notes, tuning, capo } = props;
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
      ctx.setTransform(size.dpr, 0, 0, size.dpr, 0, 0);
      drawFretboard(ctx, boxSize, theme, tuning, capo, fingerDots(sounding, capo, boxSize));
      el.dataset.lit = sounding
        .map((n) => `${String(n.string)}:${String(capo + n.fret)}`)
        .join(' ');
    };
    draw();
    return bus.subscribe(draw);
  }, [bus, notes, tuning, capo, size, theme]);

  return (
    <div className="lp-fretboard" ref={setBox}>
      <canvas
        ref={canvas}
        role="img"
        aria-label="Fretboard: the notes sounding now"
        data-testid="fretboard"
      />
    </div>
  );
}
