import { fingerNotes, loadFingeringModel } from '../adapters/fingering-model.js';
import type { PitchedNote } from '../tab/learned/finger.js';
import { seededRandom } from '../random.js';

/** A dense made-up part: single notes and chords of 2-6 notes, about 8 onsets a second. */
function notesFor(seconds: number): PitchedNote[] {
  const r = seededRandom(42);
  const out: PitchedNote[] = [];
  for (let t = 0; t < seconds; t += 0.06 + r() * 0.12) {
    const size = r() < 0.7 ? 1 : 2 + Math.floor(r() * 5);
    const root = 40 + Math.floor(r() * 30);
    for (let k = 0; k < size; k += 1) out.push({ time: t, pitch: root + k * (3 + (k % 2)) });
  }
  return out;
}

/**
 * Wall time of the learned fingering (features, ONNX model, Viterbi), model load excluded: a
 * 30 s clip's notes and a 10-minute lesson's. Targets: under 30 ms and under 500 ms.
 */
export async function benchFingering(): Promise<{ clipMs: number; lessonMs: number }> {
  const setup = { tuning: [40, 45, 50, 55, 59, 64], capo: 0, maxFret: 22 };
  await loadFingeringModel();
  const time = async (notes: PitchedNote[]) => {
    let best = Infinity;
    for (let i = 0; i < 3; i += 1) {
      const start = performance.now();
      await fingerNotes(notes, setup, 'steel');
      best = Math.min(best, performance.now() - start);
    }
    return best;
  };
  const clip = notesFor(30);
  const lesson = notesFor(600);
  const clipMs = await time(clip);
  const lessonMs = await time(lesson);
  console.log(
    `fingering (model load excluded, best of 3): 30 s clip, ${clip.length} notes: ${clipMs.toFixed(1)} ms; ` +
      `10-minute lesson, ${lesson.length} notes: ${lessonMs.toFixed(1)} ms`,
  );
  return { clipMs, lessonMs };
}
