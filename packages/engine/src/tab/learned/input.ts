import { guitarClassOfProgram, type FingeringSetup, type GuitarClass } from './features.js';
import type { PitchedNote } from './finger.js';

/**
 * The note list `riffscribe fingering` reads:
 * `{"tuning":[six MIDI pitches, low to high],"capo":N,"notes":[{"time":s,"end":s,"pitch":midi}]}`
 * with optional `"frets"` (highest usable fret, default 24), `"guitar"` ("nylon" | "steel" |
 * "electric") or `"program"` (General MIDI 24-31), and per note an optional `"pin"` (a string
 * 1..6 the note must keep). Other fields of a note are kept and written back.
 */
export interface FingeringInput {
  setup: FingeringSetup;
  guitar: GuitarClass;
  notes: (PitchedNote & Record<string, unknown>)[];
  pinned: Map<number, number>;
}

/** A note list that cannot be read: the sentence says what is wrong. */
export class FingeringInputError extends Error {}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Validates a parsed JSON value as a fingering input. Pure. */
export function parseFingeringInput(value: unknown): FingeringInput {
  if (!isRecord(value)) throw new FingeringInputError('The input must be a JSON object.');
  const { tuning, capo = 0, frets = 24, guitar, program, notes } = value;
  if (
    !Array.isArray(tuning) ||
    tuning.length !== 6 ||
    tuning.some((p) => !Number.isInteger(p) || (p as number) < 0 || (p as number) > 127)
  ) {
    throw new FingeringInputError('"tuning" must be six MIDI pitches, low string to high.');
  }
  if (!Number.isInteger(capo) || (capo as number) < 0 || (capo as number) > 12) {
    throw new FingeringInputError('"capo" must be a whole number 0-12.');
  }
  if (!Number.isInteger(frets) || (frets as number) < 1 || (frets as number) > 24) {
    throw new FingeringInputError('"frets" must be a whole number 1-24.');
  }
  let guitarClass: GuitarClass = 'unknown';
  if (guitar !== undefined) {
    if (guitar !== 'nylon' && guitar !== 'steel' && guitar !== 'electric') {
      throw new FingeringInputError('"guitar" must be "nylon", "steel" or "electric".');
    }
    guitarClass = guitar;
  } else if (program !== undefined) {
    if (!Number.isInteger(program) || (program as number) < 0 || (program as number) > 127) {
      throw new FingeringInputError('"program" must be 0-127.');
    }
    guitarClass = guitarClassOfProgram(program as number);
  }
  if (!Array.isArray(notes)) throw new FingeringInputError('"notes" must be a list.');
  const pinned = new Map<number, number>();
  const parsed = notes.map((n: unknown, i) => {
    if (!isRecord(n) || typeof n.time !== 'number' || !Number.isFinite(n.time)) {
      throw new FingeringInputError(`Note ${i}: "time" must be a number of seconds.`);
    }
    if (typeof n.pitch !== 'number' || !Number.isInteger(n.pitch)) {
      throw new FingeringInputError(`Note ${i}: "pitch" must be a whole MIDI pitch.`);
    }
    if (n.end !== undefined && (typeof n.end !== 'number' || n.end < n.time)) {
      throw new FingeringInputError(`Note ${i}: "end" must be a number not before "time".`);
    }
    if (n.pin !== undefined) {
      if (!Number.isInteger(n.pin) || (n.pin as number) < 1 || (n.pin as number) > 6) {
        throw new FingeringInputError(`Note ${i}: "pin" must be a string 1-6.`);
      }
      pinned.set(i, n.pin as number);
    }
    return { ...n, time: n.time, pitch: n.pitch };
  });
  return {
    setup: { tuning: tuning as number[], capo: capo as number, maxFret: frets as number },
    guitar: guitarClass,
    notes: parsed,
    pinned,
  };
}
