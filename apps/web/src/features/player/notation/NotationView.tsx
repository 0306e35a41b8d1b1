import { AlphaTabApi, PlayerMode, ScrollMode, type model } from '@coderline/alphatab';
import {
  barStartTicks,
  scoreOf,
  tickAt,
  timeAt,
  writtenTempi,
  type BeatGrid,
  type ChordEvent,
  type NoteEvent,
} from '@riffscribe/core';
import { toAlphaTab } from '@riffscribe/core/notation';
import { useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import type { PlaybackBus } from '../playback/playbackBus';
import { PrintSheet } from './PrintSheet';
import { sheetSettings } from './sheetSettings';

/** alphaTab's cursor to `tick` (an imperative call on the instance, outside React's state). */
function moveCursor(api: AlphaTabApi, tick: number): void {
  api.tickPosition = tick;
}

/**
 * Standard notation with the tab below, by bars (alphaTab), synced to the video: the cursor
 * follows the player's clock (video time -> score tick through the lesson's bars, so a take in
 * free time keeps the cursor on the music), a click on a beat seeks the video there, and edits
 * re-render it (the score is rebuilt from the notes the editor holds). Rendered as ink on paper
 * in both colour schemes, as sheet music is read and printed.
 */
export function NotationView(props: {
  bus: PlaybackBus;
  notes: readonly NoteEvent[];
  chords: readonly ChordEvent[];
  grid: BeatGrid;
  title: string;
  tuning: readonly number[];
  capo: number;
  /** The lesson's key ("Eb major"): key signature and spelling. */
  musicalKey?: string;
  onSeek: (time: number) => void;
}) {
  const { bus, notes, chords, grid, title, tuning, capo, musicalKey, onSeek } = props;
  const host = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const [api, setApi] = useState<AlphaTabApi | null>(null);
  const [drawn, setDrawn] = useState<'loading' | 'ready' | 'failed'>('loading');
  // Printing: the sheet is drawn on the first request and kept while the view is open, so the
  // browser's own print command prints it too.
  const [sheet, setSheet] = useState<'off' | 'drawing' | 'ready' | 'failed'>('off');
  const printWhenReady = useRef(false);
  const score = useMemo(() => scoreOf(notes, grid), [notes, grid]);
  const starts = useMemo(() => barStartTicks(score), [score]);
  // The alphaTab model of the lesson; null when it cannot be built (shown as a failure).
  const built = useMemo((): model.Score | null => {
    try {
      return toAlphaTab(score, notes, {
        title,
        tuning,
        capo,
        chords,
        ...(musicalKey ? { key: musicalKey } : {}),
      });
    } catch {
      return null;
    }
  }, [score, notes, chords, title, tuning, capo, musicalKey]);
  const state = built === null ? 'failed' : drawn;

  const seekToTick = useEffectEvent((tick: number) => {
    onSeek(timeAt(score, starts, tick));
  });
  const tickNow = useEffectEvent(() => tickAt(score, starts, bus.time));

  // One alphaTab instance for the view's life.
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const settings = sheetSettings();
    settings.player.playerMode = PlayerMode.EnabledExternalMedia;
    settings.player.enableCursor = true;
    settings.player.enableAnimatedBeatCursor = false;
    settings.player.enableUserInteraction = true;
    settings.player.scrollMode = ScrollMode.Continuous;
    if (scroller.current) settings.player.scrollElement = scroller.current;
    const instance = new AlphaTabApi(element, settings);
    // The video is the clock: alphaTab's own play and seek requests have nothing to drive.
    const output = instance.player?.output as { handler?: unknown } | undefined;
    if (output) {
      output.handler = {
        backingTrackDuration: 0,
        playbackRate: 1,
        masterVolume: 0,
        seekTo: () => undefined,
        play: () => undefined,
        pause: () => undefined,
      };
    }
    instance.renderFinished.on(() => {
      setDrawn('ready');
    });
    instance.error.on(() => {
      setDrawn('failed');
    });
    instance.beatMouseDown.on((beat) => {
      seekToTick(beat.absolutePlaybackStart);
    });
    setApi(instance);
    return () => {
      instance.destroy();
      setApi(null);
    };
  }, []);

  // The score, again whenever the notes, chords or bars change.
  useEffect(() => {
    if (api && built) api.renderScore(built, [0]);
  }, [api, built]);

  // The cursor follows the clock (only when the tick changes: a paused video costs nothing), and
  // the view follows the cursor: when the cursor's bar is outside the scrolled view (playing on,
  // or a seek), the score scrolls it to a quarter of the way down. alphaTab scrolls by itself
  // only while its own player plays, and here the video is the player. While the video stands
  // still the reader may scroll freely.
  useEffect(() => {
    if (!api || state !== 'ready') return;
    let last = -1;
    let frame = 0;
    // alphaTab places its cursor for a new tick in a later frame: look for a few frames.
    let framesLeft = 0;
    const keepCursorInView = () => {
      framesLeft -= 1;
      const view = scroller.current;
      const bar = view?.querySelector('.at-cursor-bar');
      if (view && bar) {
        const v = view.getBoundingClientRect();
        const b = bar.getBoundingClientRect();
        if (b.height > 0 && (b.top < v.top || b.bottom > v.bottom)) {
          view.scrollTop += b.top - v.top - v.height / 4;
        }
      }
      if (framesLeft > 0) frame = requestAnimationFrame(keepCursorInView);
    };
    const follow = () => {
      const tick = tickNow();
      if (tick === last) return;
      last = tick;
      moveCursor(api, tick);
      cancelAnimationFrame(frame);
      framesLeft = 12;
      frame = requestAnimationFrame(keepCursorInView);
    };
    follow();
    const stop = bus.onFrame(follow);
    return () => {
      cancelAnimationFrame(frame);
      stop();
    };
  }, [api, bus, state]);

  const print = () => {
    if (sheet === 'ready') {
      window.print();
      return;
    }
    printWhenReady.current = true;
    setSheet('drawing');
  };

  return (
    <div
      className="lp-notation"
      ref={scroller}
      data-state={state}
      data-bars={score.bars.length}
      data-meters={score.bars
        .map((b) => `${String(b.numerator)}/${String(b.denominator)}`)
        .join(' ')}
    >
      <div className="lp-notation-bar">
        <button
          type="button"
          className="lp-notation-print"
          onClick={print}
          disabled={state !== 'ready' || sheet === 'drawing'}
        >
          {sheet === 'drawing' ? 'Preparing…' : 'Print'}
        </button>
        {sheet === 'failed' && (
          <span role="alert">The sheet could not be prepared for printing.</span>
        )}
      </div>
      {state === 'loading' && (
        <p className="lp-notation-status" role="status">
          Writing the notation…
        </p>
      )}
      {state === 'failed' && (
        <p className="lp-notation-status" role="alert">
          The notation could not be drawn. The tab view still shows every note.
        </p>
      )}
      {sheet !== 'off' && built && (
        <PrintSheet
          score={built}
          tempo={writtenTempi(score)[0] ?? 120}
          title={title}
          tuning={tuning}
          capo={capo}
          onReady={() => {
            setSheet('ready');
            if (printWhenReady.current) {
              printWhenReady.current = false;
              window.print();
            }
          }}
          onFailed={() => {
            setSheet('failed');
          }}
        />
      )}
      <div className="lp-notation-paper" ref={host} />
    </div>
  );
}
