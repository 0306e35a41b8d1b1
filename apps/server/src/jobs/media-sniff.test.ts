import { describe, expect, it } from 'vitest';
import { isVideoDemuxer, sniffContainer } from './media-sniff.js';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(
    parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))),
  );

describe('sniffContainer', () => {
  it('recognises video containers by their first bytes', () => {
    expect(sniffContainer(bytes([0, 0, 0, 0x20], 'ftypisom', [0, 0, 2, 0]))).toBe('video');
    expect(sniffContainer(bytes([0, 0, 0, 0x14], 'ftypqt  ', [0, 0, 0, 0]))).toBe('video');
    expect(sniffContainer(bytes([0, 0, 0, 8], 'wide', [0, 0, 0, 0]))).toBe('video');
    expect(sniffContainer(bytes([0x1a, 0x45, 0xdf, 0xa3, 1, 2]))).toBe('video');
    expect(sniffContainer(bytes('RIFF', [1, 2, 3, 4], 'AVI LIST'))).toBe('video');
    const ts = Buffer.alloc(376);
    ts[0] = 0x47;
    ts[188] = 0x47;
    expect(sniffContainer(ts)).toBe('video');
  });

  it('recognises audio-only files', () => {
    expect(sniffContainer(bytes([0, 0, 0, 0x20], 'ftypM4A ', [0, 0, 0, 0]))).toBe('audio');
    expect(sniffContainer(bytes('RIFF', [1, 2, 3, 4], 'WAVEfmt '))).toBe('audio');
    expect(sniffContainer(bytes('ID3', [4, 0, 0, 0, 0, 0, 0]))).toBe('audio');
    expect(sniffContainer(bytes('fLaC', [0, 0, 0, 0x22]))).toBe('audio');
    expect(sniffContainer(bytes([0xff, 0xfb, 0x90, 0x64]))).toBe('audio');
  });

  it('recognises playlists and lists of files, with or without a byte order mark', () => {
    expect(sniffContainer(bytes('#EXTM3U\n#EXTINF:10,\nhttp://x/seg.ts\n'))).toBe('playlist');
    expect(sniffContainer(bytes([0xef, 0xbb, 0xbf], '  #EXTM3U\n'))).toBe('playlist');
    expect(sniffContainer(bytes("ffconcat version 1.0\nfile 'a.mp4'\n"))).toBe('playlist');
    expect(sniffContainer(bytes("file '/etc/passwd'\n"))).toBe('playlist');
    expect(sniffContainer(bytes('<?xml version="1.0"?><MPD>'))).toBe('playlist');
  });

  it('calls anything else unknown, and nothing empty', () => {
    expect(sniffContainer(Buffer.alloc(0))).toBe('empty');
    expect(sniffContainer(bytes('These are my guitar notes.\n'))).toBe('unknown');
    expect(sniffContainer(bytes('Guitar take, a text file starting with G'))).toBe('unknown');
    expect(sniffContainer(bytes([0x89], 'PNG\r\n'))).toBe('unknown');
  });
});

describe('isVideoDemuxer', () => {
  it('accepts video demuxers by any of their names, and nothing else', () => {
    expect(isVideoDemuxer('mov,mp4,m4a,3gp,3g2,mj2')).toBe(true);
    expect(isVideoDemuxer('matroska,webm')).toBe(true);
    expect(isVideoDemuxer('avi')).toBe(true);
    expect(isVideoDemuxer('hls')).toBe(false);
    expect(isVideoDemuxer('concat')).toBe(false);
    expect(isVideoDemuxer('wav')).toBe(false);
    expect(isVideoDemuxer('image2')).toBe(false);
  });
});
