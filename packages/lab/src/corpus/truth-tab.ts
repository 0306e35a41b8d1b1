import { guitarSetup } from '@riffscribe/engine';
import {
  type DetectedNote,
  fret,
  openPitch,
  stringNumber,
  type TabNote,
} from '@riffscribe/engine/stages';
import type { CorpusItem } from './corpus.js';

/**
 * Places detected notes on the strings of the true notes (the tab stage left out): a note takes
 * the string of the true note with its pitch sounding at its onset, else of the nearest true note
 * in time whose string can play it. For measuring techniques apart from the tab stage
 * (measure.ts --truth-tab).
 */
export function truthTab(notes: readonly DetectedNote[], item: CorpusItem): TabNote[] {
  const setup = guitarSetup(item.config);
  const open = (s: number) => openPitch(setup, s);
  const out: TabNote[] = [];
  for (const n of notes) {
    const playable = item.notes.filter((t) => {
      const f = n.pitch - open(t.string);
      return f >= 0 && f <= setup.frets;
    });
    const same = playable.find(
      (t) => open(t.string) + t.fret === n.pitch && t.time - 0.06 <= n.time && n.time < t.end_time,
    );
    const nearest =
      same ??
      [...playable].sort((a, b) => Math.abs(a.time - n.time) - Math.abs(b.time - n.time))[0];
    let s = nearest?.string;
    if (s === undefined) {
      for (let k = 6; k >= 1; k--) {
        const f = n.pitch - open(k);
        if (f >= 0 && f <= setup.frets) s = k;
      }
    }
    if (s === undefined) continue;
    out.push({ ...n, string: stringNumber(s), fret: fret(n.pitch - open(s)) });
  }
  return out;
}
