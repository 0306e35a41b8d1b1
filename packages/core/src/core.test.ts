import { describe, expect, it } from 'vitest';
import { MESSAGES, formatMegabytes } from './messages.js';
import { normalizeFlag } from './flags.js';
import { lessonDisplayName, normalizeProjectName } from './project-name.js';
import { TUNING_PRESETS, openStringPitch, tuningName } from './guitar.js';
import {
  chordEventInputSchema,
  editNotesBodySchema,
  exclusiveTechniques,
  noteEventInputSchema,
  plainNote,
} from './events.js';
import { defaultUploadConfig, uploadConfigSchema } from './upload-config.js';

describe('normalizeFlag', () => {
  it.each([true, 'true', '1', 'yes', 'YES', 1, -2, 0.5])('%s is true', (v) => {
    expect(normalizeFlag(v)).toBe(true);
  });
  it.each([false, 'false', '0', 'no', '', 0, null, undefined, NaN, {}, 'maybe'])(
    '%s is false',
    (v) => {
      expect(normalizeFlag(v)).toBe(false);
    },
  );
});

describe('project name fallback', () => {
  it('treats empty, null and undefined text as absent', () => {
    for (const v of ['', '  ', 'null', 'undefined', null, undefined]) {
      expect(normalizeProjectName(v)).toBeNull();
    }
    expect(normalizeProjectName('  My riff ')).toBe('My riff');
  });
  it('falls back to the other name, then the file name without extension', () => {
    expect(lessonDisplayName('Solo', 'Other', 'take.mp4')).toBe('Solo');
    expect(lessonDisplayName('null', 'Other', 'take.mp4')).toBe('Other');
    expect(lessonDisplayName('', 'undefined', 'my.take.2.mov')).toBe('my.take.2');
    expect(lessonDisplayName(null, null, 'noext')).toBe('noext');
  });
});

describe('tunings', () => {
  it('lists pitches low to high; string 1 is the high e', () => {
    const standard = TUNING_PRESETS[0].pitches;
    expect(openStringPitch(standard, 1)).toBe(64);
    expect(openStringPitch(standard, 6)).toBe(40);
    expect(tuningName([38, 45, 50, 55, 59, 64])).toBe('Drop D');
    expect(tuningName([40, 45, 50, 55, 59, 63])).toBe('Custom');
  });
  it('has the seven presets of the spec', () => {
    expect(TUNING_PRESETS.map((t) => t.name)).toEqual([
      'Standard',
      'Half Down',
      'Drop D',
      'Open G',
      'DADGAD',
      'Open D',
      'Open E',
    ]);
  });
});

describe('messages', () => {
  it('formats the too-large and too-long messages', () => {
    expect(MESSAGES.fileTooLarge(formatMegabytes(150 * 1024 * 1024))).toBe(
      'File is too large (150.0MB). Maximum is 100MB.',
    );
    expect(MESSAGES.videoTooLong(45)).toBe(
      'Video is too long (45s). Maximum length is 30 seconds.',
    );
    expect(MESSAGES.outOfCredits('view')).toBe(
      'Unfortunately you are out of view credits. Get more to continue.',
    );
  });
});

