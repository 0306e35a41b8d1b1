import { describe, expect, it } from 'vitest';
import { MAX_CHORD_NAME } from './constants.js';
import { DEFAULT_TUNING } from './guitar.js';
import { plainNote, type ChordEvent, type NoteEvent } from './events.js';
import {
  BEND_PRESETS,
  FRET_DIGIT_WINDOW_MS,
  applyBend,
  chordProblems,
  clampString,
  clampTime,
  clearBend,
  dragPitchPoint,
  moveByString,
  moveToString,
  newChord,
  newNote,
  noteEnd,
  noteProblems,
  nudgeNote,
  parseFretEntry,
  pasteNotesAt,
  pitchPointCount,
  resampleCurve,
  renameChord,
  setChordEnd,
  setChordStart,
  setFret,
  setNoteEnd,
  setNoteStart,
  setTechnique,
  setVibrato,
  techniqueOn,
  toggleMute,
  typeFretDigit,
} from './edit-rules.js';

const note = (over: Partial<NoteEvent> = {}) =>
  plainNote({ time: 1, end_time: 1.5, string: 3, fret: 5, ...over });
const chord = (over: Partial<ChordEvent> = {}): ChordEvent => ({
  time: 1,
  end_time: 2,
  chord: 'Am',
  event_type: 'chord',
  ...over,
});

describe('spec section 5: frets and strings', () => {
  it('clamps fret entry to 0..24; blank means none', () => {
    expect(parseFretEntry('')).toBeNull();
    expect(parseFretEntry('   ')).toBeNull();
    expect(parseFretEntry('7')).toBe(7);
    expect(parseFretEntry('30')).toBe(24);
    expect(parseFretEntry('-3')).toBe(0);
    expect(parseFretEntry('x')).toBeNull();
    expect(setFret(note(), 99).fret).toBe(24);
    expect(setFret(note(), -1).fret).toBe(0);
    const n = note();
    expect(setFret(n, null)).toBe(n);
  });

  it('makes 10..24 from two digits typed quickly, one digit otherwise', () => {
    let r = typeFretDigit(null, 1, 0);
    expect(r.fret).toBe(1);
    r = typeFretDigit(r.pending, 2, 300);
    expect(r).toEqual({ fret: 12, pending: null });
    // Too slow: the second digit starts again.
    r = typeFretDigit(typeFretDigit(null, 1, 0).pending, 2, FRET_DIGIT_WINDOW_MS + 1);
    expect(r.fret).toBe(2);
    // 2 then 5 or 9 would be 25 or 29: clamped to 24, as every fret entry is (issue 37: it gave
    // the second digit alone).
    expect(typeFretDigit(typeFretDigit(null, 2, 0).pending, 5, 100).fret).toBe(24);
    expect(typeFretDigit(typeFretDigit(null, 2, 0).pending, 9, 100)).toEqual({
      fret: 24,
      pending: null,
    });
    expect(typeFretDigit(typeFretDigit(null, 2, 0).pending, 4, 100).fret).toBe(24);
    // 3..9 cannot start a two-digit fret: nothing waits.
    expect(typeFretDigit(null, 7, 0)).toEqual({ fret: 7, pending: null });
    expect(typeFretDigit(null, 0, 0)).toEqual({ fret: 0, pending: null });
  });

  it('clamps string changes to 1..6', () => {
    expect(clampString(0)).toBe(1);
    expect(clampString(9)).toBe(6);
    expect(clampString(3.4)).toBe(3);
  });

  it('moves a note one string over, or says why it cannot (issue 37)', () => {
    expect(moveByString(note(), 1, DEFAULT_TUNING)).toMatchObject({ string: 4, fret: 10 });
    expect(moveByString(note({ string: 6, fret: 3 }), 1, DEFAULT_TUNING)).toBe('no-string');
    expect(moveByString(note({ string: 1, fret: 3 }), -1, DEFAULT_TUNING)).toBe('no-string');
    // Fret 3 on G sounds a semitone below the open B string.
    expect(moveByString(note({ fret: 3 }), -1, DEFAULT_TUNING)).toBe('no-fret');
  });

  it('moves a note to another string keeping its pitch, only to a whole fret 0..24', () => {
    // G string fret 5 (C4) to the B string: fret 1; to the D string: fret 10.
    expect(moveToString(note(), 2, DEFAULT_TUNING)).toMatchObject({ string: 2, fret: 1 });
    expect(moveToString(note(), 4, DEFAULT_TUNING)).toMatchObject({ string: 4, fret: 10 });
    // Fret 5 on G to high e would be fret 0... 5 - 9 = -4: refused.
    expect(moveToString(note({ fret: 3 }), 1, DEFAULT_TUNING)).toBeNull();
    // Fret 20 on high e to the low E would be 44: refused.
    expect(moveToString(note({ string: 1, fret: 20 }), 6, DEFAULT_TUNING)).toBeNull();
    // Clamped to 1..6 first: "string 9" is string 6.
    expect(moveToString(note({ fret: 5 }), 9, DEFAULT_TUNING)).toMatchObject({
      string: 6,
      fret: 20,
    });
    // A bend moves with the note.
    const bent = applyBend(note(), BEND_PRESETS[0]!);
    expect(moveToString(bent, 4, DEFAULT_TUNING)).toMatchObject({ fret: 10, bend_to_fret: 11 });
  });
});

