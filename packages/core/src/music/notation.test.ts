import { importer, model, Settings } from '@coderline/alphatab';
import { describe, expect, it } from 'vitest';
import { plainNote, type ChordEvent, type NoteEvent } from '../events.js';
import type { BeatGrid } from './beats.js';
import { toAlphaTab } from './alphatab.js';
import { toGuitarPro } from './guitarpro.js';
import { toMusicXml } from './musicxml.js';
import { keySignatureOf } from './key-signature.js';
import { steadyGrid } from './beats.js';
import { scoreOf } from './score.js';
import { soundingPitch, writtenNotes, writtenTempi, type NotationMeta } from './written.js';

/**
 * A hand-built lesson for the export round-trip tests (made up here, not from any recording):
 * drop D with a capo at 2; 4/4 at 120, 4/4, a 3/4 bar, then 4/4 at 90. Bar 1: a D5 chord,
 * a hammer-on, eighth-note triplets with a pull-off, a note tied over the bar line; bar 2: a
 * slide and a bend with release; bar 3: small and big vibrato and a dead note; bar 4: a half note.
 */
const LESSON_GRID: BeatGrid = (() => {
  const beats: number[] = [];
  for (let i = 0; i <= 11; i++) beats.push(i * 0.5);
  for (let k = 1; k <= 4; k++) beats.push(5.5 + (k * 2) / 3);
  return { beats, downbeats: [0, 4, 8, 11, 15], beat_unit: 4 };
})();

const n = (
  time: number,
  end: number,
  string: number,
  fret: number,
  extra: Partial<NoteEvent> = {},
): NoteEvent => plainNote({ time, end_time: end, string, fret, ...extra });

const third = 1 / 6;

const LESSON_NOTES: NoteEvent[] = [
  // Bar 1, beat 1: D5 (open D, A, D strings in drop D).
  n(0, 0.5, 6, 0),
  n(0, 0.5, 5, 0),
  n(0, 0.5, 4, 0),
  // Beat 2: hammer-on 2h4 on the G string.
  n(0.5, 0.75, 3, 2, { trailing_hammer_on: true }),
  n(0.75, 1, 3, 4, { leading_hammer_on: true }),
  // Beat 3: eighth-note triplets, 5p3 on the B string, then 4 on G.
  n(1, 1 + third, 2, 5, { trailing_pull_off: true }),
  n(1 + third, 1 + 2 * third, 2, 3, { leading_pull_off: true }),
  n(1 + 2 * third, 1.5, 3, 4),
  // Beat 4: high e fret 7 held over the bar line.
  n(1.5, 2.5, 1, 7),
  // Bar 2: slide 5/7 on the B string, a rest, then a bend 7b9r7 on G.
  n(2.5, 3, 2, 5, { trailing_slide: true }),
  n(3, 3.5, 2, 7, { leading_slide: true }),
  n(3.5, 4, 3, 7, { bend_to_fret: 9, release_to_fret: 7, pitch_arr: [1, 4, 7, 7, 4, 1] }),
  // Bar 3 (3/4): small vibrato, big vibrato, a dead note.
  n(4, 4.5, 1, 5, { vibrato: 'small' }),
  n(4.5, 5, 1, 8, { vibrato: 'big' }),
  n(5, 5.25, 6, 0, { mute: true }),
  // Bar 4 (4/4 at 90): a half note.
  n(5.5, 5.5 + 4 / 3, 4, 2),
];

const LESSON_CHORDS: ChordEvent[] = [
  { time: 0, end_time: 0.5, chord: 'D5', event_type: 'chord' },
  { time: 5.5, end_time: 6.8, chord: 'Em7', event_type: 'chord' },
];

const LESSON_META: NotationMeta = {
  title: 'Round <trip> & "test"',
  tuning: [38, 45, 50, 55, 59, 64],
  capo: 2,
  chords: LESSON_CHORDS,
};

const score = scoreOf(LESSON_NOTES, LESSON_GRID);

/** The staff with the six-string tuning (MusicXML imports notation and tab as two staves). */
const tabStaff = (s: model.Score) => {
  const staff = s.tracks[0]?.staves.find((st) => st.tuning.length === 6);
  if (!staff) throw new Error('no tab staff');
  return staff;
};

