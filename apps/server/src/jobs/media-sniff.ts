/**
 * What the first bytes of an upload say it is, before any decoder sees it. Browsers label files
 * by extension, so a text file, an audio file or a playlist renamed `.mp4` arrives as video/mp4;
 * this check refuses the obvious cases cheaply and keeps playlists (HLS, ffconcat, DASH), which
 * could make a decoder open other files or URLs, away from ffprobe altogether.
 */
export type SniffedKind = 'empty' | 'video' | 'audio' | 'playlist' | 'unknown';

/** How many leading bytes `sniffContainer` needs at most. */
export const SNIFF_BYTES = 4096;

const ISO_BOXES = new Set(['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);
/** ISO BMFF brands of audio-only files (iTunes audio, audio books). */
const AUDIO_BRANDS = new Set(['M4A ', 'M4B ', 'M4P ', 'F4A ', 'F4B ']);

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return signature.every((b, i) => bytes[at + i] === b);
}

/** Text playlists and manifests, after an optional UTF-8 byte order mark and white space. */
function isPlaylist(bytes: Uint8Array): boolean {
  const text = ascii(bytes, 0, Math.min(bytes.length, 512))
    .replace(/^\u00ef\u00bb\u00bf/, '')
    .trimStart()
    .toLowerCase();
  return (
    text.startsWith('#extm3u') ||
    text.startsWith('ffconcat') ||
    text.startsWith('file ') ||
    text.startsWith('<?xml') ||
    text.startsWith('<mpd') ||
    text.startsWith('<smil') ||
    text.startsWith('[playlist]')
  );
}

/**
 * Classifies an upload by its leading bytes (at least the first SNIFF_BYTES of it, or all of a
 * shorter file): a video container ffprobe may look at, an audio-only file, a playlist, or
 * something else. `video` only means "a container that can hold video"; ffprobe decides.
 */
export function sniffContainer(head: Uint8Array): SniffedKind {
  if (head.length === 0) return 'empty';
  if (head.length >= 12 && ISO_BOXES.has(ascii(head, 4, 4))) {
    if (ascii(head, 4, 4) === 'ftyp' && AUDIO_BRANDS.has(ascii(head, 8, 4))) return 'audio';
    return 'video';
  }
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return 'video'; // Matroska, WebM
  if (ascii(head, 0, 4) === 'RIFF' && head.length >= 12) {
    const form = ascii(head, 8, 4);
    if (form === 'AVI ') return 'video';
    if (form === 'WAVE') return 'audio';
    return 'unknown';
  }
  if (ascii(head, 0, 3) === 'FLV') return 'video';
  if (startsWith(head, [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11])) return 'video'; // ASF
  if (startsWith(head, [0x00, 0x00, 0x01, 0xba])) return 'video'; // MPEG program stream
  if (head[0] === 0x47 && head[188] === 0x47) return 'video'; // MPEG-TS: a sync byte every 188
  if (ascii(head, 0, 4) === 'OggS') return 'video'; // Ogg (Theora) or Vorbis: ffprobe decides
  if (
    ascii(head, 0, 3) === 'ID3' ||
    ascii(head, 0, 4) === 'fLaC' ||
    ascii(head, 0, 4) === 'FORM' ||
    ascii(head, 0, 5) === '#!AMR' ||
    (head[0] === 0xff && ((head[1] ?? 0) & 0xe0) === 0xe0) // MPEG audio or ADTS frame sync
  ) {
    return 'audio';
  }
  if (isPlaylist(head)) return 'playlist';
  return 'unknown';
}

/**
 * ffprobe demuxer names (its `format_name`, comma-separated aliases) of containers that carry
 * browser and camera video. Anything else (an image sequence, a raw stream) is refused.
 */
const VIDEO_DEMUXERS = new Set([
  'mov',
  'mp4',
  'matroska',
  'webm',
  'avi',
  'flv',
  'asf',
  'mpeg',
  'mpegts',
  'ogg',
]);

/** Whether ffprobe's `formatName` is one of the video containers we accept. */
export function isVideoDemuxer(formatName: string): boolean {
  return formatName.split(',').some((name) => VIDEO_DEMUXERS.has(name.trim()));
}