describe('spec section 5: times', () => {
  it('clamps note time to 0..duration', () => {
    expect(clampTime(-1, 10)).toBe(0);
    expect(clampTime(12, 10)).toBe(10);
  });

  it('adds a note 0.1 s long, capped by the duration', () => {
    expect(newNote(2, 3, 5, 10)).toMatchObject({ time: 2, end_time: 2.1, string: 3, fret: 5 });
    const late = newNote(9.97, 3, 5, 10);
    expect(late.end_time).toBe(10);
    expect(late.end_time - late.time).toBeGreaterThanOrEqual(0.05 - 1e-9);
    expect(newNote(-3, 8, 40, 10)).toMatchObject({ time: 0, string: 6, fret: 24 });
    expect(newNote(2, 3, 5, 10).pitch_arr).toEqual([1, 1]);
  });

  it('counts a note without an end as 0.3 s long', () => {
    expect(noteEnd({ time: 2 })).toBeCloseTo(2.3, 9);
    expect(noteEnd({ time: 2, end_time: null })).toBeCloseTo(2.3, 9);
    expect(noteEnd({ time: 2, end_time: 2.5 })).toBe(2.5);
  });

  it('nudges by 0.05 s, four times that with Shift, within 0..duration', () => {
    expect(nudgeNote(note(), 1, false, 10)).toMatchObject({ time: 1.05, end_time: 1.55 });
    expect(nudgeNote(note(), -1, true, 10)).toMatchObject({ time: 0.8, end_time: 1.3 });
    expect(nudgeNote(note({ time: 0.02, end_time: 0.2 }), -1, true, 10).time).toBe(0);
    expect(nudgeNote(note({ time: 9.6, end_time: 9.9 }), 1, true, 10)).toMatchObject({
      time: 9.7,
      end_time: 10,
    });
  });

  it('keeps the end at least 0.05 s after the start when either is dragged', () => {
    expect(setNoteEnd(note(), 1.01, 10).end_time).toBeCloseTo(1.05, 9);
    expect(setNoteEnd(note(), 12, 10).end_time).toBe(10);
    expect(setNoteStart(note(), 1.49, 10).time).toBeCloseTo(1.45, 9);
    expect(setNoteStart(note(), -2, 10).time).toBe(0);
  });

  it('pastes at the playhead keeping the spacing, inside the video', () => {
    const copied = [note({ time: 1, end_time: 1.2 }), note({ time: 1.5, end_time: 1.7 })];
    expect(pasteNotesAt(copied, 4, 10).map((n) => [n.time, n.end_time])).toEqual([
      [4, 4.2],
      [4.5, 4.7],
    ]);
    expect(pasteNotesAt(copied, 9.8, 10).map((n) => n.time)).toEqual([9.8]);
    expect(pasteNotesAt(copied, 9.8, 10)[0]?.end_time).toBe(10);
    // A pasted copy of a doubtful AI note is the user's note: no confidence, not doubtful.
    const [pasted] = pasteNotesAt([note({ time: 1, end_time: 1.2, confidence: 0.2 })], 3, 10);
    expect(pasted && 'confidence' in pasted).toBe(false);
  });
});