interface NoteSummary {
  string: number;
  fret: number;
  tie: boolean;
  hammer: boolean;
  slideOut: model.SlideOutType;
  bend: string;
  vibrato: model.VibratoType;
  dead: boolean;
}

const noteSummary = (n: model.Note): NoteSummary => ({
  string: n.string,
  fret: n.fret,
  tie: n.isTieDestination,
  hammer: n.isHammerPullOrigin,
  slideOut: n.slideOutType,
  bend: n.hasBend
    ? `${model.BendType[n.bendType]} ${Math.max(...(n.bendPoints ?? []).map((p) => p.value))}>${n.bendPoints?.at(-1)?.value ?? 0}`
    : '',
  vibrato: n.vibrato,
  dead: n.isDead,
});

/** Per bar: the time signature, tempo changes and per beat its rhythm, chord and notes. */
const summary = (s: model.Score) =>
  tabStaff(s).bars.map((bar) => {
    const master = bar.masterBar;
    return {
      time: `${master.timeSignatureNumerator}/${master.timeSignatureDenominator}`,
      tempo: master.tempoAutomations.map((a) => a.value),
      beats: (bar.voices[0]?.beats ?? []).map((beat) => ({
        duration: beat.duration,
        dots: beat.dots,
        tuplet: beat.hasTuplet ? `${beat.tupletNumerator}:${beat.tupletDenominator}` : '',
        rest: beat.isRest,
        notes: [...beat.notes].sort((a, b) => b.string - a.string).map(noteSummary),
      })),
    };
  });

const chordNames = (s: model.Score) =>
  s.tracks[0]!.staves.flatMap((st) =>
    st.bars.flatMap((bar) =>
      (bar.voices[0]?.beats ?? []).flatMap((b) => (b.chord ? [b.chord.name] : [])),
    ),
  );

describe('alphaTab model of a lesson', () => {
  const built = toAlphaTab(score, LESSON_NOTES, LESSON_META);

  it('numbers strings from the lowest and lists the tuning from the highest, with the capo', () => {
    const staff = tabStaff(built);
    expect(staff.tuning).toEqual([64, 59, 55, 50, 45, 38]);
    expect(staff.capo).toBe(2);
    const first = staff.bars[0]!.voices[0]!.beats[0]!;
    // The D5 chord on our strings 6, 5, 4 = alphaTab's 1, 2, 3, sounding a tone up (capo 2).
    expect(first.notes.map((n) => n.string).sort()).toEqual([1, 2, 3]);
    expect(first.notes.map((n) => n.realValue).sort()).toEqual([40, 47, 52]);
  });

  it('sounds every note at the pitch the lesson gives it', () => {
    const staff = tabStaff(built);
    const played = staff.bars.flatMap((bar) =>
      bar.voices[0]!.beats.flatMap((b) => b.notes.filter((n) => !n.isTieDestination)),
    );
    const expected = LESSON_NOTES.map((n) =>
      soundingPitch(LESSON_META.tuning, LESSON_META.capo, n.string, n.fret),
    );
    expect(played.map((n) => n.realValue).sort()).toEqual(expected.sort());
  });
});

