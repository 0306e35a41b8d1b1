import {
  GENERATED_CURVE_POINTS,
  PITCH_DRAG_SEMITONES,
  PITCH_STEPS_PER_FRET,
  dragPitchPoint,
  resampleCurve,
  type NoteEvent,
} from '@riffscribe/core';
import { useRef } from 'react';

const W = 180;
const H = 64;
/** Vertical pixels per semitone: the +-3 semitones fill the box. */
const PX_PER_SEMITONE = (H - 8) / (2 * PITCH_DRAG_SEMITONES);

/**
 * The pitch-curve editor of one note (spec section 5): its curve as 9 handles, each dragged
 * vertically at most 3 semitones up or down; the points stay within -8..10. One drag is one edit.
 */
export function PitchCurveEditor(props: {
  note: NoteEvent;
  /** Previews the note while dragging (`done` false) and commits it at the end (`done` true). */
  onChange: (note: NoteEvent, done: boolean) => void;
}) {
  const { note, onChange } = props;
  const drag = useRef<{ point: number; y0: number; base: NoteEvent } | null>(null);
  const shown =
    note.pitch_arr.length === GENERATED_CURVE_POINTS
      ? note.pitch_arr
      : resampleCurve(note.pitch_arr, GENERATED_CURVE_POINTS);
  const x = (k: number) => 8 + (k * (W - 16)) / (GENERATED_CURVE_POINTS - 1);
  const y = (v: number) => H / 2 - ((v - 1) / PITCH_STEPS_PER_FRET) * PX_PER_SEMITONE;
  const path = shown.map((v, k) => `${k === 0 ? 'M' : 'L'}${String(x(k))},${String(y(v))}`);
  return (
    <figure className="lp-curve">
      <svg
        width={W}
        height={H}
        role="img"
        aria-label="Pitch curve"
        data-testid="pitch-curve"
        onPointerMove={(e) => {
          const d = drag.current;
          if (!d) return;
          const semitones = (d.y0 - e.clientY) / PX_PER_SEMITONE;
          onChange(dragPitchPoint(d.base, d.point, Math.round(semitones * 3) / 3), false);
        }}
        onPointerUp={(e) => {
          const d = drag.current;
          drag.current = null;
          if (!d) return;
          const semitones = (d.y0 - e.clientY) / PX_PER_SEMITONE;
          onChange(dragPitchPoint(d.base, d.point, Math.round(semitones * 3) / 3), true);
        }}
      >
        <line x1={0} x2={W} y1={H / 2} y2={H / 2} className="lp-curve-zero" />
        <path d={path.join(' ')} className="lp-curve-line" />
        {shown.map((v, k) => (
          <circle
            key={k}
            cx={x(k)}
            cy={y(v)}
            r={5}
            className="lp-curve-point"
            data-point={k}
            onPointerDown={(e) => {
              e.currentTarget.ownerSVGElement?.setPointerCapture(e.pointerId);
              drag.current = { point: k, y0: e.clientY, base: note };
            }}
          />
        ))}
      </svg>
      <figcaption>Drag the points vertically (±3 semitones at most)</figcaption>
    </figure>
  );
}