describe('techniques', () => {
  it('keeps slide, hammer-on and pull-off exclusive on each side', () => {
    let n = setTechnique(note(), 'leading', 'slide');
    expect(techniqueOn(n, 'leading')).toBe('slide');
    n = setTechnique(n, 'leading', 'hammer_on');
    expect([n.leading_slide, n.leading_hammer_on, n.leading_pull_off]).toEqual([
      false,
      true,
      false,
    ]);
    n = setTechnique(n, 'trailing', 'pull_off');
    expect(techniqueOn(n, 'leading')).toBe('hammer_on');
    expect(techniqueOn(n, 'trailing')).toBe('pull_off');
    // The same again clears the side.
    expect(techniqueOn(setTechnique(n, 'trailing', 'pull_off'), 'trailing')).toBeNull();
  });

  it('toggles mute and vibrato', () => {
    expect(toggleMute(note()).mute).toBe(true);
    expect(setVibrato(note(), 'big').vibrato).toBe('big');
    expect(setVibrato(note({ vibrato: 'big' }), 'big').vibrato).toBe('');
  });

  it('gives a muted note no bend and no vibrato (issue 37)', () => {
    const bent = applyBend(setVibrato(note(), 'small'), BEND_PRESETS[2]!);
    const muted = toggleMute(bent);
    expect(muted).toMatchObject({
      mute: true,
      vibrato: '',
      bend_to_fret: null,
      release_to_fret: null,
      pitch_arr: [1, 1],
    });
    expect(applyBend(muted, BEND_PRESETS[2]!)).toBe(muted);
    expect(setVibrato(muted, 'big')).toBe(muted);
    expect(dragPitchPoint(muted, 4, 2)).toBe(muted);
    expect(toggleMute(muted).mute).toBe(false);
  });

  it('keeps a bend its size when the fret is retyped (issue 37)', () => {
    const bent = applyBend(note({ fret: 7 }), BEND_PRESETS[3]!); // Bend 2 + release
    expect(bent).toMatchObject({ bend_to_fret: 9, release_to_fret: 7 });
    const retyped = setFret(bent, 5);
    expect(retyped).toMatchObject({ fret: 5, bend_to_fret: 7, release_to_fret: 5 });
    expect(retyped.pitch_arr).toEqual(bent.pitch_arr);
    // At the top of the neck the target stops at 24.
    expect(setFret(bent, 24)).toMatchObject({ fret: 24, bend_to_fret: 24, release_to_fret: 24 });
  });

  it('has bend presets +1, +2, +3 and bend+release 1..3', () => {
    expect(BEND_PRESETS.map((p) => p.label)).toEqual([
      'Bend +1',
      'Bend 1 + release',
      'Bend +2',
      'Bend 2 + release',
      'Bend +3',
      'Bend 3 + release',
    ]);
    const full = applyBend(note(), BEND_PRESETS[2]!);
    expect(full).toMatchObject({ bend_to_fret: 7, release_to_fret: null });
    expect(full.pitch_arr).toHaveLength(9);
    expect(Math.max(...full.pitch_arr)).toBe(7);
    expect(full.pitch_arr.at(-1)).toBe(7);
    const back = applyBend(note(), BEND_PRESETS[5]!);
    expect(back).toMatchObject({ bend_to_fret: 8, release_to_fret: 5 });
    expect(Math.max(...back.pitch_arr)).toBe(10);
    expect(back.pitch_arr.at(-1)).toBe(1);
    expect(clearBend(back)).toMatchObject({ bend_to_fret: null, pitch_arr: [1, 1] });
  });
});

