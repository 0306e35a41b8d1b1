import type { ChordEvent } from '@riffscribe/core';
import { MIN_CHORD_SECONDS } from '@riffscribe/core';
import { spellChord } from './chord-spelling.js';
import { estimateKey, parseKeyName, type Key } from './key.js';
import { segmentChords, type SoundingNote } from './segmentation.js';

export interface DetectChordsOptions {
  /** The clip's key ("Eb major") or Key, for spelling; estimated from the notes when absent. */
  key?: string | Key | null;
}

/**
 * Chord events of a clip (segmentation.ts: optimal segmentation at note onsets, each span named
 * from everything that sounds in it): root and quality, a slash bass when the bass is not the
 * root; only where three or more pitch classes (or a power chord) sound together; unchanged
 * neighbours merged; no event shorter than 0.05 s (MIN_CHORD_SECONDS). Times in seconds; names
 * are the sounding names (no capo shift), spelled for the key (given, or estimated from the notes
 * and these chords: chord-spelling.ts). Pure and deterministic.
 */
export function detectChords(
  notes: readonly SoundingNote[],
  options: DetectChordsOptions = {},
): ChordEvent[] {
  const spans = segmentChords(notes);
  if (spans.length === 0) return [];
  const key =
    typeof options.key === 'string'
      ? parseKeyName(options.key)
      : options.key === undefined
        ? estimateKey(notes, { chords: spans })
        : options.key;
  return spans
    .map((s): ChordEvent => ({
      time: s.time,
      end_time: s.endTime,
      chord: spellChord(s, key),
      event_type: 'chord',
    }))
    .filter((c) => c.end_time - c.time >= MIN_CHORD_SECONDS - 1e-9);
}