describe('Guitar Pro 7 export', () => {
  const built = toAlphaTab(score, LESSON_NOTES, LESSON_META);
  const bytes = toGuitarPro(score, LESSON_NOTES, LESSON_META);
  const back = importer.ScoreLoader.loadScoreFromBytes(bytes, new Settings());

  it('round-trips through alphaTab as the same bars, rhythm, notes and techniques', () => {
    expect(bytes.length).toBeGreaterThan(100);
    expect(back.title).toBe(LESSON_META.title);
    expect(back.masterBars.length).toBe(score.bars.length);
    expect(summary(back)).toEqual(summary(built));
    expect(tabStaff(back).tuning).toEqual([64, 59, 55, 50, 45, 38]);
    expect(tabStaff(back).capo).toBe(2);
    expect(chordNames(back)).toEqual(['D5', 'Em7']);
  });

  it('carries what the lesson says', () => {
    const bars = summary(back);
    expect(bars.map((b) => b.time)).toEqual(['4/4', '4/4', '3/4', '4/4', '4/4']);
    expect(bars.map((b) => b.tempo)).toEqual([[120], [], [], [90], []]);
    const [bar1, bar2, bar3] = bars;
    expect(bar1!.beats.map((b) => `${b.duration}${b.tuplet}`)).toEqual([
      '4',
      '8',
      '8',
      '83:2',
      '83:2',
      '83:2',
      '4',
    ]);
    // Hammer-on 2h4 (G string = alphaTab 4), pull-off 5p3 on B (alphaTab 5).
    expect(bar1!.beats[1]!.notes[0]).toMatchObject({ string: 4, fret: 2, hammer: true });
    expect(bar1!.beats[3]!.notes[0]).toMatchObject({ string: 5, fret: 5, hammer: true });
    // Tied over the bar line.
    expect(bar2!.beats[0]!.notes[0]).toMatchObject({ string: 6, fret: 7, tie: true });
    expect(bar2!.beats[1]!.notes[0]).toMatchObject({
      string: 5,
      fret: 5,
      slideOut: model.SlideOutType.Legato,
    });
    expect(bar2!.beats[3]!.notes[0]).toMatchObject({ fret: 7, bend: 'BendRelease 4>0' });
    expect(bar3!.beats.map((b) => b.notes[0]?.vibrato)).toEqual([
      model.VibratoType.Slight,
      model.VibratoType.Wide,
      model.VibratoType.None,
      undefined,
    ]);
    expect(bar3!.beats[2]!.notes[0]).toMatchObject({ string: 1, dead: true });
  });
});

describe('MusicXML export', () => {
  const built = toAlphaTab(score, LESSON_NOTES, LESSON_META);
  const xml = toMusicXml(score, LESSON_NOTES, LESSON_META);
  const back = importer.ScoreLoader.loadScoreFromBytes(
    new TextEncoder().encode(xml),
    new Settings(),
  );

  /** The comparison alphaTab's MusicXML importer allows (see the notes on each field). */
  const comparable = (bars: ReturnType<typeof summary>) =>
    bars.map((bar) => ({
      ...bar,
      beats: bar.beats.map((beat) => ({
        ...beat,
        notes: beat.notes.map((n) => ({
          ...n,
          // alphaTab's importer adds a note to its beat before reading <string>, so its lookup of
          // the next note on the string misses and it drops every hammer-on/pull-off: checked on
          // the XML text below instead.
          hammer: false,
          // <slide> comes back as a shift slide; it has no legato variant.
          slideOut:
            n.slideOut === model.SlideOutType.Legato ? model.SlideOutType.Shift : n.slideOut,
          // <wavy-line> comes back as slight vibrato whatever its smufl glyph (checked below).
          vibrato: n.vibrato === model.VibratoType.Wide ? model.VibratoType.Slight : n.vibrato,
          // <notehead>x</notehead> comes back as an x notehead, not as a dead note (checked below).
          dead: false,
        })),
      })),
    }));

  it('round-trips through alphaTab as the same bars, rhythm, notes and techniques', () => {
    // alphaTab's MusicXML importer turns spaces in display texts into no-break spaces.
    expect(back.title.replace(/\u00a0/g, ' ')).toBe(LESSON_META.title);
    expect(back.masterBars.length).toBe(score.bars.length);
    expect(comparable(summary(back))).toEqual(comparable(summary(built)));
    expect(tabStaff(back).tuning).toEqual([64, 59, 55, 50, 45, 38]);
    expect(tabStaff(back).capo).toBe(2);
    expect(chordNames(back)).toEqual(['D5', 'Em7']);
    const dead = tabStaff(back).bars[2]!.voices[0]!.beats[2]!.notes[0]!;
    expect(dead.style?.noteHead).toBe(model.MusicFontSymbol.NoteheadXBlack);
  });

  it('writes the standard-notation staff an octave above the sound, with the same rhythm', () => {
    const [notation, tab] = back.tracks[0]!.staves;
    expect(notation!.showStandardNotation).toBe(true);
    expect(notation!.bars[0]!.clefOttava).toBe(model.Ottavia._8vb);
    const rhythm = (st: model.Staff) =>
      st.bars.map((bar) =>
        bar.voices[0]!.beats.map((b) => `${b.duration}.${b.dots}.${b.tupletNumerator}`),
      );
    expect(rhythm(notation!)).toEqual(rhythm(tab!));
    // E2 (drop D's low string under a capo at 2) is written as E2 with the 8vb clef.
    expect(xml).toContain('<pitch><step>E</step><octave>2</octave></pitch>');
  });

  it('carries hammer-ons, pull-offs, vibrato widths and dead notes in the XML', () => {
    const tabNotes = [
      ...xml.matchAll(/<note>(?:(?!<\/note>).)*<staff>2<\/staff>(?:(?!<\/note>).)*<\/note>/g),
    ].map((m) => m[0]);
    const at = (string: number, fret: number) =>
      tabNotes.filter((t) => t.includes(`<string>${string}</string><fret>${fret}</fret>`));
    expect(at(3, 2)[0]).toContain('<hammer-on type="start">H</hammer-on>');
    expect(at(3, 4)[0]).toContain('<hammer-on type="stop">H</hammer-on>');
    expect(at(2, 5)[0]).toContain('<pull-off type="start">P</pull-off>');
    expect(at(2, 3)[0]).toContain('<pull-off type="stop">P</pull-off>');
    expect(at(1, 5)[0]).toContain('smufl="guitarVibratoStroke"');
    expect(at(1, 8)[0]).toContain('smufl="guitarWideVibratoStroke"');
    expect(at(6, 0).find((t) => t.includes('<notehead>x</notehead>'))).toBeDefined();
    expect(at(3, 7)[0]).toContain(
      '<bend><bend-alter>2</bend-alter></bend><bend><bend-alter>-2</bend-alter><release/></bend>',
    );
  });

  it('is well-formed, escapes the title and gives every tab note its string and fret', () => {
    expect(wellFormed(xml)).toBe(true);
    expect(xml).toContain('<work-title>Round &lt;trip&gt; &amp; &quot;test&quot;</work-title>');
    const technical = [...xml.matchAll(/<string>(\d)<\/string><fret>(\d+)<\/fret>/g)].map(
      (m) => `${m[1]}/${m[2]}`,
    );
    // Every written note of the TAB staff, ties included, in order.
    const expected = score.bars.flatMap((bar) =>
      bar.slots.flatMap((slot) =>
        slot.notes.map((i) => `${LESSON_NOTES[i]!.string}/${LESSON_NOTES[i]!.fret}`),
      ),
    );
    expect(technical).toEqual(expected);
    expect(xml).toContain('<divisions>6</divisions>');
    expect(xml).toContain('<sound tempo="90"/>');
    expect(xml).toContain(
      '<time-modification><actual-notes>3</actual-notes><normal-notes>2</normal-notes></time-modification>',
    );
    expect(xml).toContain(
      '<harmony><root><root-step>E</root-step></root><kind text="m7">minor-seventh</kind></harmony>',
    );
  });
});

