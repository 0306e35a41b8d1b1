import type { ChordDisplay } from '../model/playerState';

/**
 * Chord names with a capo (spec section 3): the stored names are what sounds; the capoed names
 * are the shapes a guitarist plays with the capo on, the sounding names shifted down by the capo.
 */

const LETTERS: Record<string, number> = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };
const SHARPS = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'];
const FLATS = ['C', 'Db', 'D', 'Eb', 'E', 'F', 'Gb', 'G', 'Ab', 'A', 'Bb', 'B'];
/** Names guitarists use for a root with no spelling to keep: C#, Eb, F#, Ab, Bb. */
const COMMON = ['C', 'C#', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'];

const ROOT = /^([A-G])([#b♯♭]?)/;
/** Chord-free markers that pass through unchanged. */
const NO_CHORD = /^(N|N\.?C\.?|-|none)$/i;

interface Note {
  pc: number;
  spelling: 'sharp' | 'flat' | 'natural';
  length: number;
}

function readNote(text: string): Note | null {
  const m = ROOT.exec(text);
  if (!m) return null;
  const [whole, letter = 'C', accidental = ''] = m;
  const shift = accidental === '#' || accidental === '♯' ? 1 : accidental ? -1 : 0;
  return {
    pc: ((LETTERS[letter] ?? 0) + shift + 12) % 12,
    spelling: shift > 0 ? 'sharp' : shift < 0 ? 'flat' : 'natural',
    length: whole.length,
  };
}

function spell(pc: number, spelling: Note['spelling']): string {
  const table = spelling === 'sharp' ? SHARPS : spelling === 'flat' ? FLATS : COMMON;
  return table[((pc % 12) + 12) % 12] ?? 'C';
}

/**
 * Moves a chord name by `semitones` (root and slash bass), keeping the quality text and the
 * name's own sharp or flat spelling. Names it cannot read are returned unchanged.
 */
export function transposeChordName(name: string, semitones: number): string {
  const trimmed = name.trim();
  if (semitones % 12 === 0 || NO_CHORD.test(trimmed)) return trimmed;
  const root = readNote(trimmed);
  if (!root) return trimmed;
  const rest = trimmed.slice(root.length);
  const slash = rest.lastIndexOf('/');
  let quality = rest;
  let bass = '';
  if (slash >= 0) {
    const b = readNote(rest.slice(slash + 1));
    if (b?.length === rest.slice(slash + 1).length) {
      quality = rest.slice(0, slash);
      bass = `/${spell(b.pc + semitones, b.spelling === 'natural' ? root.spelling : b.spelling)}`;
    }
  }
  return `${spell(root.pc + semitones, root.spelling)}${quality}${bass}`;
}

/** The name to show: as stored (original) or shifted down by the capo (capoed). */
export function displayChordName(name: string, display: ChordDisplay, capo: number): string {
  return display === 'capoed' && capo > 0 ? transposeChordName(name, -capo) : name.trim();
}
