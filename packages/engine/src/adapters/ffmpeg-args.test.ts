import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { progressReader, whitelistedInput } from './ffmpeg-args.js';

describe('ffmpeg arguments shared by every media caller', () => {
  it('reads only the file protocol and the named demuxers, by absolute path', () => {
    expect(whitelistedInput('clip.webm', ['matroska', 'webm'])).toEqual([
      '-protocol_whitelist',
      'file',
      '-format_whitelist',
      'matroska,webm',
      '-i',
      `file:${path.resolve('clip.webm')}`,
    ]);
  });

  it('reports -progress output times across chunk boundaries and stops when told', () => {
    const seen: number[] = [];
    const read = progressReader((us) => {
      seen.push(us);
      return us < 2_000_000;
    });
    expect(read(Buffer.from('frame=1\nout_time_us=1000'))).toBe(true);
    expect(seen).toEqual([]);
    expect(read(Buffer.from('000\nprogress=continue\nout_time_ms=1500000\n'))).toBe(true);
    expect(seen).toEqual([1_000_000, 1_500_000]);
    expect(read(Buffer.from('out_time_us=2500000\nout_time_us=2600000\n'))).toBe(false);
    expect(seen).toEqual([1_000_000, 1_500_000, 2_500_000]);
  });
});