/** A small XML walk: every tag closes in order, attributes are quoted, entities are known. */
function wellFormed(xml: string): boolean {
  const body = xml.replace(/^<\?xml[^>]*\?>\s*/, '').replace(/<!DOCTYPE[^>]*>\s*/, '');
  const stack: string[] = [];
  const tag = /<(\/?)([A-Za-z][\w.-]*)((?:\s+[\w:.-]+="[^"<]*")*)\s*(\/?)>/y;
  let i = 0;
  while (i < body.length) {
    const lt = body.indexOf('<', i);
    const text = body.slice(i, lt < 0 ? body.length : lt);
    if (/&(?!(amp|lt|gt|quot|apos);)/.test(text) || text.includes('>')) return false;
    if (lt < 0) break;
    tag.lastIndex = lt;
    const m = tag.exec(body);
    if (!m) return false;
    const [, close, name = '', , selfClose] = m;
    if (close) {
      if (stack.pop() !== name) return false;
    } else if (!selfClose) stack.push(name);
    i = tag.lastIndex;
  }
  return stack.length === 0;
}

describe('written notes', () => {
  const meta: NotationMeta = { title: 'Edges', tuning: [40, 45, 50, 55, 59, 64], capo: 0 };
  const grid = steadyGrid(120, 4, 4);

  it('links only a note and the one straight after it on its string', () => {
    const notes = [
      n(0, 0.5, 1, 5, { trailing_slide: true }),
      // A rest, then a note that says it was slid into: a slide in from below, not a link.
      n(1, 1.5, 1, 7, { leading_slide: true }),
      n(1.5, 2, 1, 9, { leading_hammer_on: true }),
      n(2, 2.5, 1, 5, { bend_to_fret: 7 }),
    ];
    const s = scoreOf(notes, grid);
    const flat = writtenNotes(s, notes).flatMap((bar) => bar.slots.flatMap((slot) => slot.notes));
    expect(flat.map((w) => [w.legatoIn, w.legatoOut, w.slideIn, w.slideOut])).toEqual([
      [null, null, false, true],
      [null, 'hammer', true, false],
      ['hammer', null, false, false],
      [null, null, false, false],
    ]);
    const back = importer.ScoreLoader.loadScoreFromBytes(toGuitarPro(s, notes, meta));
    const played = tabStaff(back).bars.flatMap((bar) =>
      bar.voices[0]!.beats.flatMap((b) => b.notes),
    );
    expect(played.map((p) => [p.slideOutType, p.slideInType, p.isHammerPullOrigin])).toEqual([
      [model.SlideOutType.OutDown, model.SlideInType.None, false],
      [model.SlideOutType.None, model.SlideInType.IntoFromBelow, true],
      [model.SlideOutType.None, model.SlideInType.None, false],
      [model.SlideOutType.None, model.SlideInType.None, false],
    ]);
    expect(noteSummary(played[3]!).bend).toBe('Bend 4>4');
    const xml = toMusicXml(s, notes, meta);
    expect(xml).toContain('<articulations><falloff/></articulations>');
    expect(xml).toContain('<articulations><scoop/></articulations>');
    expect(wellFormed(xml)).toBe(true);
  });

  it('writes one note a string when two start together on it', () => {
    const notes = [n(0, 1, 2, 5), n(0.01, 0.8, 2, 7), n(0, 1, 1, 0)];
    const s = scoreOf(notes, grid);
    // scoreOf moves the second note on string 2 to the next sixteenth...
    expect(s.bars[0]!.slots[0]!.notes).toEqual([2, 0]);
    expect(s.bars[0]!.slots[1]!.notes).toEqual([1]);
    // ...and where a slot still holds two (the last grid step), only the first is written.
    const crowded = structuredClone(s);
    crowded.bars[0]!.slots[0]!.notes = [2, 0, 1];
    const first = writtenNotes(crowded, notes)[0]!.slots[0]!.notes;
    expect(first.map((w) => `${w.string}/${w.fret}`)).toEqual(['1/0', '2/5']);
  });
});

describe('random lessons (seeded)', () => {
  /** A small linear congruential generator: the same lessons on every run. */
  const random = (seed: number) => () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };

  it('export and read back with the same rhythm, strings, frets and techniques', () => {
    const r = random(7);
    const meta: NotationMeta = { title: 'Random', tuning: [40, 45, 50, 55, 59, 64], capo: 1 };
    const tabBeats = (s: model.Score) =>
      tabStaff(s).bars.map((bar) =>
        bar.voices[0]!.beats.map((b) => ({
          rhythm: `${b.duration}.${b.dots}.${b.tupletNumerator}`,
          notes: b.notes.map((x) => `${x.string}/${x.fret}${x.isTieDestination ? '~' : ''}`).sort(),
          techniques: b.notes
            .map((x) =>
              [
                x.isHammerPullOrigin,
                x.slideOutType,
                x.slideInType,
                x.vibrato,
                x.isDead,
                x.bendType,
              ].join(),
            )
            .sort(),
        })),
      );
    const withoutTechniques = (bars: ReturnType<typeof tabBeats>) =>
      bars.map((bar) => bar.map(({ rhythm, notes }) => ({ rhythm, notes })));
    for (let trial = 0; trial < 20; trial++) {
      const notes: NoteEvent[] = [];
      for (let t = r() * 0.3; t < 8;) {
        const length = 0.06 + r() * 0.7;
        const voices = r() < 0.2 ? 3 : 1;
        for (let v = 0; v < voices; v++) {
          notes.push(
            n(
              t + r() * 0.01,
              t + length * (0.5 + r()),
              1 + Math.floor(r() * 6),
              Math.floor(r() * 12),
              {
                trailing_hammer_on: r() < 0.2,
                leading_slide: r() < 0.1,
                trailing_slide: r() < 0.1,
                vibrato: r() < 0.1 ? 'big' : '',
                mute: r() < 0.05,
                bend_to_fret: r() < 0.1 ? 14 : null,
                release_to_fret: r() < 0.05 ? 12 : null,
              },
            ),
          );
        }
        t += r() < 0.3 ? length / 3 : length;
      }
      const eighths = r() < 0.3;
      const grid = steadyGrid(70 + r() * 100, eighths ? 6 : 3 + Math.floor(r() * 3), 9, {
        beatUnit: eighths ? 8 : 4,
      });
      const s = scoreOf(notes, grid);
      const built = toAlphaTab(s, notes, meta);
      const gp = importer.ScoreLoader.loadScoreFromBytes(toGuitarPro(s, notes, meta));
      const xml = toMusicXml(s, notes, meta);
      const fromXml = importer.ScoreLoader.loadScoreFromBytes(new TextEncoder().encode(xml));
      expect(wellFormed(xml)).toBe(true);
      expect(gp.masterBars.length).toBe(s.bars.length);
      expect(fromXml.masterBars.length).toBe(s.bars.length);
      expect(tabBeats(gp)).toEqual(tabBeats(built));
      expect(withoutTechniques(tabBeats(fromXml))).toEqual(withoutTechniques(tabBeats(built)));
    }
  });
});

