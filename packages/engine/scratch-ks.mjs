import { transcribe } from './dist/index.js';
import { readTabJson } from './dist/eval/datasets.js';
import { defaultUploadConfig } from '@riffscribe/core';
for (const [wav, tab, g] of [['fixtures/datasets/guitarset/00_BN1-129-Eb_comp_mic.wav','fixtures/datasets/guitarset/00_BN1-129-Eb_comp.tab.json','acoustic'],['fixtures/datasets/egset12/01.wav','fixtures/datasets/egset12/01.tab.json','electric']]) {
  const r = await transcribe(wav, defaultUploadConfig(g), () => {});
  const gt = await readTabJson(tab);
  const open = [64,59,55,50,45,40];
  let pos=0, pitchWrong=0, right=0, spurious=0; const wrong=[];
  for (const n of r.notes) { if (n.mute) continue; const p = open[n.string-1]+n.fret;
    const same = gt.filter(t => Math.abs(t.time-n.time) < 0.05 && t.pitch === p);
    if (same.some(t => t.string===n.string)) right++; else if (same.length) { pos++; wrong.push({t:n.time.toFixed(2), s:n.string, f:n.fret, gs:same[0].string, gf:same[0].fret, c:n.confidence}); } else if (gt.some(t=>Math.abs(t.time-n.time)<0.05)) pitchWrong++; else spurious++; }
  console.log(wav, 'dur', gt.at(-1).endTime.toFixed(1), 'ai', r.notes.length, 'gt', gt.length, {right,pos,pitchWrong,spurious});
  console.log(JSON.stringify(wrong.sort((a,b)=>Math.abs(b.f-b.gf)-Math.abs(a.f-a.gf)).slice(0,12)));
}
