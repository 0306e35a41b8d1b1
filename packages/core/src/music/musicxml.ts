import type { NoteEvent } from '../events.js';
import type { NoteValue, Score, ScoreBar, ScoreSlot } from './score.js';
import {
  chordNamesBySlot,
  soundingPitch,
  writtenNotes,
  writtenTempi,
  writtenTempo,
  type NotationMeta,
  type WrittenNote,
  type WrittenSlot,
} from './written.js';
import { keySignatureOf } from './key-signature.js';

/**
 * A lesson as MusicXML 4.0 (score-partwise, pure): one guitar part on two staves, standard
 * notation (treble clef an octave down, as guitar is written) and a six-line TAB staff with the
 * tuning and capo. Both staves carry the same notes; technical marks (string, fret, hammer-on,
 * pull-off, bends) are on the TAB staff, MusicXML's strings counting 1 = highest as ours do.
 */

const TYPE_NAMES: Record<NoteValue, string> = {
  1: 'whole',
  2: 'half',
  4: 'quarter',
  8: 'eighth',
  16: '16th',
  32: '32nd',
  64: '64th',
};

/** Step letters in order (a sharp sits on C, D, F, G or A: the letter above it exists). */
const LETTERS = 'CDEFGAB';

const STEPS: readonly (readonly [string, number])[] = [
  ['C', 0],
  ['C', 1],
  ['D', 0],
  ['D', 1],
  ['E', 0],
  ['F', 0],
  ['F', 1],
  ['G', 0],
  ['G', 1],
  ['A', 0],
  ['A', 1],
  ['B', 0],
];

/* eslint-disable no-control-regex -- the characters XML 1.0 does not allow */
const NOT_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/* eslint-enable no-control-regex */

/**
 * A name or chord as text an XML file can hold: without the characters XML 1.0 forbids (control
 * characters, U+FFFE/FFFF, halves of surrogate pairs), and with `]]>` broken up, so that a
 * writer that puts it in a CDATA section (Guitar Pro's) cannot be made to close it.
 */
export function xmlText(text: string): string {
  return text.replace(NOT_XML, '').replace(/]]>/g, ']] >');
}