describe('key signature and spelling (issue 37: always C, always sharps)', () => {
  it('reads the key badge as fifths and mode', () => {
    expect(keySignatureOf('Eb major')).toEqual({ fifths: -3, mode: 'major' });
    expect(keySignatureOf('F# minor')).toEqual({ fifths: 3, mode: 'minor' });
    expect(keySignatureOf('C major')).toEqual({ fifths: 0, mode: 'major' });
    expect(keySignatureOf('Bb minor')).toEqual({ fifths: -5, mode: 'minor' });
    expect(keySignatureOf('E♭ major')).toEqual({ fifths: -3, mode: 'major' });
    // An unusual name: the usual key on its pitch class.
    expect(keySignatureOf('D# major')).toEqual({ fifths: -3, mode: 'major' });
    expect(keySignatureOf('')).toBeNull();
    expect(keySignatureOf('Unknown')).toBeNull();
  });

  // Ab (G#) and Bb (A#) on the G string, with the lesson in Eb major.
  const flatNotes = [
    plainNote({ time: 0, end_time: 0.5, string: 3, fret: 1 }),
    plainNote({ time: 0.5, end_time: 1, string: 3, fret: 3 }),
  ];
  const flatMeta: NotationMeta = { title: 'Eb', tuning: [40, 45, 50, 55, 59, 64], capo: 0 };
  const flatScore = scoreOf(flatNotes, steadyGrid(120, 4, 2));

  it('writes the key in MusicXML and spells with flats in a flat key', () => {
    const xml = toMusicXml(flatScore, flatNotes, { ...flatMeta, key: 'Eb major' });
    expect(xml).toContain('<key><fifths>-3</fifths><mode>major</mode></key>');
    expect(xml).toContain('<step>A</step><alter>-1</alter>');
    expect(xml).toContain('<step>B</step><alter>-1</alter>');
    expect(xml).not.toContain('<step>G</step><alter>1</alter>');
    // Without a key, C major and sharps as before.
    const plain = toMusicXml(flatScore, flatNotes, flatMeta);
    expect(plain).toContain('<key><fifths>0</fifths><mode>major</mode></key>');
    expect(plain).toContain('<step>G</step><alter>1</alter>');
  });

  it('gives the alphaTab model and the Guitar Pro file the key signature', () => {
    const built = toAlphaTab(flatScore, flatNotes, { ...flatMeta, key: 'C minor' });
    const bar = built.tracks[0]!.staves[0]!.bars[0]!;
    expect(bar.keySignature as number).toBe(-3);
    expect(bar.keySignatureType).toBe(model.KeySignatureType.Minor);
    const back = importer.ScoreLoader.loadScoreFromBytes(
      toGuitarPro(flatScore, flatNotes, { ...flatMeta, key: 'C minor' }),
      new Settings(),
    );
    expect(back.tracks[0]!.staves[0]!.bars[0]!.keySignature as number).toBe(-3);
  });
});

