import { describe, expect, it } from 'vitest';
import { SAMPLE_RATE } from '../units.js';
import { wavBytes } from './wav.js';

describe('wavBytes', () => {
  it('writes a WAV file a player can read', () => {
    const bytes = wavBytes(Float32Array.from([0, 0.5, -1, 1]), SAMPLE_RATE);
    expect(bytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(bytes.readUInt32LE(24)).toBe(SAMPLE_RATE);
    expect(bytes.readUInt32LE(40)).toBe(8);
    expect(bytes.readInt16LE(44 + 4)).toBe(-32767);
  });
});
