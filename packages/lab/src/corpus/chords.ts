import type { Tuning } from '@riffscribe/core';
import { pitchClassOf } from '../metrics.js';

/**
 * Chord voicings for the corpus: a chord name (as it sounds) -> frets low string to high string
 * for a tuning and capo, the way a guitarist would grab it: an open shape when one exists at the
 * capo, else a barre shape with the root on the sixth or fifth string. Names follow the engine's
 * chord naming (root, then '', m, 7, m7, maj7, sus2, sus4, 5, add9, 6, optional /bass).
 */

const STANDARD = [40, 45, 50, 55, 59, 64];

type Shape = readonly (number | null)[];
const x = null;

/** Open shapes in standard tuning by (pitch class of root, quality[, bass]). */
const OPEN: Record<string, Shape> = {
  '0:': [x, 3, 2, 0, 1, 0],
  '0:maj7': [x, 3, 2, 0, 0, 0],
  '0:add9': [x, 3, 2, 0, 3, 0],
  '0:7': [x, 3, 2, 3, 1, 0],
  '0:/4': [0, 3, 2, 0, 1, 0],
  '7:': [3, 2, 0, 0, 0, 3],
  '7:7': [3, 2, 0, 0, 0, 1],
  '7:/11': [x, 2, 0, 0, 0, 3],
  '2:': [x, x, 0, 2, 3, 2],
  '2:m': [x, x, 0, 2, 3, 1],
  '2:7': [x, x, 0, 2, 1, 2],
  '2:sus4': [x, x, 0, 2, 3, 3],
  '2:sus2': [x, x, 0, 2, 3, 0],
  '2:/6': [2, x, 0, 2, 3, 2],
  '4:': [0, 2, 2, 1, 0, 0],
  '4:m': [0, 2, 2, 0, 0, 0],
  '4:7': [0, 2, 0, 1, 0, 0],
  '4:m7': [0, 2, 0, 0, 0, 0],
  '9:': [x, 0, 2, 2, 2, 0],
  '9:m': [x, 0, 2, 2, 1, 0],
  '9:7': [x, 0, 2, 0, 2, 0],
  '9:m7': [x, 0, 2, 0, 1, 0],
  '9:sus2': [x, 0, 2, 2, 0, 0],
  '9:sus4': [x, 0, 2, 2, 3, 0],
  '5:maj7': [x, x, 3, 2, 1, 0],
};
/** Movable shapes relative to the root fret on string 6 (E shapes) and string 5 (A shapes). */
const E_SHAPES: Record<string, Shape> = {
  '': [0, 2, 2, 1, 0, 0],
  m: [0, 2, 2, 0, 0, 0],
  '7': [0, 2, 0, 1, 0, 0],
  m7: [0, 2, 0, 0, 0, 0],
  sus4: [0, 2, 2, 2, 0, 0],
  '5': [0, 2, 2, x, x, x],
};
const A_SHAPES: Record<string, Shape> = {
  '': [x, 0, 2, 2, 2, 0],
  m: [x, 0, 2, 2, 1, 0],
  '7': [x, 0, 2, 0, 2, 0],
  m7: [x, 0, 2, 0, 1, 0],
  maj7: [x, 0, 2, 1, 2, 0],
  sus2: [x, 0, 2, 2, 0, 0],
  sus4: [x, 0, 2, 2, 3, 0],
  '5': [x, 0, 2, 2, x, x],
  add9: [x, 0, 2, 4, 2, 0],
  '6': [x, 0, 2, 2, 2, 2],
};

export interface ParsedChord {
  root: number;
  quality: string;
  bass: number | null;
}

export function parseChord(name: string): ParsedChord {
  const m = /^([A-G][b#]?)(m7|maj7|m|7|sus2|sus4|5|add9|6)?(?:\/([A-G][b#]?))?$/.exec(name);
  if (!m) throw new Error(`unknown chord name ${name}`);
  const root = pitchClassOf(m[1] ?? '');
  if (root === null) throw new Error(`unknown root in ${name}`);
  const bass = m[3] !== undefined ? pitchClassOf(m[3]) : null;
  return { root, quality: m[2] ?? '', bass };
}

const mod12 = (v: number) => ((v % 12) + 12) % 12;

/**
 * Frets (low string to high string, null = not played) for a sounding chord under a tuning and
 * capo. Shapes are chosen in standard tuning relative to the capo and moved onto other tunings by
 * pitch (a string that would need a negative fret is left out).
 */
export function voicing(name: string, tuning: Tuning, capo: number): (number | null)[] {
  const c = parseChord(name);
  const root = mod12(c.root - capo);
  const bassKey = c.bass !== null ? `/${mod12(c.bass - capo)}` : c.quality;
  let shape: Shape | undefined = OPEN[`${root}:${bassKey}`];
  if (shape === undefined && c.bass === null) {
    const eFret = mod12(root - 4);
    const aFret = mod12(root - 9);
    const e = E_SHAPES[c.quality];
    const a = A_SHAPES[c.quality];
    // Prefer the shape that sits lower on the neck, but not on the nut (those are open shapes).
    const useE =
      e !== undefined && (a === undefined || (eFret >= 1 && (eFret <= aFret || aFret < 1)));
    const base = useE ? e : a;
    const fret = useE ? (eFret === 0 ? 12 : eFret) : aFret === 0 ? 12 : aFret;
    if (base !== undefined) shape = base.map((f) => (f === null ? null : f + fret));
  }
  if (shape === undefined) throw new Error(`no voicing for ${name} with capo ${capo}`);
  return shape.map((f, i) => {
    if (f === null) return null;
    const pitch = (STANDARD[i] ?? 0) + f;
    const fret = pitch - (tuning[i] ?? 0);
    return fret >= 0 ? fret : null;
  });
}