describe('tempo marks (issue 37: a tempo on every bar)', () => {
  const bars = (tempos: number[]) => ({ bars: tempos.map((tempo) => ({ tempo })) });

  it('writes one tempo for a steady take whose bars breathe by a few percent', () => {
    const tempi = writtenTempi(bars([140, 129, 134, 125, 131, 127, 136, 128]));
    expect(new Set(tempi).size).toBe(1);
    expect(tempi[0]).toBe(130);
  });

  it('keeps one bar out of line in its stretch, and marks a real change', () => {
    expect(new Set(writtenTempi(bars([120, 121, 150, 119, 120]))).size).toBe(1);
    const changed = writtenTempi(bars([90, 92, 89, 91, 130, 128, 131, 129]));
    expect(changed).toEqual([91, 91, 91, 91, 130, 130, 130, 130]);
  });

  it('writes that one mark in MusicXML and in the alphaTab model', () => {
    const breathing = scoreOf(LESSON_NOTES, LESSON_GRID);
    const xml = toMusicXml(breathing, LESSON_NOTES, LESSON_META);
    const marks = [...xml.matchAll(/<per-minute>/g)].length;
    expect(marks).toBe(new Set(writtenTempi(breathing)).size);
    const built = toAlphaTab(breathing, LESSON_NOTES, LESSON_META);
    const automations = built.masterBars.flatMap((m) => m.tempoAutomations).length;
    expect(automations).toBe(marks);
  });
});

