export { detectChords } from './chords.js';
export { spellChord } from './chord-spelling.js';
export { CHORD_SETTINGS, segmentChords } from './segmentation.js';
export type { ChordSpan } from './segmentation.js';
export type { DetectChordsOptions } from './chords.js';
export {
  KEY_PROFILES,
  KEY_WEIGHTS,
  detectKey,
  estimateKey,
  keyName,
  keySpelling,
  keyUsesFlats,
  parseKeyName,
  pitchClassHistogram,
  rankKeys,
} from './key.js';
export type { Key, KeyOptions, KeyProfileName, SoundingNote } from './key.js';
export { COMMON_NAMES, FLAT_NAMES, SHARP_NAMES, noteName, pitchClass } from './spelling.js';
export type { Spelling } from './spelling.js';
export {
  FIT_WEIGHTS,
  LABEL_COUNT,
  QUALITIES,
  bestChord,
  labelFit,
  nameChord,
} from './templates.js';
export type { ChordName, Quality } from './templates.js';