describe('pitch curves', () => {
  it('has floor(duration * 22050 / 256) + 1 points', () => {
    expect(pitchPointCount(1)).toBe(87);
    expect(pitchPointCount(0)).toBe(1);
  });

  it('drags points at most 3 semitones from unbent, within -8..10', () => {
    let n = dragPitchPoint(note(), 4, 1);
    expect(n.pitch_arr).toHaveLength(9);
    expect(n.pitch_arr[4]).toBe(4);
    expect(n.bend_to_fret).toBe(6);
    n = dragPitchPoint(n, 4, 5);
    expect(n.pitch_arr[4]).toBe(10);
    n = dragPitchPoint(n, 0, -10);
    expect(n.pitch_arr[0]).toBe(-8);
    expect(n.pitch_arr.every((p) => p >= -8 && p <= 10)).toBe(true);
  });

  it("drags the handle the editor shows on an analysed curve, keeping the curve's points", () => {
    // A 0.46 s note as the pipeline writes it: 40 points, a slight wobble around unbent.
    const points = pitchPointCount(0.46);
    expect(points).toBe(40);
    const analysed = Array.from({ length: points }, (_, i) => 1 + 0.25 * Math.sin(i / 3));
    const n = dragPitchPoint(note({ pitch_arr: analysed }), 4, 2);
    expect(n.pitch_arr).toHaveLength(points);
    // The middle handle (the curve resampled to 9 points, as the editor draws it) moved 2 frets.
    const shown = resampleCurve(analysed, 9);
    const after = resampleCurve(n.pitch_arr, 9);
    expect(after[4]).toBeCloseTo(shown[4]! + 6, 9);
    // Its neighbours' places and the ends are as they were; nothing left the +-3 semitones.
    expect(after[2]).toBeCloseTo(shown[2]!, 9);
    expect(after[6]).toBeCloseTo(shown[6]!, 9);
    expect(n.pitch_arr.slice(0, 10)).toEqual(analysed.slice(0, 10));
    expect(n.pitch_arr.slice(30)).toEqual(analysed.slice(30));
    expect(n.bend_to_fret).toBe(7);
    expect(n.release_to_fret).toBe(5); // back down by the end
    // The last handle is the curve's last point; a drag past +3 semitones stops there.
    const end = dragPitchPoint(note({ pitch_arr: analysed }), 8, 5);
    expect(end.pitch_arr.at(-1)).toBe(10);
    expect(end.pitch_arr[0]).toBe(analysed[0]);
    expect(end).toMatchObject({ bend_to_fret: 8, release_to_fret: null });
  });
});

describe('chords', () => {
  it('adds a chord of 0.6 s, capped by the duration', () => {
    expect(newChord(2, ' G7 ', 10)).toEqual({
      time: 2,
      end_time: 2.6,
      chord: 'G7',
      event_type: 'chord',
    });
    expect(newChord(9.8, 'G', 10)?.end_time).toBe(10);
    expect(newChord(2, '  ', 10)).toBeNull();
    // Longer than the server stores: refused here, not by a failing save.
    expect(newChord(2, 'A'.repeat(MAX_CHORD_NAME), 10)?.chord).toHaveLength(MAX_CHORD_NAME);
    expect(newChord(2, 'A'.repeat(MAX_CHORD_NAME + 1), 10)).toBeNull();
    expect(
      renameChord({ time: 1, end_time: 2, chord: 'G', event_type: 'chord' }, 'x'.repeat(65)),
    ).toBeNull();
  });

  it('renames only to a name non-empty after trim', () => {
    expect(renameChord(chord(), '  C/G ')?.chord).toBe('C/G');
    expect(renameChord(chord(), '   ')).toBeNull();
  });

  it('moves and resizes keeping at least 0.05 s', () => {
    expect(setChordEnd(chord(), 0.5, 10).end_time).toBeCloseTo(1.05, 9);
    expect(setChordStart(chord(), 3, 10).time).toBeCloseTo(1.95, 9);
    expect(setChordEnd(chord(), 20, 10).end_time).toBe(10);
  });
});

describe('what the server refuses', () => {
  it('lists every problem of a note and a chord', () => {
    expect(noteProblems(note(), 10)).toEqual([]);
    expect(noteProblems(note({ time: 20, end_time: 21 }), 10)).toHaveLength(2);
    expect(noteProblems(note({ end_time: 1.01 }), 10)).toEqual([
      'it must end at least 0.05 s after it starts',
    ]);
    expect(noteProblems(note({ string: 7, fret: 4.5 }), 10)).toHaveLength(2);
    expect(noteProblems(note({ leading_slide: true, leading_pull_off: true }), 10)).toEqual([
      'slide, hammer-on and pull-off cannot be set together on one side',
    ]);
    expect(noteProblems(note({ pitch_arr: [1, 11] }), null)).toHaveLength(1);
    // Issue 37: what the editor no longer makes, the server no longer stores.
    expect(noteProblems(note({ mute: true, vibrato: 'small' }), 10)).toEqual([
      'a muted note has no bend or vibrato',
    ]);
    expect(noteProblems(toggleMute(applyBend(note(), BEND_PRESETS[0]!)), 10)).toEqual([]);
    expect(chordProblems(chord(), 10)).toEqual([]);
    expect(chordProblems(chord({ chord: ' ' }), 10)).toEqual(['its name must not be empty']);
    expect(chordProblems(chord({ end_time: 1.01 }), 10)).toEqual(['it must last at least 0.05 s']);
  });
});
