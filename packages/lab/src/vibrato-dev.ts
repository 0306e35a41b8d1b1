import { parseArgs } from 'node:util';
import type { NoteEvent } from '@riffscribe/core';
import { guitarSetup } from '@riffscribe/engine';
import { analyseAttacks, attackAt, lessonNotes, openPitch } from '@riffscribe/engine/stages';
import { soundfontTunedClips, stringModelClips } from './dev-clips.js';
import { cachedModelOutput } from './model-cache.js';

/**
 * Development listing (issue 39): every true vibrato note of the tuned parts with the lesson's
 * notes under it, so that a split (the level's swell read as a new pick) can be looked at: each
 * lesson note with its onset activation and the attack flux there. Never the held part.
 *
 *   npx tsc -b packages/lab && node packages/lab/dist/vibrato-dev.js [--corpus sm] [--splits]
 */
const { values } = parseArgs({
  options: { corpus: { type: 'string', default: 'sf' }, splits: { type: 'boolean' } },
});
const clips = values.corpus === 'sm' ? stringModelClips() : await soundfontTunedClips();
for (const item of clips) {
  const setup = guitarSetup(item.config);
  const pitch = (n: NoteEvent) => openPitch(setup, n.string) + n.fret;
  const output = await cachedModelOutput(item.audio);
  const { notes, tab } = await lessonNotes(output, item.audio, item.config);
  const attacks = analyseAttacks(item.audio);
  for (const t of item.notes.filter((n) => n.vibrato !== '' && !n.mute)) {
    const under = notes.filter(
      (n) =>
        !n.mute &&
        n.time > t.time - 0.05 &&
        n.time < t.end_time - 0.05 &&
        Math.abs(pitch(n) - pitch(t)) <= 1,
    );
    const split = under.some((n) => n.time > t.time + 0.05);
    if (values.splits && !split) continue;
    console.log(
      `${item.name} ${split ? 'SPLIT' : 'whole'} truth ${t.time.toFixed(3)}-${t.end_time.toFixed(3)} s${String(t.string)} f${String(t.fret)} v:${t.vibrato}`,
    );
    for (const n of under) {
      const src = tab.find((m) => Math.abs(m.time - n.time) < 0.02 && m.pitch === pitch(n));
      console.log(
        `   lesson ${n.time.toFixed(3)}-${n.end_time.toFixed(3)} s${String(n.string)} f${String(n.fret)} v:${n.vibrato || '-'} onset ${src?.onset.toFixed(2) ?? '?'} attack ${attackAt(attacks, n.time).toFixed(2)}`,
      );
    }
  }
}
