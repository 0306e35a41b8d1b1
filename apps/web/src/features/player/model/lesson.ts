import {
  CAPO_MAX,
  CAPO_MIN,
  DEFAULT_TUNING,
  FRET_MAX,
  FRET_MIN,
  NOTE_WITHOUT_END_SECONDS,
  PITCH_POINT_MAX,
  PITCH_POINT_MIN,
  STRING_COUNT,
  clamp,
  exclusiveTechniques,
  normalizeFlag,
  openStringPitch,
  techniqueSuggestionSchema,
  tuningName,
  type ChordEvent,
  type NoteEvent,
  type TechniqueSuggestion,
  type Tuning,
} from '@riffscribe/core';

/** The song settings a lesson is read with (spec section 3, results file). */
export interface LessonSettings {
  /** Capo fret, 0..12; frets in the tab are relative to it. */
  capo: number;
  /** Six MIDI pitches, low string to high string. */
  tuning: Tuning;
  tuningName: string;
  /** Musical key as text ("A minor"), '' when unknown. */
  musicalKey: string;
  /** Length of the analysed audio in seconds, null when the file does not say. */
  duration: number | null;
  /**
   * The audio files the lesson has besides its video ('guitar.wav'...), from the results file's
   * `audio_files`; null for a lesson written before the results said so.
   */
  audioFiles: string[] | null;
}

type Loose = Record<string, unknown>;

const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null;
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : null);
const finite = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
      ? Number(v)
      : null;

function readTuning(v: unknown): Tuning | null {
  if (!Array.isArray(v) || v.length !== STRING_COUNT) return null;
  const pitches = v.map(finite);
  if (pitches.some((p) => p === null || p < 0 || p > 127)) return null;
  return pitches as unknown as Tuning;
}

/**
 * Reads the results file (capo, tuning, tuning_name, musical_key or music.key or metadata.key,
 * config) into settings; anything missing falls back to the upload config, then to defaults
 * (capo 0, standard tuning).
 */
export function settingsFromResults(raw: unknown): LessonSettings {
  const r = isObject(raw) ? raw : {};
  const config = isObject(r.config) ? r.config : {};
  const music = isObject(r.music) ? r.music : {};
  const metadata = isObject(r.metadata) ? r.metadata : {};
  const configMeta = isObject(config.metadata) ? config.metadata : {};
  const capo = clamp(Math.round(finite(r.capo) ?? finite(config.capo) ?? 0), CAPO_MIN, CAPO_MAX);
  const tuning = readTuning(r.tuning) ?? readTuning(config.tuning) ?? DEFAULT_TUNING;
  const name = text(r.tuning_name) ?? text(config.tuning_name) ?? tuningName(tuning);
  const duration = finite(r.duration) ?? finite(metadata.duration) ?? finite(configMeta.duration);
  return {
    capo,
    tuning,
    tuningName: name,
    musicalKey: text(r.musical_key) ?? text(music.key) ?? text(metadata.key) ?? '',
    duration: duration !== null && duration > 0 ? duration : null,
    audioFiles: Array.isArray(r.audio_files)
      ? r.audio_files.filter((f): f is string => typeof f === 'string')
      : null,
  };
}

/**
 * One note as the player reads it: flags normalised to booleans, pitch points clamped, a missing
 * end counted as 0.3 s (spec section 5). Null for what cannot be placed on the tab (no time, a
 * string outside 1..6, a fret outside 0..24).
 */
