/**
 * Listen & check's calibration (issue 40), pure: the player sounds CALIBRATION_CLICKS clicks and
 * the guitarist plays a note on each; the microphone's delay is the median offset of the notes
 * heard near a click. The browser hook (useListen) plays the clicks and collects the attacks.
 */

/** Clicks played, and how many must each get a note for the delay to be measured. */
export const CALIBRATION_CLICKS = 8;
export const CALIBRATION_NEEDED = 5;
/** A note counts for a click from this long before it to this long after (seconds). */
export const CALIBRATION_BEFORE_S = 0.1;
export const CALIBRATION_AFTER_S = 0.4;

/** The first heard attack that counts for the click at `click`, if any (times in seconds). */
function noteFor(click: number, heard: readonly number[]): number | undefined {
  return heard.find((h) => h >= click - CALIBRATION_BEFORE_S && h <= click + CALIBRATION_AFTER_S);
}

/** How many of the clicks have a note so far. */
export function clicksAnswered(clicks: readonly number[], heard: readonly number[]): number {
  return clicks.filter((c) => noteFor(c, heard) !== undefined).length;
}

/**
 * The delay (seconds, heard minus click) as the median of the answered clicks' offsets; null when
 * fewer than CALIBRATION_NEEDED clicks were answered (the delay is not trusted then).
 */
export function calibratedLatency(
  clicks: readonly number[],
  heard: readonly number[],
): number | null {
  const offsets: number[] = [];
  for (const c of clicks) {
    const h = noteFor(c, heard);
    if (h !== undefined) offsets.push(h - c);
  }
  if (offsets.length < CALIBRATION_NEEDED) return null;
  offsets.sort((a, b) => a - b);
  return offsets[Math.floor(offsets.length / 2)] ?? null;
}
