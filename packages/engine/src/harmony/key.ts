/** A note as harmony sees it: when it sounds and its MIDI pitch. */
export interface SoundingNote {
  time: number;
  endTime: number;
  pitch: number;
}

/** Krumhansl-Kessler key profiles (probe-tone ratings), index 0 = tonic. */
const MAJOR = [6.35, 2.23, 3.48, 2.33, 4.38, 4.09, 2.52, 5.19, 2.39, 3.66, 2.29, 2.88];
const MINOR = [6.33, 2.68, 3.52, 5.38, 2.6, 3.53, 2.54, 4.75, 3.98, 2.69, 3.34, 3.17];

const MAJOR_NAMES = ['C', 'Db', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'];
const MINOR_NAMES = ['C', 'C#', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'G#', 'A', 'Bb', 'B'];

/** A detected key: tonic pitch class 0..11 and mode. */
export interface Key {
  tonic: number;
  mode: 'major' | 'minor';
}

function correlation(a: readonly number[], b: readonly number[]): number {
  const mean = (v: readonly number[]) => v.reduce((s, x) => s + x, 0) / v.length;
  const ma = mean(a);
  const mb = mean(b);
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = (a[i] ?? 0) - ma;
    const y = (b[i] ?? 0) - mb;
    num += x * y;
    da += x * x;
    db += y * y;
  }
  return da === 0 || db === 0 ? 0 : num / Math.sqrt(da * db);
}

/** Duration-weighted pitch-class histogram (seconds of sound per pitch class). */
export function pitchClassHistogram(notes: readonly SoundingNote[]): number[] {
  const hist = new Array<number>(12).fill(0);
  for (const n of notes) {
    const pc = ((Math.round(n.pitch) % 12) + 12) % 12;
    hist[pc] = (hist[pc] ?? 0) + Math.max(0, n.endTime - n.time);
  }
  return hist;
}

/**
 * The most likely key by the Krumhansl-Schmuckler method: the correlation of the clip's
 * duration-weighted pitch-class histogram with each rotated major and minor profile.
 * Null when there is nothing to judge.
 */
export function estimateKey(notes: readonly SoundingNote[]): Key | null {
  const hist = pitchClassHistogram(notes);
  if (hist.every((h) => h === 0)) return null;
  let best: Key = { tonic: 0, mode: 'major' };
  let bestScore = -Infinity;
  for (let tonic = 0; tonic < 12; tonic += 1) {
    const rotated = hist.map((_, i) => hist[(i + tonic) % 12] ?? 0);
    for (const [mode, profile] of [
      ['major', MAJOR],
      ['minor', MINOR],
    ] as const) {
      const score = correlation(rotated, profile);
      if (score > bestScore) {
        bestScore = score;
        best = { tonic, mode };
      }
    }
  }
  return best;
}

/** "Eb major", "F# minor": conventional spelling of the tonic for its mode. */
export function keyName(key: Key): string {
  const names = key.mode === 'major' ? MAJOR_NAMES : MINOR_NAMES;
  return `${names[key.tonic] ?? 'C'} ${key.mode}`;
}

/** The musical key of a clip as text ("E minor"), or '' when there are no notes. */
export function detectKey(notes: readonly SoundingNote[]): string {
  const key = estimateKey(notes);
  return key ? keyName(key) : '';
}

/** Whether a key is written with flats (F, Bb, Eb... major; D, G, C... minor). */
export function keyUsesFlats(key: Key | null): boolean {
  if (!key) return true;
  const majorTonic = key.mode === 'major' ? key.tonic : (key.tonic + 3) % 12;
  return [5, 10, 3, 8, 1].includes(majorTonic);
}
