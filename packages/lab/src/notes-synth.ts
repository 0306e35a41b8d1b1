import { execFile } from 'node:child_process';
import { access, mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TimedNote } from './notes-metrics.js';
import { seededRandom } from '@riffscribe/engine/stages';

/**
 * Development material for note extraction with exact answers: seeded, generated guitar parts
 * (strummed chords across the neck, arpeggios, single-note lines, repeated notes) written as
 * MIDI and rendered by FluidSynth with the sampled guitars of Debian's FluidR3 General MIDI
 * SoundFont. The note-extraction rules were chosen on this material before they were checked on
 * the real excerpts, so that no constant is fitted to a note of the real data.
 */

const run = promisify(execFile);
const SOUNDFONT = '/usr/share/sounds/sf2/FluidR3_GM.sf2';
const STANDARD = [40, 45, 50, 55, 59, 64];

/** Chord shapes as frets low E..high e (-1 = not played), transposable up the neck. */
const SHAPES: Record<string, number[]> = {
  E: [0, 2, 2, 1, 0, 0],
  Em: [0, 2, 2, 0, 0, 0],
  E7: [0, 2, 0, 1, 0, 0],
  A: [-1, 0, 2, 2, 2, 0],
  Am: [-1, 0, 2, 2, 1, 0],
  A7: [-1, 0, 2, 0, 2, 0],
  Amaj7: [-1, 0, 2, 1, 2, 0],
  C: [-1, 3, 2, 0, 1, 0],
  G: [3, 2, 0, 0, 0, 3],
  D: [-1, -1, 0, 2, 3, 2],
  Dm: [-1, -1, 0, 2, 3, 1],
  power: [0, 2, 2, -1, -1, -1],
};
const MOVABLE = ['E', 'Em', 'E7', 'A', 'Am', 'A7', 'Amaj7', 'power'];

interface MidiNote extends TimedNote {
  velocity: number;
}

/** Places a chord: open shapes as they are, movable shapes barred at `position`. */
function voicing(shape: number[], position: number): (number | null)[] {
  return shape.map((f, s) => (f < 0 ? null : (STANDARD[s] ?? 0) + f + position));
}

type Style = 'strum' | 'arpeggio' | 'melody' | 'mixed';

