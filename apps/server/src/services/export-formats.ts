import {
  toAsciiTab,
  toMidi,
  type ExportFormat,
  type ExportMeta,
  type NoteEvent,
  type Score,
} from '@riffscribe/core';

/** Writes a lesson's score as a file's bytes (MIDI) or text (tab). */
export type Exporter = (
  score: Score,
  notes: readonly NoteEvent[],
  meta: ExportMeta,
) => Uint8Array | string;

export interface ExportFormatSpec {
  /** The Content-Type of the answer. */
  contentType: string;
  /** The file name's extension, with its dot. */
  extension: string;
  exporter: Exporter;
}

/**
 * GET /api/export's formats: each with its exporter from packages/core. A format listed in the
 * query schema but not here answers 400 with NOT_YET (Guitar Pro and MusicXML come with their
 * exporters, `toGuitarPro` and `toMusicXml`, as '.gp' and '.musicxml').
 */
export const EXPORT_FORMAT_TABLE: Partial<Record<ExportFormat, ExportFormatSpec>> = {
  midi: { contentType: 'audio/midi', extension: '.mid', exporter: toMidi },
  txt: { contentType: 'text/plain; charset=utf-8', extension: '.txt', exporter: toAsciiTab },
};

/** Why a listed format answers 400 while its exporter is not built. */
export const NOT_YET: Record<ExportFormat, string> = {
  gp: 'Guitar Pro export is not available yet. Please choose midi or txt.',
  musicxml: 'MusicXML export is not available yet. Please choose midi or txt.',
  midi: '',
  txt: '',
};
