import { MAX_BEATS_PER_BAR, barTempo, beatsInBar, type BeatGrid } from '@riffscribe/core';
import { useEffect, useState } from 'react';
import type { Editor } from './useEditor';

const UNITS: readonly BeatGrid['beat_unit'][] = [2, 4, 8, 16];
const SCALES = [
  { factor: 2, label: 'Double the beats' },
  { factor: 0.5, label: 'Halve the beats' },
] as const;

/**
 * The bars of the lesson (issue 15), corrected by hand: the time signature from the bar at the
 * playhead on, a bar starting at the playhead (as the M key), twice or half as many beats (the
 * tracker heard double or half the tempo). Each is one undoable edit, saved with the notes;
 * bar lines are also dragged by their numbers on the tab.
 */
export function BarsPanel(props: { editor: Editor; onClose: () => void }) {
  const { editor, onClose } = props;
  const grid = editor.doc.beats;
  // The bar at the playhead when the panel opened: what "this bar" means until it closes.
  const [bar] = useState(() => editor.barAtPlayhead());
  const current = grid ? Math.min(bar, grid.downbeats.length - 1) : 0;
  const [perBar, setPerBar] = useState(() => (grid ? beatsInBar(grid, current) : 4));
  const [unit, setUnit] = useState<BeatGrid['beat_unit']>(grid?.beat_unit ?? 4);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
    };
  }, [onClose]);
  if (!grid) return null;
  const meter = `${String(beatsInBar(grid, current))}/${String(grid.beat_unit)}`;
  const tempo = Math.round(barTempo(grid, current));
  return (
    <div
      className="lp-panel lp-panel-right lp-refinger"
      role="dialog"
      aria-label="Bars and time signature"
      data-testid="bars-panel"
    >
      <p className="lp-refinger-title" data-testid="bars-summary">
        Bar {current + 1} of {grid.downbeats.length}: {meter}, {tempo} beats a minute
      </p>
      <div className="lp-refinger-strings">
        <label className="lp-edit-field">
          Beats a bar
          <select
            aria-label="Beats a bar"
            value={perBar}
            onChange={(e) => {
              setPerBar(Number(e.target.value));
            }}
          >
            {Array.from({ length: MAX_BEATS_PER_BAR }, (_, i) => i + 1).map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
        </label>
        <label className="lp-edit-field">
          Beat
          <select
            aria-label="Beat unit"
            value={unit}
            onChange={(e) => {
              setUnit(Number(e.target.value) as BeatGrid['beat_unit']);
            }}
          >
            {UNITS.map((u) => (
              <option key={u} value={u}>
                1/{u}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="lp-tool"
          onClick={() => {
            editor.setMeter(current, perBar, unit);
          }}
        >
          Apply from bar {current + 1}
        </button>
      </div>
      <div className="lp-refinger-actions">
        <button type="button" className="lp-tool" title="M" onClick={editor.tapBar}>
          Bar starts at the playhead
        </button>
      </div>
      <div className="lp-refinger-actions">
        {SCALES.map(({ factor, label }) => (
          <button
            key={factor}
            type="button"
            className="lp-tool"
            onClick={() => {
              editor.scaleBeats(factor);
            }}
          >
            {label}
          </button>
        ))}
      </div>
      <p className="lp-refinger-hint">
        Drag a bar number on the tab to move its bar line; press M on the one while the video plays
        to tap bars in. Ctrl/⌘ Z undoes.
      </p>
    </div>
  );
}
