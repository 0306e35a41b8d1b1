import type { ChordEvent, Tuning } from '@riffscribe/core';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { NoteIndex } from '../model/noteIndex';
import type { Loop } from '../model/playerState';
import type { PlaybackBus } from '../playback/playbackBus';
import { staffStringNames } from '../fretboard/labels';
import { stringY, timelineLayout } from '../timeline/layout';
import { TimelineRenderer, type DrawnText } from '../timeline/renderer';
import { followScroll, xToTime, zoomFromWheel } from '../timeline/scale';
import { readCanvasTheme } from '../timeline/theme';
import { useCanvasSize, useColorScheme } from './useCanvasSize';

/** The timeline's canvas, telling where its text was drawn in the last frame. */
export type TimelineCanvasElement = HTMLCanvasElement & { drawnText?: () => DrawnText[] };

/**
 * The tab timeline on canvas. It redraws on every animation frame the bus announces (only when
 * something visible changed); a click or drag seeks (the view holds still while dragging), the
 * wheel zooms.
 */
export function TimelineCanvas(props: {
  bus: PlaybackBus;
  index: NoteIndex;
  chords: readonly ChordEvent[];
  chordText: (chord: ChordEvent) => string;
  zoom: number;
  loop: Loop | null;
  onSeek: (time: number) => void;
  onZoom: (zoom: number) => void;
  tuning: Tuning;
  capo: number;
}) {
  const { bus, index, chords, chordText, zoom, loop, onSeek, onZoom, tuning, capo } = props;
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const size = useCanvasSize(box);
  const dark = useColorScheme();
  const [renderer, setRenderer] = useState<TimelineRenderer | null>(null);
  const drag = useRef<number | null>(null);
  const live = useRef({ zoom, loop, onSeek, onZoom });
  useEffect(() => {
    live.current = { zoom, loop, onSeek, onZoom };
  }, [zoom, loop, onSeek, onZoom]);

  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    const r = new TimelineRenderer(el);
    setRenderer(r);
    // What the legibility test reads the pixels of (e2e/player-legibility.test.ts).
    (el as TimelineCanvasElement).drawnText = () => r.drawnText();
  }, []);
  const theme = useMemo(() => (box ? readCanvasTheme(box) : null), [box, dark]); // eslint-disable-line react-hooks/exhaustive-deps -- re-read when the scheme flips

  useEffect(() => {
    if (!renderer || !size || !theme) return;
    renderer.resize(size.width, size.height, size.dpr);
    renderer.setContent({ index, chords, chordText, zoom, theme });
    let last = '';
    const draw = () => {
      const scrollX = drag.current ?? followScroll(bus.time, zoom, size.width);
      const key = `${String(bus.time)}|${String(scrollX)}|${bus.sounding.join(',')}|${String(live.current.loop?.start)}`;
      if (key === last) return;
      last = key;
      renderer.draw(
        { zoom, scrollX, width: size.width },
        bus.time,
        bus.sounding,
        live.current.loop,
      );
    };
    draw();
    const off = bus.onFrame(draw);
    return () => {
      off();
    };
  }, [renderer, size, theme, index, chords, chordText, zoom, bus, loop]);

  useEffect(() => {
    const el = canvas.current;
    if (!el) return;
    // Non-passive, so the page does not scroll while zooming the tab.
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      live.current.onZoom(zoomFromWheel(live.current.zoom, e.deltaY));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      el.removeEventListener('wheel', onWheel);
    };
  }, []);

  const seekAt = (clientX: number, scrollX: number) => {
    const rect = canvas.current?.getBoundingClientRect();
    if (!rect) return;
    onSeek(Math.max(0, xToTime(clientX - rect.left, { zoom, scrollX, width: rect.width })));
  };

  const layout = size ? timelineLayout(size.height) : null;
  return (
    <div className="lp-timeline" ref={setBox}>
      <canvas
        ref={canvas}
        role="img"
        aria-label="Tablature timeline: click or drag to seek, wheel to zoom"
        data-testid="timeline"
        data-zoom={Math.round(zoom)}
        onPointerDown={(e) => {
          if (e.button !== 0 || !size) return;
          e.currentTarget.setPointerCapture(e.pointerId);
          drag.current = followScroll(bus.time, zoom, size.width);
          seekAt(e.clientX, drag.current);
        }}
        onPointerMove={(e) => {
          if (drag.current !== null) seekAt(e.clientX, drag.current);
        }}
        onPointerUp={() => {
          drag.current = null;
        }}
        onPointerCancel={() => {
          drag.current = null;
        }}
      />
      {layout && (
        <div className="lp-strings" data-testid="string-names" aria-label="Strings">
          {staffStringNames(tuning, capo).map((name, k) => (
            <span key={k} style={{ top: stringY(layout, k + 1) }}>
              {name}
            </span>
          ))}
        </div>
      )}
    </div>
  );
}
