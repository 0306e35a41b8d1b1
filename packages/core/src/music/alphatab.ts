import { model, Settings } from '@coderline/alphatab';
import type { NoteEvent } from '../events.js';
import type { NoteValue, Score } from './score.js';
import {
  chordNamesBySlot,
  writtenNotes,
  writtenTempi,
  writtenTempo,
  type NotationMeta,
  type WrittenNote,
} from './written.js';
import { keySignatureOf } from './key-signature.js';
import { xmlText } from './musicxml.js';

/**
 * A lesson as an alphaTab score model (one track, one staff showing standard notation and tab):
 * what the Guitar Pro export writes and what a notation view can render. Pure apart from
 * alphaTab's own id counters.
 *
 * Conventions converted here: alphaTab numbers strings from the LOWEST (`Note.string` 1 = low E,
 * ours 1 = high e, so alphaTab's = 7 - ours) and lists `Staff.stringTuning.tunings` from the
 * top tab line, the HIGHEST string (ours low to high, so reversed). Frets stay relative to the
 * capo: alphaTab sounds `tuning + capo + fret` as we do. Bend values are in quarter tones on a
 * 0..60 time axis (`BendPoint`).
 */

/** MIDI program of the track (General MIDI 26, steel-string acoustic guitar, 0-based 25). */
const GUITAR_PROGRAM = 25;

const DURATIONS: Record<NoteValue, model.Duration> = {
  1: model.Duration.Whole,
  2: model.Duration.Half,
  4: model.Duration.Quarter,
  8: model.Duration.Eighth,
  16: model.Duration.Sixteenth,
  32: model.Duration.ThirtySecond,
  64: model.Duration.SixtyFourth,
};

/** alphaTab's string number (1 = lowest) of our string (1 = highest), for six strings. */
export function alphaTabString(string: number): number {
  return 7 - string;
}

/**
 * The lesson as an alphaTab `model.Score`, finished (`score.finish`) and ready to render or
 * export. `score` is `scoreOf(notes, grid)`: bars, time signatures, tempi and note values are
 * taken from it as they are.
 */
export function toAlphaTab(
  score: Score,
  notes: readonly NoteEvent[],
  meta: NotationMeta,
  settings: Settings = new Settings(),
): model.Score {
  const written = writtenNotes(score, notes);
  const out = new model.Score();
  out.title = xmlText(meta.title);

  const track = new model.Track();
  track.name = 'Guitar';
  track.shortName = 'Gtr.';
  track.playbackInfo.program = GUITAR_PROGRAM;
  track.playbackInfo.primaryChannel = 0;
  track.playbackInfo.secondaryChannel = 1;
  out.addTrack(track);
  track.ensureStaveCount(1);
  const staff = track.staves[0];
  if (!staff) throw new Error('alphaTab track without a staff');
  staff.showTablature = true;
  staff.showStandardNotation = true;
  staff.capo = meta.capo;
  staff.stringTuning = new model.Tuning('', [...meta.tuning].reverse(), false);
  staff.stringTuning.finish();
  // Guitar is written an octave above its sound (treble clef, 8vb), as alphaTab's GP import does.
  staff.displayTranspositionPitch = -12;

  let chordCount = 0;
  const chordAt = chordNamesBySlot(score, meta.chords ?? []);
  let lastTempo = -1;
  const key = keySignatureOf(meta.key);
  const tempi = writtenTempi(score);
  score.bars.forEach((bar, b) => {
    const master = new model.MasterBar();
    master.timeSignatureNumerator = bar.numerator;
    master.timeSignatureDenominator = bar.denominator;
    const tempo = tempi[b] ?? writtenTempo(bar.tempo);
    if (tempo !== lastTempo) {
      const automation = new model.Automation();
      automation.type = model.AutomationType.Tempo;
      automation.value = tempo;
      automation.ratioPosition = 0;
      master.tempoAutomations.push(automation);
      lastTempo = tempo;
    }
    out.addMasterBar(master);

    const atBar = new model.Bar();
    if (key) {
      // alphaTab spells the notes from the key signature too (flats in a flat key).
      atBar.keySignature = keySignatureMember(key.fifths);
      atBar.keySignatureType =
        key.mode === 'minor' ? model.KeySignatureType.Minor : model.KeySignatureType.Major;
    }
    staff.addBar(atBar);
    const voice = new model.Voice();
    atBar.addVoice(voice);
    (written[b]?.slots ?? []).forEach((ws, s) => {
      const beat = new model.Beat();
      beat.duration = DURATIONS[ws.slot.value];
      beat.dots = ws.slot.dots;
      if (ws.slot.tuplet === 3) {
        beat.tupletNumerator = 3;
        beat.tupletDenominator = 2;
      }
      beat.isEmpty = false;
      const name = chordAt.get(`${b}:${s}`);
      if (name !== undefined) {
        const chord = new model.Chord();
        chord.name = xmlText(name);
        chord.showDiagram = false;
        chord.showFingering = false;
        const id = `chord${chordCount++}`;
        staff.addChord(id, chord);
        beat.chordId = id;
      }
      for (const n of ws.notes) beat.addNote(noteOf(n));
      voice.addBeat(beat);
    });
  });

  out.finish(settings);
  return out;
}

/** alphaTab's KeySignature member for `fifths` (-7..7). */
function keySignatureMember(fifths: number): model.KeySignature {
  const members = Object.values(model.KeySignature) as unknown[];
  return members.find((m): m is model.KeySignature => m === fifths) ?? model.KeySignature.C;
}

function noteOf(n: WrittenNote): model.Note {
  const note = new model.Note();
  note.string = alphaTabString(n.string);
  note.fret = n.fret;
  note.isTieDestination = n.tieStop;
  note.isDead = n.dead;
  if (n.legatoOut === 'hammer' || n.legatoOut === 'pull') note.isHammerPullOrigin = true;
  // A slide between two notes, the second not picked again: a legato slide.
  if (n.legatoOut === 'slide') note.slideOutType = model.SlideOutType.Legato;
  else if (n.slideOut) note.slideOutType = model.SlideOutType.OutDown;
  if (n.slideIn) note.slideInType = model.SlideInType.IntoFromBelow;
  if (n.vibrato === 'small') note.vibrato = model.VibratoType.Slight;
  if (n.vibrato === 'big') note.vibrato = model.VibratoType.Wide;
  if (n.bend) {
    // Quarter tones: a semitone is 2. Bend in the first quarter of the note, hold, release in
    // the second half, as Guitar Pro draws its presets.
    const up = n.bend.semitones * 2;
    if (n.bend.release === null) {
      note.bendType = model.BendType.Bend;
      note.addBendPoint(new model.BendPoint(0, 0));
      note.addBendPoint(new model.BendPoint(15, up));
      note.addBendPoint(new model.BendPoint(60, up));
    } else {
      note.bendType = model.BendType.BendRelease;
      note.addBendPoint(new model.BendPoint(0, 0));
      note.addBendPoint(new model.BendPoint(15, up));
      note.addBendPoint(new model.BendPoint(30, up));
      note.addBendPoint(new model.BendPoint(60, n.bend.release * 2));
    }
  }
  return note;
}
