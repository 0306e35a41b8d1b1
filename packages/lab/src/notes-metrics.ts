/**
 * Note-level precision, recall and F1 in the manner of mir_eval.transcription: a detected note
 * matches a reference note with the same MIDI pitch whose onset is within `onsetTolerance`
 * seconds (and, when `withOffsets`, whose offset is within max(offsetMin, offsetRatio * reference
 * duration)); the matching is one-to-one and maximal (bipartite matching by augmenting paths).
 */

export interface TimedNote {
  time: number;
  endTime: number;
  pitch: number;
}

export interface NoteScores {
  precision: number;
  recall: number;
  f1: number;
  matched: number;
  reference: number;
  estimated: number;
  /** Index pairs [reference, estimate] of the matching. */
  pairs: [number, number][];
}

export interface MatchOptions {
  onsetTolerance?: number;
  withOffsets?: boolean;
  offsetRatio?: number;
  offsetMin?: number;
}

export function scoreNotes(
  reference: readonly TimedNote[],
  estimate: readonly TimedNote[],
  opts: MatchOptions = {},
): NoteScores {
  const tol = opts.onsetTolerance ?? 0.05;
  const ratio = opts.offsetRatio ?? 0.2;
  const offMin = opts.offsetMin ?? 0.05;
  const edges: number[][] = reference.map((r) => {
    const out: number[] = [];
    estimate.forEach((e, j) => {
      if (e.pitch !== r.pitch) return;
      // A hair of slack against float rounding, as mir_eval does.
      if (Math.abs(e.time - r.time) > tol + 1e-9) return;
      if (opts.withOffsets === true) {
        const offTol = Math.max(offMin, ratio * (r.endTime - r.time));
        if (Math.abs(e.endTime - r.endTime) > offTol + 1e-9) return;
      }
      out.push(j);
    });
    return out;
  });
  const estOwner = new Array<number>(estimate.length).fill(-1);
  const tryAssign = (i: number, seen: boolean[]): boolean => {
    for (const j of edges[i] ?? []) {
      if (seen[j] === true) continue;
      seen[j] = true;
      const owner = estOwner[j] ?? -1;
      if (owner < 0 || tryAssign(owner, seen)) {
        estOwner[j] = i;
        return true;
      }
    }
    return false;
  };
  for (let i = 0; i < reference.length; i++) tryAssign(i, []);
  const pairs: [number, number][] = [];
  estOwner.forEach((i, j) => {
    if (i >= 0) pairs.push([i, j]);
  });
  const matched = pairs.length;
  const precision = estimate.length === 0 ? 0 : matched / estimate.length;
  const recall = reference.length === 0 ? 0 : matched / reference.length;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return {
    precision,
    recall,
    f1,
    matched,
    reference: reference.length,
    estimated: estimate.length,
    pairs,
  };
}
