import { parseArgs } from 'node:util';
import type { ChordEvent } from '@riffscribe/core';
import { transcribeAudio } from '@riffscribe/engine';
import { detectChords } from '@riffscribe/engine/stages';
import { placedNotes } from './evaluate.js';
import { parseChordLabel } from './metrics.js';
import { rhythmTunedClips, soundfontTunedClips } from './dev-clips.js';

/**
 * Development measurement (issue 20): the chord timeline of tuned clips, the recipe's chords,
 * the chords named from the true notes and the pipeline's, with the pipeline's notes where the
 * pipeline's root differs from the true notes' (SoundFont tuned or rhythm tuned part, never a
 * held part).
 *
 *   npx tsc -b packages/lab && node packages/lab/dist/chords-dev.js --clip sf-steel-chords-capo-5
 */
const { values } = parseArgs({
  options: { clip: { type: 'string' }, corpus: { type: 'string', default: 'soundfont' } },
});
const keep = (name: string) => !values.clip || name.includes(values.clip);
const clips =
  values.corpus === 'rhythm' ? await rhythmTunedClips(keep) : await soundfontTunedClips(keep);

const at = (chords: readonly ChordEvent[], t: number) =>
  chords.find((c) => c.time <= t && t < c.end_time)?.chord ?? '-';
/** Root and bass pitch classes of a chord name: spellings differ with the key each side found. */
const label = (name: string) => parseChordLabel(name === '-' ? '' : name);

for (const clip of clips) {
  const transcription = await transcribeAudio(clip.audio, clip.config);
  const placed = placedNotes(clip.notes, clip.config);
  const trueChords = detectChords(placed);
  const cuts = [
    ...new Set(
      [...clip.chords, ...trueChords, ...transcription.chords].flatMap((c) => [c.time, c.end_time]),
    ),
  ].sort((a, b) => a - b);
  console.log(`\n${clip.name}`);
  for (const [i, t1] of cuts.entries()) {
    const t0 = cuts[i - 1];
    if (t0 === undefined) continue;
    if (t1 - t0 < 0.02) continue;
    const mid = (t0 + t1) / 2;
    const rec = at(clip.chords, mid);
    const tru = at(trueChords, mid);
    const est = at(transcription.chords, mid);
    const [t, e] = [label(tru), label(est)];
    const bad = t !== null && t.root !== e?.root;
    const badBass = !bad && t !== null && e !== null && t.bass !== e.bass;
    console.log(
      `${t0.toFixed(2).padStart(6)}-${t1.toFixed(2).padEnd(6)} recipe ${rec.padEnd(8)} true ${tru.padEnd(9)} pipeline ${est.padEnd(9)}${bad ? ' <<' : badBass ? ' <b' : ''}`,
    );
    if (bad) {
      const sounding = placedNotes(transcription.notes, clip.config)
        .filter((n) => n.time < t1 && n.endTime > t0)
        .map((n) => `${n.pitch}@${n.time.toFixed(2)}-${n.endTime.toFixed(2)}`);
      const truly = placed
        .filter((n) => n.time < t1 && n.endTime > t0)
        .map((n) => `${n.pitch}@${n.time.toFixed(2)}-${n.endTime.toFixed(2)}`);
      console.log(`         pipeline notes: ${sounding.join(' ')}`);
      console.log(`         true notes:     ${truly.join(' ')}`);
    }
  }
}