describe('names that are not plain text (issue 38 row 5)', () => {
  /** Seeded: names of random code points, with the hostile ones mixed in. */
  const random = (seed: number) => () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const HOSTILE = [
    'x]]></Title><Artist>INJECTED</Artist><Title><![CDATA[y',
    '\u0000',
    '\u0001',
    '\u0007',
    '\u001f',
    '\u007f',
    '\ufffe',
    '\ud800',
    '<b>&amp;</b>',
    '"\'',
    ']]>',
    '𝄞🎸',
    'שלום',
  ];
  const name = (r: () => number) => {
    let out = '';
    const length = 1 + Math.floor(r() * 12);
    for (let i = 0; i < length; i++) {
      const pick = r();
      if (pick < 0.3) out += HOSTILE[Math.floor(r() * HOSTILE.length)] ?? '';
      else if (pick < 0.6) out += String.fromCharCode(Math.floor(r() * 0x80));
      else out += String.fromCodePoint(Math.floor(r() * 0x2ffff));
    }
    return out;
  };
  /* eslint-disable no-control-regex -- the characters XML 1.0 does not allow */
  const ILLEGAL =
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
  /* eslint-enable no-control-regex */

  it('every export of a lesson with such a title and chord names parses back', () => {
    const r = random(11);
    const notes = [n(0, 0.5, 3, 2), n(0.5, 1, 2, 3), n(1, 2, 1, 0)];
    const grid = steadyGrid(120, 4, 2);
    const s = scoreOf(notes, grid);
    for (let trial = 0; trial < 40; trial++) {
      const chords: ChordEvent[] = [
        { time: 0, end_time: 1, chord: name(r), event_type: 'chord' },
        { time: 1, end_time: 2, chord: name(r), event_type: 'chord' },
      ];
      const meta: NotationMeta = { ...LESSON_META, title: name(r), chords };
      const xml = toMusicXml(s, notes, meta);
      expect(ILLEGAL.test(xml), `MusicXML of ${JSON.stringify(meta.title)}`).toBe(false);
      expect(wellFormed(xml)).toBe(true);
      const fromXml = importer.ScoreLoader.loadScoreFromBytes(new TextEncoder().encode(xml));
      expect(fromXml.masterBars.length).toBe(s.bars.length);
      const gp = importer.ScoreLoader.loadScoreFromBytes(toGuitarPro(s, notes, meta));
      expect(gp.masterBars.length).toBe(s.bars.length);
      expect(gp.artist).not.toContain('INJECTED');
      expect(ILLEGAL.test(gp.title), `GP title of ${JSON.stringify(meta.title)}`).toBe(false);
    }
  });
});
