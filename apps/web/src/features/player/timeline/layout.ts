import { STRING_COUNT, clamp } from '@riffscribe/core';

/**
 * Vertical layout of the timeline canvas, CSS px from its top: the chord lane, the technique
 * lane where bend arrows end, six string lines (string 1, the high e, on top, as tab is read)
 * and the ruler at the bottom.
 */
export interface TimelineLayout {
  height: number;
  /** Middle of the chord-name lane. */
  chordY: number;
  /** Where bend arrows end; their labels sit just above it. */
  techniqueY: number;
  /** y of string 1's line. */
  firstStringY: number;
  /** Distance between string lines. */
  stringGap: number;
  /** Top of the ruler strip. */
  rulerY: number;
}

export const RULER_HEIGHT = 22;
const CHORD_LANE = 28;
const TECHNIQUE_LANE = 34;

export function timelineLayout(height: number): TimelineLayout {
  const rulerY = height - RULER_HEIGHT;
  const lanes = CHORD_LANE + TECHNIQUE_LANE;
  const room = rulerY - lanes - 22;
  const stringGap = clamp(room / (STRING_COUNT - 1), 14, 40);
  const staff = stringGap * (STRING_COUNT - 1);
  // Chord lane, technique lane and strings move together, centred above the ruler, so bend
  // arrows stay short however tall the canvas is.
  const top = Math.max(0, (rulerY - lanes - staff - 16) / 2);
  return {
    height,
    chordY: top + CHORD_LANE / 2 + 2,
    techniqueY: top + CHORD_LANE + 14,
    firstStringY: top + lanes + 4,
    stringGap,
    rulerY,
  };
}

/** y of string 1..6's line. */
export const stringY = (layout: TimelineLayout, string: number) =>
  layout.firstStringY + (string - 1) * layout.stringGap;