function generate(seed: number, style: Style, seconds: number): MidiNote[] {
  const r = seededRandom(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const bpm = 80 + Math.floor(r() * 60);
  const beat = 60 / bpm;
  const notes: MidiNote[] = [];
  const ringing: (MidiNote | null)[] = [null, null, null, null, null, null];
  const play = (s: number, pitch: number, time: number, velocity: number) => {
    const prev = ringing[s];
    if (prev !== null && prev !== undefined && prev.endTime > time) prev.endTime = time;
    const note: MidiNote = { time, endTime: time + beat * 4, pitch, velocity };
    ringing[s] = note;
    notes.push(note);
  };
  const damp = (time: number) => {
    for (let s = 0; s < 6; s++) {
      const n = ringing[s];
      if (n !== null && n !== undefined && n.endTime > time) n.endTime = time;
      ringing[s] = null;
    }
  };
  let t = 0.3;
  let bar = 0;
  while (t < seconds - 2 * beat) {
    const useOpen = r() < 0.5;
    const name = useOpen ? pick(Object.keys(SHAPES)) : pick(MOVABLE);
    const position = useOpen ? 0 : 1 + Math.floor(r() * 9);
    const chord = voicing(SHAPES[name] ?? [], position);
    const barStyle: Style =
      style === 'mixed' ? pick(['strum', 'arpeggio', 'melody'] as const) : style;
    if (barStyle === 'strum') {
      // Eighth-note strums, down on the beat, up between, some skipped.
      for (let e = 0; e < 8; e++) {
        const at = t + (e * beat) / 2 + (r() - 0.5) * 0.02;
        if (e > 0 && r() < 0.3) continue;
        const down = e % 2 === 0;
        const strings = chord.map((p, s) => (p === null ? -1 : s)).filter((s) => s >= 0);
        const used = down
          ? strings
          : strings.slice(-Math.max(3, Math.floor(r() * strings.length))).reverse();
        const spread = 0.006 + r() * 0.018;
        const vel = 60 + Math.floor(r() * 55);
        used.forEach((s, i) => {
          const pitch = chord[s];
          if (pitch !== null && pitch !== undefined)
            play(s, pitch, at + i * spread, Math.max(30, vel - Math.floor(r() * 20)));
        });
      }
    } else if (barStyle === 'arpeggio') {
      const strings = chord.map((p, s) => (p === null ? -1 : s)).filter((s) => s >= 0);
      const pattern = [0, 2, 1, 3, 2, 4, 3, 5].map((i) => strings[i % strings.length] ?? 0);
      for (let e = 0; e < 8; e++) {
        const s = pattern[e] ?? 0;
        const pitch = chord[s];
        if (pitch !== null && pitch !== undefined)
          play(s, pitch, t + (e * beat) / 2 + (r() - 0.5) * 0.015, 55 + Math.floor(r() * 50));
      }
    } else {
      // A line in a position: scale steps on the top four strings, some repeated notes, some legato.
      const root = 52 + Math.floor(r() * 12);
      const scale = [0, 2, 4, 5, 7, 9, 11, 12, 14, 16];
      let step = Math.floor(r() * 5);
      let at = t;
      while (at < t + 4 * beat - 0.05) {
        const dur = pick([beat / 4, beat / 2, beat / 2, beat]);
        step = Math.max(0, Math.min(scale.length - 1, step + pick([-2, -1, 0, 1, 1, 2])));
        const pitch = root + (scale[step] ?? 0);
        const s = 2 + Math.floor(r() * 4);
        damp(at);
        play(s, pitch, at, 60 + Math.floor(r() * 50));
        const n = ringing[s];
        if (n) n.endTime = at + dur * (0.6 + r() * 0.4);
        at += dur;
      }
    }
    t += 4 * beat;
    bar++;
    if (bar % 4 === 0) damp(t - 0.05);
  }
  damp(t);
  return notes
    .filter((n) => n.endTime - n.time > 0.03)
    .sort((a, b) => a.time - b.time || a.pitch - b.pitch);
}

function vlq(n: number): number[] {
  const out = [n & 0x7f];
  for (let v = n >>> 7; v > 0; v >>>= 7) out.unshift((v & 0x7f) | 0x80);
  return out;
}

/** A format-0 MIDI file; 960 ticks per second (480 per quarter at 120 bpm). */
function midiFile(notes: MidiNote[], program: number): Uint8Array {
  const TPS = 960;
  const events: { tick: number; order: number; bytes: number[] }[] = [];
  for (const n of notes) {
    events.push({ tick: Math.round(n.time * TPS), order: 1, bytes: [0x90, n.pitch, n.velocity] });
    events.push({ tick: Math.round(n.endTime * TPS), order: 0, bytes: [0x80, n.pitch, 0] });
  }
  events.sort((a, b) => a.tick - b.tick || a.order - b.order);
  const track: number[] = [0, 0xff, 0x51, 3, 0x07, 0xa1, 0x20, 0, 0xc0, program];
  let last = 0;
  for (const e of events) {
    track.push(...vlq(e.tick - last), ...e.bytes);
    last = e.tick;
  }
  track.push(0, 0xff, 0x2f, 0);
  const header = [0x4d, 0x54, 0x68, 0x64, 0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xe0];
  const len = track.length;
  return Uint8Array.from([
    ...header,
    0x4d,
    0x54,
    0x72,
    0x6b,
    (len >>> 24) & 0xff,
    (len >>> 16) & 0xff,
    (len >>> 8) & 0xff,
    len & 0xff,
    ...track,
  ]);
}

export interface SynthItem {
  name: string;
  audio: string;
  reference: TimedNote[];
}

/** General MIDI programs: 24 nylon, 25 steel acoustic, 27 clean electric. */
const CLIPS: { seed: number; style: Style; program: number }[] = [
  { seed: 1, style: 'strum', program: 25 },
  { seed: 2, style: 'arpeggio', program: 25 },
  { seed: 3, style: 'melody', program: 25 },
  { seed: 4, style: 'mixed', program: 24 },
  { seed: 5, style: 'mixed', program: 27 },
  { seed: 6, style: 'strum', program: 24 },
  { seed: 7, style: 'mixed', program: 25 },
];

export async function syntheticItems(): Promise<SynthItem[]> {
  const dir = path.join(os.tmpdir(), 'riffscribe-notes-dev', 'synth');
  await mkdir(dir, { recursive: true });
  const items: SynthItem[] = [];
  for (const clip of CLIPS) {
    const notes = generate(clip.seed, clip.style, 20);
    const base = path.join(dir, `s${clip.seed}-${clip.style}-p${clip.program}`);
    try {
      await access(`${base}.wav`);
    } catch {
      await writeFile(`${base}.mid`, midiFile(notes, clip.program));
      await run('fluidsynth', [
        '-ni',
        '-q',
        '-R',
        '0',
        '-C',
        '0',
        '-g',
        '0.5',
        '-r',
        '22050',
        '-F',
        `${base}.wav`,
        SOUNDFONT,
        `${base}.mid`,
      ]);
    }
    items.push({
      name: `synth ${clip.seed} ${clip.style}`,
      audio: `${base}.wav`,
      reference: notes.map((n) => ({ time: n.time, endTime: n.endTime, pitch: n.pitch })),
    });
  }
  return items;
}
