import { type ChordEvent, type NoteEvent, plainNote } from '@riffscribe/core';

/**
 * Lessons for the player's e2e tests and benches, in the engine's output format (notes.json,
 * chords.json, results.json), with known answers; lessons.ts `seedLesson` stores them through the
 * server's own code.
 */

const RATE = 22050 / 256;

function base(time: number, end: number, string: number, fret: number): NoteEvent {
  return plainNote({ time, end_time: end, string, fret });
}

/** A pitch curve over `seconds` in the spec's units: points = floor(s*22050/256)+1. */
function curve(seconds: number, semitonesAt: (t: number) => number): number[] {
  const n = Math.floor(seconds * RATE) + 1;
  return Array.from({ length: n }, (_, i) => 1 + 3 * semitonesAt(i / RATE));
}

/**
 * A 12-second blues lick in A minor (capo 2) with every technique the player draws: a full bend
 * and release, a half bend, small and big vibrato, slides up and down, a slide in, hammer-ons,
 * pull-offs, muted strums, a double stop and chords.
 */
export function techniqueLesson(): { notes: NoteEvent[]; chords: ChordEvent[]; results: object } {
  const n: NoteEvent[] = [];
  const add = (note: NoteEvent, over: Partial<NoteEvent> = {}) => {
    n.push({ ...note, ...over });
  };
  // 0.5 s: open A string, then a double stop.
  add(base(0.5, 1.0, 5, 0));
  add(base(1.0, 1.6, 3, 5));
  add(base(1.0, 1.6, 2, 5));
  // 2.0 s: full bend (fret 7 -> 9) and release on string 3; the fretboard test listens here.
  const bend = curve(1.2, (t) =>
    t < 0.25 ? (2 * t) / 0.25 : t < 0.8 ? 2 : t < 1.0 ? 2 - (2 * (t - 0.8)) / 0.2 : 0,
  );
  add(base(2.0, 3.2, 3, 7), { pitch_arr: bend, bend_to_fret: 9, release_to_fret: 7 });
  // 3.4 s: hammer-on 5 -> 7 and pull-off 7 -> 5 on string 2.
  add(base(3.4, 3.7, 2, 5), { trailing_hammer_on: true });
  add(base(3.7, 4.0, 2, 7), { leading_hammer_on: true, trailing_pull_off: true });
  add(base(4.0, 4.4, 2, 5), { leading_pull_off: true });
  // 4.6 s: slide up 5 -> 9 on string 1, then down 9 -> 7.
  add(base(4.6, 5.0, 1, 5), { trailing_slide: true });
  add(base(5.05, 5.5, 1, 9), { leading_slide: true, trailing_slide: true });
  add(base(5.55, 6.4, 1, 7), {
    leading_slide: true,
    vibrato: 'big',
    pitch_arr: curve(0.85, (t) => (t > 0.15 ? 0.35 * Math.sin(2 * Math.PI * 6.5 * (t - 0.15)) : 0)),
  });
  // 6.6 s: muted strums.
  for (const t of [6.6, 6.8])
    for (const s of [6, 5, 4]) add(base(t, t + 0.12, s, 0), { mute: true });
  // 7.2 s: half bend with small vibrato on string 2.
  add(base(7.2, 8.2, 2, 8), {
    bend_to_fret: 9,
    vibrato: 'small',
    pitch_arr: curve(
      1.0,
      (t) => Math.min(1, t / 0.2) + (t > 0.4 ? 0.15 * Math.sin(2 * Math.PI * 6.5 * t) : 0),
    ),
  });
  // 8.5 s: slide in to fret 7 on string 4, chord tones, a slide out.
  add(base(8.5, 9.0, 4, 7), { leading_slide: true });
  add(base(9.2, 9.8, 5, 7));
  add(base(9.2, 9.8, 4, 5));
  add(base(9.2, 9.8, 3, 5));
  add(base(10.0, 10.6, 3, 7), { trailing_slide: true });
  add(base(11.0, 11.8, 6, 5), { vibrato: 'small' });
  const chords: ChordEvent[] = [
    { time: 0.5, end_time: 2.0, chord: 'Bm', event_type: 'chord' },
    { time: 2.0, end_time: 4.5, chord: 'E7', event_type: 'chord' },
    { time: 4.5, end_time: 6.5, chord: 'A', event_type: 'chord' },
    { time: 9.2, end_time: 10.0, chord: 'F#m', event_type: 'chord' },
    { time: 11.0, end_time: 12.0, chord: 'Bm', event_type: 'chord' },
  ];
  const results = {
    capo: 2,
    tuning: [40, 45, 50, 55, 59, 64],
    tuning_name: 'Standard',
    musical_key: 'B minor',
    duration: 12,
    config: { capo: 2, tuning_name: 'Standard' },
  };
  return { notes: n.sort((a, b) => a.time - b.time || a.string - b.string), chords, results };
}

/** A deterministic pseudo-random sequence (mulberry32), so the dense lesson is the same each run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` notes of fast sixteenth-note runs at 120 bpm (8 notes a second) over a pentatonic box,
 * with techniques sprinkled in as a busy solo has them; chords every two beats.
 */
export function denseLesson(count: number): {
  notes: NoteEvent[];
  chords: ChordEvent[];
  results: object;
  duration: number;
} {
  const rnd = random(7);
  const box = [
    [1, 5],
    [1, 8],
    [2, 5],
    [2, 8],
    [3, 5],
    [3, 7],
    [4, 5],
    [4, 7],
    [5, 5],
    [5, 7],
    [6, 5],
    [6, 8],
  ] as const;
  const notes: NoteEvent[] = [];
  const step = 0.125;
  for (let i = 0; i < count; i += 1) {
    const [string, fret] = box[Math.floor(rnd() * box.length)] ?? [3, 5];
    const time = 0.5 + i * step;
    const note = base(time, time + step * (rnd() < 0.2 ? 3 : 0.9), string, fret);
    const r = rnd();
    if (r < 0.05)
      Object.assign(note, {
        bend_to_fret: fret + 2,
        release_to_fret: rnd() < 0.5 ? fret : null,
        pitch_arr: curve(note.end_time - time, (t) => Math.min(2, t * 12)),
      });
    else if (r < 0.1) note.vibrato = rnd() < 0.5 ? 'small' : 'big';
    else if (r < 0.13) note.mute = true;
    // Every eleventh note doubtful (review queue), without drawing on the random sequence, so
    // the notes themselves stay as they were.
    if (i % 11 === 5) note.confidence = 0.3;
    notes.push(note);
  }
  const duration = Math.ceil(0.5 + count * step + 1);
  const names = ['Am', 'C', 'G', 'D', 'Em', 'F'];
  const chords: ChordEvent[] = [];
  for (let t = 0.5; t < duration - 1; t += 1) {
    chords.push({
      time: t,
      end_time: t + 1,
      chord: names[Math.floor(t) % names.length] ?? 'Am',
      event_type: 'chord',
    });
  }
  return {
    notes,
    chords,
    duration,
    results: {
      capo: 0,
      tuning: [40, 45, 50, 55, 59, 64],
      tuning_name: 'Standard',
      musical_key: 'A minor',
      duration,
    },
  };
}
