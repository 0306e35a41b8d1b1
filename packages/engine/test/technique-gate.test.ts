import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { addSuggestion, defaultUploadConfig, type NoteEvent } from '@riffscribe/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { fixtureFile } from '../src/adapters/fixtures.js';
import { decodeAudio } from '../src/adapters/media.js';
import { runModel } from '../src/adapters/model.js';
import { loadTechniqueGate } from '../src/adapters/technique-model.js';
import { guitarSetup } from '../src/guitar.js';
import { lessonNotes } from '../src/pipeline.js';
import { analyseAttacks } from '../src/techniques/attacks.js';
import {
  GATE_FEATURES,
  GATE_WIDTH,
  gateFeatures,
  markOccurrences,
} from '../src/techniques/gate.js';
import type { ModelOutput } from '../src/types.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const card = JSON.parse(
  readFileSync(path.join(root, 'packages/engine/models/techniques/gate.json'), 'utf8'),
) as { features: number; names: string[]; threshold: number };

/**
 * Issue 39, the technique gate with the shipped model on a real electric excerpt (EGSet12): the
 * card matches what the engine computes, the model gives one probability in 0..1 per mark, and
 * the marks it doubts are kept as suggestions that give back exactly the rules' marks when a
 * person adds them (nothing the rules heard is lost, only moved to the review queue).
 */
describe('the technique gate on EGSet12', () => {
  let audio: Float32Array;
  let output: ModelOutput;
  const config = defaultUploadConfig('electric');
  beforeAll(async () => {
    audio = await decodeAudio(fixtureFile(root, 'egset12/01.wav'));
    output = await runModel(audio);
  }, 60_000);

  it('has a card that names the features the engine computes, in order', () => {
    expect(card.features).toBe(GATE_WIDTH);
    expect(card.names).toEqual([...GATE_FEATURES]);
    expect(card.threshold).toBeGreaterThan(0);
    expect(card.threshold).toBeLessThan(1);
  });

  it('gives a probability per mark; what it doubts comes back whole when added', async () => {
    const { notes: rules } = await lessonNotes(output, audio, config, { gateThreshold: 0 });
    const marks = markOccurrences(rules);
    expect(marks.length).toBeGreaterThan(0);
    const gate = await loadTechniqueGate();
    const x = gateFeatures(rules, marks, analyseAttacks(audio), guitarSetup(config));
    const p = await gate.run(x, marks.length);
    expect(p.length).toBe(marks.length);
    for (const v of p) expect(v >= 0 && v <= 1).toBe(true);

    // Everything doubted (a threshold above 1): no mark on the tab, every one a suggestion.
    const { notes: doubted } = await lessonNotes(output, audio, config, { gateThreshold: 1.01 });
    expect(markOccurrences(doubted)).toEqual([]);
    let restored: NoteEvent[] = doubted;
    for (let i = 0; i < restored.length; i += 1) {
      while ((restored[i]?.suggestions?.length ?? 0) > 0) {
        const next = [...restored];
        for (const c of addSuggestion(restored, i)) next[c.index] = c.note;
        restored = next;
      }
    }
    const strip = (n: NoteEvent) => {
      const copy = { ...n };
      delete copy.suggestions;
      return copy;
    };
    expect(restored.map(strip)).toEqual(rules.map(strip));
  });
});
