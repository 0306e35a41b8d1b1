export { QUALITIES, chordText, detectChords, nameChord } from './chords.js';
export type { ChordName } from './chords.js';
export { detectKey, estimateKey, keyName, keyUsesFlats, pitchClassHistogram } from './key.js';
export type { Key, SoundingNote } from './key.js';
