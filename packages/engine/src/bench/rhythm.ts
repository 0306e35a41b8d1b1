import { Activation, MIDI_OFFSET, NOTE_BINS } from '../notes/posteriorgram.js';
import { seededRandom } from '../random.js';
import { detectBeats } from '../rhythm/beats.js';
import type { RhythmNote } from '../rhythm/envelope.js';
import { FRAME_RATE } from '../units.js';

/**
 * A made-up part at 100 BPM with onset posteriorgrams as Basic Pitch writes them (blocks of
 * frames): a bass note on each bar, a three-note chord on each beat, eighth notes between.
 */
function partFor(seconds: number): { onsets: Activation; notes: RhythmNote[] } {
  const r = seededRandom(7);
  const beat = 0.6;
  const notes: RhythmNote[] = [];
  for (let t = 0.2, i = 0; t < seconds - 0.5; t += beat / 2, i++) {
    const onBeat = i % 2 === 0;
    if (i % 8 === 0) notes.push({ time: t, endTime: t + 4 * beat, pitch: 40, onset: 0.9 });
    const pitches = onBeat ? [55, 59, 64] : [64 + Math.floor(r() * 8)];
    for (const pitch of pitches)
      notes.push({ time: t, endTime: t + beat / 2, pitch, onset: onBeat ? 0.8 : 0.5 });
  }
  const frames = Math.ceil(seconds * FRAME_RATE);
  const block = 4 * 172;
  const onsets = new Activation(block);
  let k = 0;
  for (let from = 0; from < frames; from += block) {
    const n = Math.min(block, frames - from);
    const values = new Float32Array(n * NOTE_BINS);
    while (k < notes.length && Math.round((notes[k]?.time ?? 0) * FRAME_RATE) < from + n) {
      const note = notes[k++];
      if (!note) continue;
      const t = Math.round(note.time * FRAME_RATE) - from;
      values[t * NOTE_BINS + note.pitch - MIDI_OFFSET] = note.onset;
    }
    onsets.append(values);
  }
  return { onsets, notes };
}

/**
 * Wall time of the rhythm stage (envelope, tempo, beat tracking, meter) on a 30 s clip and a
 * 10-minute lesson. Target: under 50 ms for the 30 s clip.
 */
export function benchRhythm(): { clipMs: number; lessonMs: number } {
  const time = (seconds: number) => {
    const { onsets, notes } = partFor(seconds);
    let best = Infinity;
    for (let i = 0; i < 3; i += 1) {
      const start = performance.now();
      detectBeats({ onsets }, notes, seconds);
      best = Math.min(best, performance.now() - start);
    }
    return best;
  };
  const clipMs = time(30);
  const lessonMs = time(600);
  console.log(
    `rhythm stage (best of 3): 30 s clip: ${clipMs.toFixed(1)} ms; 10-minute lesson: ${lessonMs.toFixed(1)} ms`,
  );
  return { clipMs, lessonMs };
}
