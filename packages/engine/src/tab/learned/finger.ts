import { viterbiStrings, type DecoderWeights, type Follow } from './decode.js';
import {
  MODEL_MAX_FRET,
  encodeFeatures,
  fretsFor,
  groupsOf,
  type FingeringSetup,
  type GuitarClass,
} from './features.js';

/** A note to finger: onset in seconds and MIDI pitch (the end is not used by the model). */
export interface PitchedNote {
  readonly time: number;
  readonly pitch: number;
}

/** Where one note goes: string 1..6 (1 = highest) and fret relative to the capo, or null. */
export interface Fingered {
  string: number | null;
  fret: number | null;
  /** The model's probability of the chosen string, 0..1 (0 where no string reaches). */
  confidence: number;
  /** The model's probability of each string (index 0 = string 1), 0 where it cannot play it. */
  probabilities: number[];
}

/** Notes in the model's order (time, then pitch, then input order) and their features. */
export interface PreparedFingering {
  /** order[k] = index in the input of the k-th note in model order. */
  order: number[];
  pitches: number[];
  times: number[];
  /** [N_FEATURES, n], channels first. */
  features: Float32Array;
  setup: FingeringSetup;
}

/** Sorts the notes and encodes the model's input. Pure. */
export function prepareFingering(
  notes: readonly PitchedNote[],
  setup: FingeringSetup,
  guitar: GuitarClass,
): PreparedFingering {
  const order = notes
    .map((_, i) => i)
    .sort(
      (a, b) =>
        (notes[a]?.time ?? 0) - (notes[b]?.time ?? 0) ||
        (notes[a]?.pitch ?? 0) - (notes[b]?.pitch ?? 0) ||
        a - b,
    );
  const pitches = order.map((i) => notes[i]?.pitch ?? 0);
  const times = order.map((i) => notes[i]?.time ?? 0);
  return {
    order,
    pitches,
    times,
    features: encodeFeatures(pitches, times, setup.tuning, setup.capo, guitar),
    setup,
  };
}

/**
 * Strings and frets from the model's log-probabilities (`logp`, [6, n] channels first, as the
 * ONNX model returns them) under the hand's rules; results in the input's order. `pinned` maps
 * an input index to the string (1..6) it must keep (ignored where that string cannot play the
 * pitch). `allowed` maps an input index to the only strings it may use (a re-fingering's hand
 * position or string set): the other strings are taken out of its candidates before the search,
 * so the hand's rules still hold among what is left; a note left with no string gets none
 * (string null), and the caller decides what that means. `follows` maps an input index to the
 * note (input index) it continues on one string: putting it on another string costs FOLLOW_COST,
 * and a slide carries the hand (decode.ts). Pure.
 */
export function decodeFingering(
  prepared: PreparedFingering,
  logp: Float32Array,
  weights: DecoderWeights,
  pinned?: ReadonlyMap<number, number>,
  allowed?: ReadonlyMap<number, readonly number[]>,
  follows?: ReadonlyMap<number, Follow>,
): Fingered[] {
  const { order, pitches, times, setup } = prepared;
  const n = pitches.length;
  const maxFret = Math.min(setup.maxFret, MODEL_MAX_FRET);
  const frets = pitches.map((p) => fretsFor(p, { ...setup, maxFret }));
  if (allowed) {
    order.forEach((input, k) => {
      const only = allowed.get(input);
      const row = frets[k];
      if (only && row) frets[k] = row.map((f, s) => (only.includes(s + 1) ? f : null));
    });
  }
  const rows = pitches.map((_, i) => [0, 1, 2, 3, 4, 5].map((k) => logp[k * n + i] ?? -Infinity));
  let pinnedSorted: Map<number, number> | undefined;
  if (pinned) {
    const position = new Map(order.map((input, k) => [input, k]));
    pinnedSorted = new Map();
    for (const [input, s] of pinned) {
      const k = position.get(input);
      // A pin no fret reaches is ignored rather than leaving the note without a string.
      if (k !== undefined && frets[k]?.[s - 1] != null) pinnedSorted.set(k, s);
    }
  }
  let followsSorted: Map<number, Follow> | undefined;
  if (follows) {
    const position = new Map(order.map((input, k) => [input, k]));
    followsSorted = new Map();
    for (const [input, { of, slide }] of follows) {
      const k = position.get(input);
      const j = position.get(of);
      if (k !== undefined && j !== undefined) followsSorted.set(k, { of: j, slide });
    }
  }
  const strings = viterbiStrings(
    groupsOf(times),
    frets,
    rows,
    times,
    weights,
    pinnedSorted,
    followsSorted,
  );
  const out = new Array<Fingered>(n);
  strings.forEach((s, k) => {
    const f = s > 0 ? (frets[k]?.[s - 1] ?? null) : null;
    const input = order[k] ?? k;
    const probabilities = [0, 1, 2, 3, 4, 5].map((c) =>
      frets[k]?.[c] == null ? 0 : Math.exp(rows[k]?.[c] ?? -Infinity),
    );
    out[input] =
      s > 0 && f !== null
        ? { string: s, fret: f, confidence: probabilities[s - 1] ?? 0, probabilities }
        : { string: null, fret: null, confidence: 0, probabilities };
  });
  return out;
}
