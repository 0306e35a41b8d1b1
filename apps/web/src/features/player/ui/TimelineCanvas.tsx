import { barLineTimes, type BeatGrid, type ChordEvent, type Tuning } from '@riffscribe/core';
import { useEffect, useMemo, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import type { NoteIndex } from '../model/noteIndex';
import type { Loop } from '../model/playerState';
import { perfLog, type PlaybackBus } from '../playback/playbackBus';
import { staffStringNames } from '../fretboard/labels';
import { stringY, timelineLayout, type TimelineLayout } from '../timeline/layout';
import {
  TimelineRenderer,
  type DrawnText,
  type ListenMarks,
  type TimelineOverlay,
} from '../timeline/renderer';
import { followScroll, xToTime, zoomFromWheel } from '../timeline/scale';
import { readCanvasTheme } from '../timeline/theme';
import { useCanvasSize, useColorScheme } from './useCanvasSize';

/** A pointer on the timeline in content coordinates (x = time * zoom, CSS px). */
export interface TimelinePoint {
  x: number;
  y: number;
  shift: boolean;
  /** Ctrl or Cmd. */
  mod: boolean;
  layout: TimelineLayout;
}

/**
 * The editor's hold on the timeline in edit mode. pointerDown answers 'seek' to let the click
 * seek as in view mode (it then gets no move or up); a drag it takes holds the view still.
 */
export interface TimelineEditing {
  overlay: TimelineOverlay;
  pointerDown: (p: TimelinePoint) => 'seek' | 'drag';
  pointerMove: (p: TimelinePoint) => void;
  /** The end of a drag; 'seek' when it turned out to be a click on nothing. */
  pointerUp: (p: TimelinePoint) => 'seek' | 'done';
  doubleClick: (p: TimelinePoint) => void;
}

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
  /** The lesson's beats and bars: bar lines across the staff. */
  grid?: BeatGrid | undefined;
  /** Edit mode's handlers; absent in view mode (and fullscreen, where the tab is read-only). */
  editing?: TimelineEditing | undefined;
  /** Listen & check's verdicts while it listens. */
  marks?: ListenMarks | null;
}) {
  const { bus, index, chords, chordText, zoom, loop, onSeek, onZoom, tuning, capo, grid, editing } =
    props;
  const [box, setBox] = useState<HTMLDivElement | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const size = useCanvasSize(box);
  const dark = useColorScheme();
  const [renderer, setRenderer] = useState<TimelineRenderer | null>(null);
  const drag = useRef<number | null>(null);
  /**
   * The view's scroll at the first click of a click sequence. That click seeks and the view
   * follows the playhead before the second click of a double-click comes: the second click and
   * the double-click are placed as the first one was, so they land where the user aimed.
   */
  const firstClickScroll = useRef<number | null>(null);
  const editDrag = useRef(false);
  const overlay = editing?.overlay ?? null;
  // The doubtful-note marks belong to the owner's editor (issue 37), not to a viewer's tab.
  const doubt = editing !== undefined;
  const marks = props.marks ?? null;
  const live = useRef({ zoom, loop, onSeek, onZoom, overlay, marks });
  useEffect(() => {
    live.current = { zoom, loop, onSeek, onZoom, overlay, marks };
  }, [zoom, loop, onSeek, onZoom, overlay, marks]);

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
    renderer.setContent({ index, chords, chordText, zoom, theme, grid, doubt });
    let last = '';
    let lastOverlay: TimelineOverlay | null = null;
    const draw = () => {
      const scrollX = drag.current ?? followScroll(bus.time, zoom, size.width);
      const key = `${String(bus.time)}|${String(scrollX)}|${bus.sounding.join(',')}|${String(live.current.loop?.start)}|${String(live.current.marks?.version)}`;
      if (key === last && live.current.overlay === lastOverlay) return;
      last = key;
      lastOverlay = live.current.overlay;
      renderer.draw(
        { zoom, scrollX, width: size.width },
        bus.time,
        bus.sounding,
        live.current.loop,
        live.current.overlay,
        live.current.marks,
      );
      perfLog()?.draws?.push({ at: performance.now(), index, overlay: live.current.overlay });
    };
    draw();
    const off = bus.onFrame(draw);
    return () => {
      off();
    };
  }, [renderer, size, theme, index, chords, chordText, zoom, bus, loop, overlay, grid, doubt]);

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

  const pointAt = (e: ReactMouseEvent<HTMLCanvasElement>, scrollX: number): TimelinePoint => {
    const rect = e.currentTarget.getBoundingClientRect();
    return {
      x: e.clientX - rect.left + scrollX,
      y: e.clientY - rect.top,
      shift: e.shiftKey,
      mod: e.ctrlKey || e.metaKey,
      layout: timelineLayout(rect.height),
    };
  };

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
        data-editing={editing ? 'true' : 'false'}
        data-bar-lines={
          grid
            ? barLineTimes(grid)
                .map((t) => t.toFixed(3))
                .join(' ')
            : ''
        }
        onPointerDown={(e) => {
          if (e.button !== 0 || !size) return;
          e.currentTarget.setPointerCapture(e.pointerId);
          drag.current = followScroll(bus.time, zoom, size.width);
          if (editing?.pointerDown(pointAt(e, drag.current)) === 'drag') {
            editDrag.current = true;
            return;
          }
          seekAt(e.clientX, drag.current);
        }}
        onMouseDown={(e) => {
          // After onPointerDown; only mouse events count clicks (detail 2 is a double-click's).
          if (e.detail <= 1) firstClickScroll.current = drag.current;
          else if (drag.current !== null && firstClickScroll.current !== null) {
            drag.current = firstClickScroll.current;
          }
        }}
        onPointerMove={(e) => {
          if (drag.current === null) return;
          if (editDrag.current) editing?.pointerMove(pointAt(e, drag.current));
          else seekAt(e.clientX, drag.current);
        }}
        onPointerUp={(e) => {
          if (editDrag.current && drag.current !== null && editing) {
            if (editing.pointerUp(pointAt(e, drag.current)) === 'seek') {
              seekAt(e.clientX, drag.current);
            }
          }
          editDrag.current = false;
          drag.current = null;
        }}
        onPointerCancel={() => {
          editDrag.current = false;
          drag.current = null;
        }}
        onDoubleClick={(e) => {
          if (!editing || !size) return;
          editing.doubleClick(
            pointAt(e, firstClickScroll.current ?? followScroll(bus.time, zoom, size.width)),
          );
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
