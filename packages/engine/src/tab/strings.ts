import type { TabNote } from '../types.js';
import { FRAME_RATE, seconds } from '../units.js';

/**
 * A string sounds one note at a time: a note still ringing on a string when the next note is
 * struck (or fretted) there ends at that moment. Its pitch contour is cut to match, so the next
 * note's pitch is never read as a bend of the one before. Order and everything else unchanged;
 * pure.
 */
export function oneNotePerString(tab: readonly TabNote[]): TabNote[] {
  const order = tab.map((_, i) => i).sort((a, b) => (tab[a]?.time ?? 0) - (tab[b]?.time ?? 0));
  const out = [...tab];
  const lastOn = new Map<number, number>();
  for (const i of order) {
    const note = out[i];
    if (!note) continue;
    const prevIndex = lastOn.get(note.string);
    const prev = prevIndex === undefined ? undefined : out[prevIndex];
    if (prevIndex !== undefined && prev && prev.endTime > note.time) {
      const end = Math.max(prev.time, note.time);
      const frames = Math.max(1, Math.floor((end - prev.time) * FRAME_RATE) + 1);
      out[prevIndex] = {
        ...prev,
        endTime: seconds(end),
        bend: prev.bend.length > frames ? prev.bend.slice(0, frames) : prev.bend,
      };
    }
    lastOn.set(note.string, i);
  }
  return out;
}
