import { describe, expect, it } from 'vitest';
import { midiFileBytes, pitchBendRangeEvents, type MidiEvent } from './midi-file.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('midiFileBytes', () => {
  it('writes a tiny format-0 file byte for byte', () => {
    const events: MidiEvent[] = [
      // Given out of order: the writer sorts by tick, note-offs before note-ons at one tick.
      { tick: 1000, type: 'noteOff', channel: 0, note: 64 },
      { tick: 0, type: 'tempo', microsecondsPerQuarter: 1_000_000 },
      { tick: 0, type: 'programChange', channel: 0, program: 25 },
      ...pitchBendRangeEvents(0, 0, 12),
      { tick: 0, type: 'noteOn', channel: 0, note: 64, velocity: 100 },
      { tick: 0, type: 'pitchBend', channel: 0, value: 0 },
      { tick: 500, type: 'pitchBend', channel: 0, value: 4096 },
    ];
    const bytes = midiFileBytes({ ticksPerQuarter: 1000, tracks: [events] });
    const track = [
      '00ff5103 0f4240', // tempo 1,000,000 us per quarter
      '00c019', // program change, channel 0, program 25 (steel-string acoustic)
      '00b06500 00b06400 00b0060c 00b02600', // RPN 0 (pitch-bend range) = 12 semitones
      '00b0657f 00b0647f', // null RPN
      '00e00040', // pitch bend centre (8192 = 0x40 << 7) before the note-on
      '00904064', // note on E4 (64), velocity 100
      '8374e00060', // delta 500 (0x83 0x74), bend +4096 -> 12288 = lsb 0x00, msb 0x60
      '8374804040', // delta 500, note off E4
      '00ff2f00', // end of track
    ]
      .join('')
      .replace(/ /g, '');
    const length = (track.length / 2).toString(16).padStart(8, '0');
    expect(hex(bytes)).toBe(`4d546864000000060000000103e8` + `4d54726b${length}${track}`);
  });

  it('writes format 1 for several tracks and long delta times as variable-length numbers', () => {
    const bytes = midiFileBytes({
      ticksPerQuarter: 480,
      tracks: [
        [{ tick: 0, type: 'trackName', text: 'gtr' }],
        [{ tick: 0x4000, type: 'noteOn', channel: 9, note: 36, velocity: 1 }],
      ],
    });
    const h = hex(bytes);
    expect(h.slice(0, 28)).toBe('4d546864000000060001000201e0');
    expect(h).toContain('00ff0303677472'); // track name "gtr"
    expect(h).toContain('8180009924' + '01'); // delta 0x4000 = 81 80 00, note on channel 10
  });

  it('clamps pitch bends to 14 bits and refuses bad data bytes', () => {
    const b = midiFileBytes({
      ticksPerQuarter: 96,
      tracks: [[{ tick: 0, type: 'pitchBend', channel: 1, value: -9000 }]],
    });
    expect(hex(b)).toContain('00e10000');
    expect(() =>
      midiFileBytes({
        ticksPerQuarter: 96,
        tracks: [[{ tick: 0, type: 'noteOn', channel: 0, note: 128, velocity: 1 }]],
      }),
    ).toThrow(RangeError);
  });
});