export function normalizeNote(raw: unknown): NoteEvent | null {
  if (!isObject(raw)) return null;
  const time = finite(raw.time);
  const string = finite(raw.string);
  const fret = finite(raw.fret);
  if (time === null || time < 0 || string === null || fret === null) return null;
  if (!Number.isInteger(string) || string < 1 || string > STRING_COUNT) return null;
  if (!Number.isInteger(fret) || fret < FRET_MIN || fret > FRET_MAX) return null;
  const end = finite(raw.end_time);
  const pitch = Array.isArray(raw.pitch_arr)
    ? raw.pitch_arr.map(finite).filter((p): p is number => p !== null)
    : [];
  const fretOrNull = (v: unknown) => {
    const n = finite(v);
    return n === null ? null : clamp(Math.round(n), FRET_MIN, FRET_MAX);
  };
  const vibrato = raw.vibrato === 'small' || raw.vibrato === 'big' ? raw.vibrato : '';
  const confidence = finite(raw.confidence);
  // The AI may set several techniques on one side; the editor keeps one, as the server requires.
  return exclusiveTechniques<NoteEvent>({
    time,
    end_time: end !== null && end > time ? end : time + NOTE_WITHOUT_END_SECONDS,
    string,
    fret,
    event_type: 'note',
    pitch_arr:
      pitch.length >= 2 ? pitch.map((p) => clamp(p, PITCH_POINT_MIN, PITCH_POINT_MAX)) : [1, 1],
    mute: normalizeFlag(raw.mute),
    vibrato,
    bend_to_fret: fretOrNull(raw.bend_to_fret),
    release_to_fret: fretOrNull(raw.release_to_fret),
    leading_slide: normalizeFlag(raw.leading_slide),
    trailing_slide: normalizeFlag(raw.trailing_slide),
    leading_hammer_on: normalizeFlag(raw.leading_hammer_on),
    trailing_hammer_on: normalizeFlag(raw.trailing_hammer_on),
    leading_pull_off: normalizeFlag(raw.leading_pull_off),
    trailing_pull_off: normalizeFlag(raw.trailing_pull_off),
    // The AI's confidence (review queue); one outside 0..1 is not a confidence at all.
    ...(confidence !== null && confidence >= 0 && confidence <= 1 ? { confidence } : {}),
    // Techniques the AI was not sure of (review queue: "bend?"); a malformed one is dropped.
    ...suggestionsOf(raw.suggestions),
  });
}

/** A chord as the player reads it; null without a time or a name. A missing end lasts 0.6 s. */
export function normalizeChord(raw: unknown): ChordEvent | null {
  if (!isObject(raw)) return null;
  const time = finite(raw.time);
  const name = text(raw.chord);
  if (time === null || time < 0 || name === null) return null;
  const end = finite(raw.end_time);
  return {
    time,
    end_time: end !== null && end > time ? end : time + 0.6,
    chord: name,
    event_type: 'chord',
  };
}

/** Events sorted by start, then end, so that windows can be found by binary search. */
export function sortEvents<T extends { time: number; end_time: number }>(
  events: readonly T[],
): T[] {
  return [...events].sort((a, b) => a.time - b.time || a.end_time - b.end_time);
}

/** Normalises and sorts a list of raw notes; unusable entries are dropped. */
export function readNotes(raw: unknown): NoteEvent[] {
  if (!Array.isArray(raw)) return [];
  return sortEvents(raw.map(normalizeNote).filter((n): n is NoteEvent => n !== null));
}

/** Normalises and sorts a list of raw chords; unusable entries are dropped. */
export function readChords(raw: unknown): ChordEvent[] {
  if (!Array.isArray(raw)) return [];
  return sortEvents(raw.map(normalizeChord).filter((c): c is ChordEvent => c !== null));
}

/**
 * Sounding MIDI pitch of a note: open string + capo + fret (frets are relative to the capo).
 * Throws a RangeError for a string outside 1..6.
 */
export function notePitch(note: Pick<NoteEvent, 'string' | 'fret'>, tuning: Tuning, capo: number) {
  return openStringPitch(tuning, note.string) + capo + note.fret;
}

/** The AI's suggested techniques of a raw note, the well-formed ones only (none: no field). */
function suggestionsOf(raw: unknown): { suggestions?: TechniqueSuggestion[] } {
  if (!Array.isArray(raw)) return {};
  const suggestions = raw.flatMap((s) => {
    const parsed = techniqueSuggestionSchema.safeParse(s);
    return parsed.success ? [parsed.data] : [];
  });
  return suggestions.length > 0 ? { suggestions } : {};
}