describe('note events', () => {
  const base = { time: 1, end_time: 1.5, string: 2, fret: 3 };
  it('fills defaults and normalises flags', () => {
    const n = noteEventInputSchema.parse({ ...base, mute: 'yes', leading_slide: '1' });
    expect(n).toMatchObject({
      event_type: 'note',
      pitch_arr: [1, 1],
      mute: true,
      vibrato: '',
      bend_to_fret: null,
      leading_slide: true,
      trailing_slide: false,
    });
  });
  it('clamps pitch points to -8..10', () => {
    expect(noteEventInputSchema.parse({ ...base, pitch_arr: [-20, 1, 40] }).pitch_arr).toEqual([
      -8, 1, 10,
    ]);
  });
  it('refuses two techniques on one side of a note; exclusiveTechniques keeps the first', () => {
    const both = {
      ...base,
      leading_slide: true,
      leading_hammer_on: true,
      trailing_hammer_on: 1,
      trailing_pull_off: 'true',
    };
    const refused = noteEventInputSchema.safeParse(both);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe(
      'Slide, hammer-on and pull-off cannot be set together on one side of a note.',
    );
    const n = exclusiveTechniques(
      plainNote({
        time: 0,
        end_time: 1,
        string: 1,
        fret: 0,
        leading_slide: true,
        leading_hammer_on: true,
        trailing_hammer_on: true,
        trailing_pull_off: true,
      }),
    );
    expect([n.leading_slide, n.leading_hammer_on, n.leading_pull_off]).toEqual([
      true,
      false,
      false,
    ]);
    expect([n.trailing_slide, n.trailing_hammer_on, n.trailing_pull_off]).toEqual([
      false,
      true,
      false,
    ]);
  });
  it('refuses a string outside 1..6, a fret outside 0..24 or a fractional fret', () => {
    expect(noteEventInputSchema.safeParse({ ...base, string: 7 }).success).toBe(false);
    expect(noteEventInputSchema.safeParse({ ...base, fret: 25 }).success).toBe(false);
    expect(noteEventInputSchema.safeParse({ ...base, fret: 2.5 }).success).toBe(false);
  });
  it('refuses a note shorter than 0.05 s', () => {
    expect(noteEventInputSchema.safeParse({ ...base, end_time: 1.04 }).success).toBe(false);
    expect(noteEventInputSchema.safeParse({ ...base, end_time: 1.05 }).success).toBe(true);
  });
  it('validates a whole save body', () => {
    expect(editNotesBodySchema.safeParse({ events: [base, base] }).success).toBe(true);
    expect(editNotesBodySchema.safeParse({ events: 'x' }).success).toBe(false);
  });
});

describe('chord events', () => {
  it('needs a name after trim and defaults to 0.6 s', () => {
    expect(chordEventInputSchema.parse({ time: 2, chord: ' Am ' })).toEqual({
      time: 2,
      end_time: 2.6,
      chord: 'Am',
      event_type: 'chord',
    });
    expect(chordEventInputSchema.safeParse({ time: 2, chord: '   ' }).success).toBe(false);
    expect(chordEventInputSchema.safeParse({ time: 2, end_time: 2.01, chord: 'C' }).success).toBe(
      false,
    );
  });
});

describe('upload config', () => {
  it('fills every field with the spec defaults', () => {
    expect(uploadConfigSchema.parse({})).toEqual(defaultUploadConfig('acoustic'));
    expect(defaultUploadConfig('acoustic')).toMatchObject({
      visible_frets: 21,
      neck_real_width: 442,
      neck_real_height: 44,
      pixels_per_second: 240,
      output_resolution: '1536x2728',
      fps: 30,
      onset_threshold: 0.7,
      frame_threshold: 0.3,
      minimum_note_length: 5,
      amplitude_threshold: 0.4,
    });
  });
  it('derives visible frets and neck size from the guitar type', () => {
    expect(uploadConfigSchema.parse({ guitar_type: 'classical' })).toMatchObject({
      visible_frets: 19,
      neck_real_width: 433,
      neck_real_height: 52,
    });
    expect(uploadConfigSchema.parse({ guitar_type: 'electric' }).visible_frets).toBe(23);
  });
  it('refuses a capo outside 0..12 and a tuning without six pitches', () => {
    expect(uploadConfigSchema.safeParse({ capo: 13 }).success).toBe(false);
    expect(uploadConfigSchema.safeParse({ tuning: [40, 45, 50] }).success).toBe(false);
    expect(uploadConfigSchema.parse({ tuning: [38, 45, 50, 55, 59, 64] }).tuning_name).toBe(
      'Drop D',
    );
  });
});

describe('plainNote', () => {
  it('is a valid note with no technique, and fresh pitch_arr each time', () => {
    const a = plainNote({ time: 1, end_time: 1.5, string: 2, fret: 3 });
    expect(noteEventInputSchema.parse(a)).toEqual(a);
    expect(a).toMatchObject({ mute: false, vibrato: '', bend_to_fret: null, pitch_arr: [1, 1] });
    const b = plainNote({ time: 2, end_time: 2.5, string: 1, fret: 0, mute: true });
    expect(b.mute).toBe(true);
    expect(b.pitch_arr).not.toBe(a.pitch_arr);
  });
});
