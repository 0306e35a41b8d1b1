import {
  toAsciiTab,
  toMidi,
  toMusicXml,
  type ExportFormat,
  type NotationMeta,
  type NoteEvent,
  type Score,
} from '@riffscribe/core';

/** Writes a lesson's score as a file's bytes (MIDI) or text (tab). */
export type Exporter = (
  score: Score,
  notes: readonly NoteEvent[],
  meta: NotationMeta,
) => Uint8Array | string | Promise<Uint8Array>;

export interface ExportFormatSpec {
  /** The Content-Type of the answer. */
  contentType: string;
  /** The file name's extension, with its dot. */
  extension: string;
  exporter: Exporter;
}

/**
 * Guitar Pro through alphaTab (about 1 MB of code): loaded on the first request for it, so an API
 * process that never exports Guitar Pro never holds it.
 */
const toGuitarProLazily: Exporter = async (score, notes, meta) => {
  const { toGuitarPro } = await import('@riffscribe/core/notation');
  return toGuitarPro(score, notes, meta);
};

/** GET /api/export's formats, each with its exporter from packages/core. */
export const EXPORT_FORMAT_TABLE: Record<ExportFormat, ExportFormatSpec> = {
  gp: { contentType: 'application/x-guitar-pro', extension: '.gp', exporter: toGuitarProLazily },
  musicxml: {
    contentType: 'application/vnd.recordare.musicxml+xml',
    extension: '.musicxml',
    exporter: toMusicXml,
  },
  midi: { contentType: 'audio/midi', extension: '.mid', exporter: toMidi },
  txt: { contentType: 'text/plain; charset=utf-8', extension: '.txt', exporter: toAsciiTab },
};
