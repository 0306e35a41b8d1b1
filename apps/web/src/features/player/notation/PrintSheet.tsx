import { AlphaTabApi, NotationElement, PlayerMode, type model } from '@coderline/alphatab';
import { spellTuning, tuningName } from '@riffscribe/core';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { sheetSettings } from './sheetSettings';

/**
 * The whole notation on paper: rendered apart from the player (every bar, no cursor, the width
 * of an A4 page) directly under the page's body, so that printing shows this sheet alone (the
 * print rules in player.css hide everything else). Its header names the lesson, tuning, capo and
 * tempo. Calls `onReady` once every bar is drawn, `onFailed` when alphaTab cannot draw.
 */
export function PrintSheet(props: {
  /** The lesson as an alphaTab score (toAlphaTab). */
  score: model.Score;
  /** Quarter notes a minute at the start. */
  tempo: number;
  title: string;
  tuning: readonly number[];
  capo: number;
  onReady: () => void;
  onFailed: () => void;
}) {
  const { score, tempo, title, tuning, capo } = props;
  const host = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const done = useEffectEvent(() => {
    setReady(true);
    props.onReady();
  });
  const failed = useEffectEvent(() => {
    props.onFailed();
  });

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const settings = sheetSettings();
    settings.core.enableLazyLoading = false;
    settings.player.playerMode = PlayerMode.Disabled;
    // The header below says it; alphaTab's own title would repeat it.
    settings.notation.elements.set(NotationElement.ScoreTitle, false);
    const api = new AlphaTabApi(element, settings);
    api.postRenderFinished.on(done);
    api.error.on(failed);
    api.renderScore(score, [0]);
    return () => {
      api.destroy();
    };
  }, [score]);

  return createPortal(
    <div className="lp-print-sheet" data-state={ready ? 'ready' : 'drawing'} aria-hidden="true">
      <header>
        <h1>{title}</h1>
        <p>
          Tuning {tuningName(tuning)} ({spellTuning(tuning)}) ·{' '}
          {capo > 0 ? `Capo ${String(capo)}` : 'No capo'} · ♩ = {Math.round(tempo)}
        </p>
      </header>
      <div ref={host} />
    </div>,
    document.body,
  );
}
