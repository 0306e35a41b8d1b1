import { FRETBOARD_FRETS, STRING_COUNT, type NoteEvent } from '@riffscribe/core';

/**
 * The live fretboard's geometry (spec section 9: 22 frets, 6 strings, capo shown), CSS px inside
 * a box of `width` x `height`. Frets are spaced as on a real neck (each 2^(-1/12) of the one
 * before), blended half-way with even spacing so the high frets stay wide enough to read.
 */
export interface FretboardBox {
  width: number;
  height: number;
}

/** Room left of the nut for open-string dots and string names. */
export const NUT_X = 34;
const PAD_TOP = 14;
/** Room under the neck for the fret numbers. */
const PAD_BOTTOM = 24;
const REAL = 0.5;

/** x of fret wire n (0 = the nut) .. FRETBOARD_FRETS. */
export function fretWireX(n: number, box: FretboardBox): number {
  const span = box.width - NUT_X - 8;
  const real = (1 - 2 ** (-n / 12)) / (1 - 2 ** (-FRETBOARD_FRETS / 12));
  const even = n / FRETBOARD_FRETS;
  return NUT_X + span * (REAL * real + (1 - REAL) * even);
}

/** The most room between two strings: a fullscreen board keeps a real neck's proportions. */
export const MAX_STRING_GAP = 40;

/**
 * y of string 1 (top, high e) .. 6. The strings are at most MAX_STRING_GAP apart; a taller box
 * centres the neck instead of stretching it.
 */
export function stringLineY(string: number, box: FretboardBox): number {
  const room = box.height - PAD_TOP - PAD_BOTTOM;
  const gap = Math.min(room / (STRING_COUNT - 1), MAX_STRING_GAP);
  const top = PAD_TOP + (room - gap * (STRING_COUNT - 1)) / 2;
  return top + gap * (string - 1);
}

/** Where a finger goes for absolute fret n: between wires n-1 and n; open strings left of the nut. */
export function fingerX(absoluteFret: number, box: FretboardBox): number {
  if (absoluteFret <= 0) return NUT_X / 2 + 4;
  const n = Math.min(absoluteFret, FRETBOARD_FRETS);
  return (fretWireX(n - 1, box) + fretWireX(n, box)) / 2 + 1;
}

/** Frets with inlay dots; 12 and 24 have two. */
export const INLAYS = [3, 5, 7, 9, 12, 15, 17, 19, 21];

export interface FingerDot {
  string: number;
  /** Fret counted from the nut: capo + the tab's fret. */
  absoluteFret: number;
  x: number;
  y: number;
  label: string;
  muted: boolean;
  /** At the capo (a 0 in a capo tab): drawn on the capo bar. */
  onCapo: boolean;
}

/** Dots for the sounding notes; with a capo, a tab 0 sounds at the capo fret. */
export function fingerDots(
  notes: readonly NoteEvent[],
  capo: number,
  box: FretboardBox,
): FingerDot[] {
  return notes.map((n) => {
    const absoluteFret = capo + n.fret;
    const onCapo = capo > 0 && n.fret === 0;
    return {
      string: n.string,
      absoluteFret,
      x: onCapo ? capoX(capo, box) : fingerX(absoluteFret, box),
      y: stringLineY(n.string, box),
      label: n.mute ? 'X' : String(n.fret),
      muted: n.mute,
      onCapo,
    };
  });
}

/** The capo bar sits just behind fret wire `capo`. */
export function capoX(capo: number, box: FretboardBox): number {
  return fretWireX(capo, box) - Math.min(7, (fretWireX(capo, box) - fretWireX(capo - 1, box)) / 3);
}

/** Where the fretboard draws a place (string, fret relative to the capo): as fingerDots does. */
export function positionPoint(
  position: { string: number; fret: number },
  capo: number,
  box: FretboardBox,
): { x: number; y: number } {
  const onCapo = capo > 0 && position.fret === 0;
  return {
    x: onCapo ? capoX(capo, box) : fingerX(capo + position.fret, box),
    y: stringLineY(position.string, box),
  };
}

/** A click lands on a dot within this many CSS px of its centre. */
export const PICK_RADIUS = 13;

/** The place among `positions` whose dot is under (x, y), the nearest; null when none is. */
export function pickPosition<P extends { string: number; fret: number }>(
  x: number,
  y: number,
  positions: readonly P[],
  capo: number,
  box: FretboardBox,
): P | null {
  let best: P | null = null;
  let bestDistance = PICK_RADIUS;
  for (const p of positions) {
    const point = positionPoint(p, capo, box);
    const d = Math.hypot(point.x - x, point.y - y);
    if (d <= bestDistance) {
      bestDistance = d;
      best = p;
    }
  }
  return best;
}
