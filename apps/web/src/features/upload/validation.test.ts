import { MAX_UPLOAD_BYTES, MESSAGES } from '@riffscribe/core';
import { describe, expect, it } from 'vitest';
import { spellTuning } from '@riffscribe/core';
import { DEFAULT_CHOICES, buildUploadConfig } from './uploadConfig';
import {
  durationError,
  fileSizeError,
  fileTypeError,
  recordingDurationError,
  recordingWarning,
} from './validation';

describe('file checks (spec section 5)', () => {
  it('accepts video types only', () => {
    expect(fileTypeError('video/mp4')).toBeNull();
    expect(fileTypeError('video/quicktime')).toBeNull();
    expect(fileTypeError('video/x-matroska')).toBeNull();
    expect(fileTypeError('audio/mpeg')).toBe(
      'Invalid file type. Please upload a video file (e.g., MP4, MOV, AVI, MKV). Audio files are not supported.',
    );
    expect(fileTypeError('')).toBe(MESSAGES.invalidFileType);
  });

  it('limits size to 100MB for ordinary users only', () => {
    expect(fileSizeError(MAX_UPLOAD_BYTES, true)).toBeNull();
    expect(fileSizeError(MAX_UPLOAD_BYTES + 1, true)).toBe(
      'File is too large (100.0MB). Maximum is 100MB.',
    );
    expect(fileSizeError(150 * 1024 * 1024, true)).toBe(
      'File is too large (150.0MB). Maximum is 100MB.',
    );
    expect(fileSizeError(150 * 1024 * 1024, false)).toBeNull();
  });

  it('rejects videos over 31 s for ordinary users only', () => {
    expect(durationError(30.9, true)).toBeNull();
    expect(durationError(31, true)).toBeNull();
    expect(durationError(31.2, true)).toBe(
      'Video is too long (31s). Maximum length is 30 seconds.',
    );
    expect(durationError(45, true)).toBe('Video is too long (45s). Maximum length is 30 seconds.');
    expect(durationError(600, false)).toBeNull();
  });

  it('rejects recordings over 30 s for ordinary users only', () => {
    expect(recordingDurationError(30.2, true)).toBeNull();
    expect(recordingDurationError(32, true)).toBe(
      'Video is too long (32s). Maximum length is 30 seconds.',
    );
    expect(recordingDurationError(90, false)).toBeNull();
  });
});

describe('recording countdown', () => {
  it('warns from 20 s for ordinary users only', () => {
    expect(recordingWarning(19.9, true)).toBeNull();
    expect(recordingWarning(20, true)).toBe('10s remaining');
    expect(recordingWarning(28.2, true)).toBe('2s remaining');
    expect(recordingWarning(30, true)).toBe('0s remaining');
    expect(recordingWarning(25, false)).toBeNull();
  });
});

describe('upload config', () => {
  it('carries every field with the defaults of spec sections 3 and 9', () => {
    const config = buildUploadConfig(DEFAULT_CHOICES, 12.5);
    expect(config).toEqual({
      stem_type: 'guitar',
      capo: 0,
      tuning: [40, 45, 50, 55, 59, 64],
      tuning_name: 'Standard',
      guitar_type: 'acoustic',
      visible_frets: 21,
      pixels_per_second: 240,
      output_resolution: '1536x2728',
      fps: 30,
      clip_duration: null,
      neck_real_width: 442,
      neck_real_height: 44,
      skip_video_generation: false,
      amplitude_threshold: 0.4,
      onset_threshold: 0.7,
      frame_threshold: 0.3,
      minimum_note_length: 5,
      metadata: { duration: 12.5 },
      hand_position: 'auto',
    });
    // The hand position (a Riffscribe addition) as chosen.
    expect(buildUploadConfig({ ...DEFAULT_CHOICES, handPosition: 'up_neck' }, null)).toMatchObject({
      hand_position: 'up_neck',
    });
  });

  it('sends six open strings of the player’s own, named Custom unless they are a preset', () => {
    // Open C (C G C G C E), not one of the presets.
    const openC = buildUploadConfig(
      { ...DEFAULT_CHOICES, tuningId: 'custom', customTuning: [36, 43, 48, 55, 60, 64] },
      null,
    );
    expect(openC).toMatchObject({ tuning: [36, 43, 48, 55, 60, 64], tuning_name: 'Custom' });
    // Chosen string by string but equal to Drop D: named as the preset.
    const dropD = buildUploadConfig(
      { ...DEFAULT_CHOICES, tuningId: 'custom', customTuning: [38, 45, 50, 55, 59, 64] },
      null,
    );
    expect(dropD.tuning_name).toBe('Drop D');
    // Whatever reaches it, six whole pitches in the offered range (B0..E5).
    const odd = buildUploadConfig(
      { ...DEFAULT_CHOICES, tuningId: 'custom', customTuning: [10, 45.4, 50, 200] },
      null,
    );
    expect(odd.tuning).toEqual([23, 45, 50, 76, 59, 64]);
  });

  it('follows the guitar type, tuning, capo and playing style', () => {
    const electric = buildUploadConfig(
      { ...DEFAULT_CHOICES, guitarType: 'electric', tuningId: 'drop-d', capo: 3, stemType: 'solo' },
      null,
    );
    expect(electric).toMatchObject({
      guitar_type: 'electric',
      visible_frets: 23,
      neck_real_width: 466,
      neck_real_height: 42,
      tuning: [38, 45, 50, 55, 59, 64],
      tuning_name: 'Drop D',
      capo: 3,
      stem_type: 'solo',
    });
    const classical = buildUploadConfig(
      { ...DEFAULT_CHOICES, guitarType: 'classical', capo: 40 },
      3,
    );
    expect(classical).toMatchObject({
      visible_frets: 19,
      neck_real_width: 433,
      neck_real_height: 52,
      capo: 12,
    });
  });
});

describe('tuning names', () => {
  it('spells presets low string first', () => {
    expect(spellTuning([40, 45, 50, 55, 59, 64])).toBe('E A D G B E');
    expect(spellTuning([39, 44, 49, 54, 58, 63])).toBe('E♭ A♭ D♭ G♭ B♭ E♭');
    expect(spellTuning([38, 45, 50, 55, 57, 62])).toBe('D A D G A D');
    expect(spellTuning([40, 47, 52, 56, 59, 64])).toBe('E B E G# B E');
  });
});