/** Escapes text for XML content and attribute values (and drops what XML cannot hold). */
export function escapeXml(text: string): string {
  return xmlText(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * Step, alter and octave of a MIDI pitch (60 = C4), spelled with sharps; in a flat key (`fifths`
 * below 0) a black key is the flat of the step above (G# is written Ab).
 */
export function spellPitch(
  midi: number,
  fifths = 0,
): { step: string; alter: number; octave: number } {
  const [sharp, raised] = STEPS[((midi % 12) + 12) % 12] ?? ['C', 0];
  const octave = Math.floor(midi / 12) - 1;
  if (fifths < 0 && raised === 1) {
    return { step: LETTERS[LETTERS.indexOf(sharp) + 1] ?? sharp, alter: -1, octave };
  }
  return { step: sharp, alter: raised, octave };
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));

/**
 * The lesson as a MusicXML 4.0 document. `score` is `scoreOf(notes, grid)`; the bars, time
 * signatures, tempi and note values are the Score's, never rebuilt from the notes' times.
 */
export function toMusicXml(score: Score, notes: readonly NoteEvent[], meta: NotationMeta): string {
  const written = writtenNotes(score, notes);
  const tpq = score.ticksPerQuarter;
  let unit = tpq;
  for (const bar of score.bars) for (const s of bar.slots) unit = gcd(unit, gcd(s.ticks, s.tick));
  const divisions = tpq / unit;
  const dur = (ticks: number) => ticks / unit;
  const chordAt = chordNamesBySlot(score, meta.chords ?? []);
  const key = keySignatureOf(meta.key) ?? { fifths: 0, mode: 'major' };

  const out: string[] = [];
  out.push('<?xml version="1.0" encoding="UTF-8" standalone="no"?>');
  out.push(
    '<!DOCTYPE score-partwise PUBLIC "-//Recordare//DTD MusicXML 4.0 Partwise//EN" "http://www.musicxml.org/dtds/partwise.dtd">',
  );
  out.push('<score-partwise version="4.0">');
  out.push(`  <work><work-title>${escapeXml(meta.title)}</work-title></work>`);
  out.push(
    '  <identification><encoding><software>Riffscribe</software></encoding></identification>',
  );
  out.push('  <part-list>');
  out.push('    <score-part id="P1">');
  out.push('      <part-name>Guitar</part-name>');
  out.push(
    '      <score-instrument id="P1-I1"><instrument-name>Guitar</instrument-name></score-instrument>',
  );
  out.push(
    '      <midi-instrument id="P1-I1"><midi-channel>1</midi-channel><midi-program>26</midi-program></midi-instrument>',
  );
  out.push('    </score-part>');
  out.push('  </part-list>');
  out.push('  <part id="P1">');

  let lastTempo = -1;
  const tempi = writtenTempi(score);
  score.bars.forEach((bar, b) => {
    const previous = score.bars[b - 1];
    out.push(`    <measure number="${b + 1}">`);
    const timeChanged =
      previous?.numerator !== bar.numerator || previous.denominator !== bar.denominator;
    if (b === 0) {
      out.push('      <attributes>');
      out.push(`        <divisions>${divisions}</divisions>`);
      out.push(`        <key><fifths>${key.fifths}</fifths><mode>${key.mode}</mode></key>`);
      out.push(time(bar));
      out.push('        <staves>2</staves>');
      out.push(
        '        <clef number="1"><sign>G</sign><line>2</line><clef-octave-change>-1</clef-octave-change></clef>',
      );
      out.push('        <clef number="2"><sign>TAB</sign><line>5</line></clef>');
      out.push(staffDetails(meta));
      out.push('      </attributes>');
    } else if (timeChanged) {
      out.push(`      <attributes>${time(bar).trim()}</attributes>`);
    }
    const tempo = tempi[b] ?? writtenTempo(bar.tempo);
    if (tempo !== lastTempo) {
      out.push(
        `      <direction placement="above"><direction-type><metronome><beat-unit>quarter</beat-unit><per-minute>${tempo}</per-minute></metronome></direction-type><staff>1</staff><sound tempo="${tempo}"/></direction>`,
      );
      lastTempo = tempo;
    }
    const slots = written[b]?.slots ?? [];
    const beatTicks = (4 * tpq) / bar.denominator;
    for (const staff of [1, 2] as const) {
      slots.forEach((ws, s) => {
        const name = staff === 1 ? chordAt.get(`${b}:${s}`) : undefined;
        if (name !== undefined) out.push(harmony(name));
        out.push(...slotXml(ws, staff, dur, meta, tripletMark(slots, s, beatTicks)));
      });
      if (staff === 1) {
        const barTicks = bar.slots.reduce((sum, s) => sum + s.ticks, 0);
        out.push(`      <backup><duration>${dur(barTicks)}</duration></backup>`);
      }
    }
    if (b === score.bars.length - 1) {
      out.push('      <barline location="right"><bar-style>light-heavy</bar-style></barline>');
    }
    out.push('    </measure>');
  });
  out.push('  </part>');
  out.push('</score-partwise>');
  return out.join('\n') + '\n';
}

function time(bar: ScoreBar): string {
  return `        <time><beats>${bar.numerator}</beats><beat-type>${bar.denominator}</beat-type></time>`;
}

function staffDetails(meta: NotationMeta): string {
  const lines = [...meta.tuning].map((midi, i) => {
    const { step, alter, octave } = spellPitch(midi);
    const alterXml = alter !== 0 ? `<tuning-alter>${alter}</tuning-alter>` : '';
    // Line 1 is the bottom line of the TAB staff: the lowest string, tuning[0].
    return `<staff-tuning line="${i + 1}"><tuning-step>${step}</tuning-step>${alterXml}<tuning-octave>${octave}</tuning-octave></staff-tuning>`;
  });
  const capo = meta.capo > 0 ? `<capo>${meta.capo}</capo>` : '';
  return `        <staff-details number="2"><staff-lines>6</staff-lines>${lines.join('')}${capo}</staff-details>`;
}

/** "start", "stop", "both" or null: where the slot stands in its beat's triplet bracket. */
function tripletMark(
  slots: readonly WrittenSlot[],
  index: number,
  beatTicks: number,
): 'start' | 'stop' | 'both' | null {
  const slot = slots[index]?.slot;
  if (slot?.tuplet !== 3) return null;
  const beat = Math.floor(slot.tick / beatTicks);
  const sameBeat = (other: ScoreSlot | undefined) =>
    other?.tuplet === 3 && Math.floor(other.tick / beatTicks) === beat;
  const first = !sameBeat(slots[index - 1]?.slot);
  const last = !sameBeat(slots[index + 1]?.slot);
  if (first && last) return 'both';
  return first ? 'start' : last ? 'stop' : null;
}

function slotXml(
  ws: WrittenSlot,
  staff: 1 | 2,
  dur: (ticks: number) => number,
  meta: NotationMeta,
  triplet: 'start' | 'stop' | 'both' | null,
): string[] {
  const { slot } = ws;
  const fifths = keySignatureOf(meta.key)?.fifths ?? 0;
  const common = (n: WrittenNote | null, first: boolean) => {
    const parts: string[] = [];
    parts.push(`<duration>${dur(slot.ticks)}</duration>`);
    if (n?.tieStop) parts.push('<tie type="stop"/>');
    if (n?.tieStart) parts.push('<tie type="start"/>');
    parts.push('<voice>1</voice>');
    parts.push(`<type>${TYPE_NAMES[slot.value]}</type>`);
    for (let d = 0; d < slot.dots; d++) parts.push('<dot/>');
    if (slot.tuplet === 3) {
      parts.push(
        '<time-modification><actual-notes>3</actual-notes><normal-notes>2</normal-notes></time-modification>',
      );
    }
    if (staff === 2) parts.push('<stem>none</stem>');
    if (n?.dead) parts.push('<notehead>x</notehead>');
    parts.push(`<staff>${staff}</staff>`);
    const notations = notationsXml(n, staff, first ? triplet : null);
    if (notations) parts.push(notations);
    return parts.join('');
  };
  if (ws.notes.length === 0) {
    return [`      <note><rest/>${common(null, true)}</note>`];
  }
  return ws.notes.map((n, k) => {
    const { step, alter, octave } = spellPitch(
      soundingPitch(meta.tuning, meta.capo, n.string, n.fret),
      fifths,
    );
    const alterXml = alter !== 0 ? `<alter>${alter}</alter>` : '';
    const chord = k > 0 ? '<chord/>' : '';
    return `      <note>${chord}<pitch><step>${step}</step>${alterXml}<octave>${octave}</octave></pitch>${common(n, k === 0)}</note>`;
  });
}

const LEGATO_TEXT = { hammer: 'H', pull: 'P' } as const;

function notationsXml(
  n: WrittenNote | null,
  staff: 1 | 2,
  triplet: 'start' | 'stop' | 'both' | null,
): string {
  const parts: string[] = [];
  if (n?.tieStop) parts.push('<tied type="stop"/>');
  if (n?.tieStart) parts.push('<tied type="start"/>');
  if (triplet === 'start' || triplet === 'both') parts.push('<tuplet type="start" bracket="yes"/>');
  if (triplet === 'stop' || triplet === 'both') parts.push('<tuplet type="stop"/>');
  if (n) {
    // Standard notation shows hammer-ons and pull-offs as slurs; the TAB staff as technical marks.
    if (staff === 1 && (n.legatoIn === 'hammer' || n.legatoIn === 'pull'))
      parts.push('<slur type="stop"/>');
    if (staff === 1 && (n.legatoOut === 'hammer' || n.legatoOut === 'pull'))
      parts.push('<slur type="start"/>');
    if (n.legatoIn === 'slide') parts.push('<slide type="stop" line-type="solid"/>');
    if (n.legatoOut === 'slide') parts.push('<slide type="start" line-type="solid"/>');
    if (n.vibrato !== '') {
      const glyph = n.vibrato === 'big' ? 'guitarWideVibratoStroke' : 'guitarVibratoStroke';
      parts.push(
        `<ornaments><wavy-line type="start" smufl="${glyph}"/><wavy-line type="stop"/></ornaments>`,
      );
    }
    if (staff === 2) {
      const technical: string[] = [];
      if (n.legatoIn === 'hammer' || n.legatoIn === 'pull') {
        const tag = n.legatoIn === 'hammer' ? 'hammer-on' : 'pull-off';
        technical.push(`<${tag} type="stop">${LEGATO_TEXT[n.legatoIn]}</${tag}>`);
      }
      if (n.legatoOut === 'hammer' || n.legatoOut === 'pull') {
        const tag = n.legatoOut === 'hammer' ? 'hammer-on' : 'pull-off';
        technical.push(`<${tag} type="start">${LEGATO_TEXT[n.legatoOut]}</${tag}>`);
      }
      technical.push(`<string>${n.string}</string><fret>${n.fret}</fret>`);
      if (n.bend) {
        technical.push(`<bend><bend-alter>${n.bend.semitones}</bend-alter></bend>`);
        if (n.bend.release !== null) {
          const back = n.bend.release - n.bend.semitones;
          technical.push(`<bend><bend-alter>${back}</bend-alter><release/></bend>`);
        }
      }
      parts.push(`<technical>${technical.join('')}</technical>`);
      // A slide from or to no note: a scoop in, a fall-off out.
      const articulations = [n.slideIn ? '<scoop/>' : '', n.slideOut ? '<falloff/>' : ''].join('');
      if (articulations) parts.push(`<articulations>${articulations}</articulations>`);
    }
  }
  return parts.length > 0 ? `<notations>${parts.join('')}</notations>` : '';
}

/** Kinds MusicXML names for the usual chord suffixes; anything else is "other" with its text. */
const KINDS: Record<string, string> = {
  '': 'major',
  m: 'minor',
  '7': 'dominant',
  maj7: 'major-seventh',
  m7: 'minor-seventh',
  dim: 'diminished',
  dim7: 'diminished-seventh',
  aug: 'augmented',
  m7b5: 'half-diminished',
  '6': 'major-sixth',
  m6: 'minor-sixth',
  '9': 'dominant-ninth',
  sus2: 'suspended-second',
  sus4: 'suspended-fourth',
  '5': 'power',
};

/** A chord name as <harmony>: root, kind (its text exactly as named) and bass. */
function harmony(name: string): string {
  const match = /^([A-G])([#b]?)(.*?)(?:\/([A-G])([#b]?))?$/.exec(name.trim());
  if (!match) {
    return `      <harmony><root><root-step>C</root-step></root><kind text="${escapeXml(name)}">none</kind></harmony>`;
  }
  const [, root = 'C', rootAcc = '', suffix = '', bass, bassAcc = ''] = match;
  const alter = (acc: string) =>
    acc === '#' ? '<root-alter>1</root-alter>' : acc === 'b' ? '<root-alter>-1</root-alter>' : '';
  const kind = KINDS[suffix] ?? 'other';
  const bassXml = bass
    ? `<bass><bass-step>${bass}</bass-step>${alter(bassAcc).replace(/root-alter/g, 'bass-alter')}</bass>`
    : '';
  return `      <harmony><root><root-step>${root}</root-step>${alter(rootAcc)}</root><kind text="${escapeXml(suffix)}">${kind}</kind>${bassXml}</harmony>`;
}
