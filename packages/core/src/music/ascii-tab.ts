import { PITCH_STEPS_PER_FRET } from '../constants.js';
import type { NoteEvent } from '../events.js';
import { sharpName, tuningName } from '../guitar.js';
import { barLengthTicks, placedNotes } from './export-meta.js';
import type { NotationMeta } from './written.js';
import type { Score, ScoreBar } from './score.js';

/**
 * The lesson as plain-text tablature (pure): a header (title, tuning, capo, tempo, time, a key
 * to the marks), then systems of bars: a line of chord names (and the number of the system's
 * first bar, and any new time signature), six string lines named from the tuning, high e on top,
 * bar lines `|`. Each slot of the score is a column placed by its tick (a 32nd note a column, so a
 * 4/4 bar is 32 columns), pushed right where the marks before it need the room; tied
 * continuations and rests are dashes. Systems break at bar lines to stay within `width` columns;
 * the bars of rests after the last note are left out.
 *
 * Marks, written on the note they belong to: `h` hammer-on and `p` pull-off before the note they
 * reach, `/` and `\` a slide up or down into it (after a note that slides out with no note to
 * reach), `7b9` a bend from 7 to the pitch of 9, `r7` its release, `~` vibrato, `x` a dead note.
 */

/** Ticks a column stands for, as a fraction of a quarter note. */
const COLUMN_QUARTERS = 1 / 8;
/** Wrap width of a system, in characters. */
export const ASCII_TAB_WIDTH = 80;

/**
 * Names of strings 1..6 (index 0 = string 1, high e): the open note's name; the top string in
 * lower case when it has the bottom string's name ("e" over "E"), as tabs write it.
 */
export function stringNames(tuning: readonly number[]): string[] {
  const names = [1, 2, 3, 4, 5, 6].map((s) => sharpName(tuning[6 - s] ?? 0));
  const top = names[0];
  if (top !== undefined && top === names[5]) names[0] = top.toLowerCase();
  return names;
}

interface Cell {
  /** One text per string, index 0 = string 1; '' where the string has no note. */
  text: string[];
  width: number;
}

interface RenderedBar {
  /** Six lines of dashes and cells, without the closing bar line. */
  lines: string[];
  /** Chord names and markers above the bar: [column, text]. */
  marks: [number, string][];
  width: number;
}

/** Plain-text tab of a score (see the module comment). `notes` are those given to `scoreOf`. */
export function toAsciiTab(
  score: Score,
  notes: readonly NoteEvent[],
  meta: NotationMeta,
  options: { width?: number } = {},
): string {
  const width = options.width ?? ASCII_TAB_WIDTH;
  const names = stringNames(meta.tuning);
  const nameWidth = Math.max(...names.map((n) => n.length));
  const cells = noteCells(score, notes);
  // Bars of rests after the last note (the beat grid runs to the end of the video) are left
  // out; those before the first note stay, so that bar numbers match the player's.
  let last = score.bars.length - 1;
  while (last > 0 && score.bars[last]?.slots.every((slot) => slot.notes.length === 0)) last--;
  const bars = score.bars
    .slice(0, last + 1)
    .map((bar, b) =>
      renderBar(
        score,
        notes,
        b,
        cells,
        chordMarks(bar, meta),
        b > 0 ? score.bars[b - 1] : undefined,
      ),
    );

  const out: string[] = [...header(score, meta, names), ''];
  let b = 0;
  while (b < bars.length) {
    // As many bars as fit on the line; at least one.
    let end = b + 1;
    let used = nameWidth + 1 + (bars[b]?.width ?? 0) + 1;
    while (end < bars.length && used + (bars[end]?.width ?? 0) + 1 <= width) {
      used += (bars[end]?.width ?? 0) + 1;
      end++;
    }
    const system = bars.slice(b, end);
    let above = String(b + 1).padEnd(nameWidth + 1);
    let offset = nameWidth + 1;
    for (const bar of system) {
      for (const [col, text] of bar.marks) {
        const at = Math.max(offset + col, above.trimEnd().length + (above.trim() ? 1 : 0));
        above = above.padEnd(at) + text;
      }
      offset += bar.width + 1;
    }
    out.push(above.trimEnd());
    names.forEach((name, s) => {
      out.push(
        `${name.padEnd(nameWidth)}|${system.map((bar) => `${bar.lines[s] ?? ''}|`).join('')}`,
      );
    });
    out.push('');
    b = end;
  }
  return `${out.join('\n').trimEnd()}\n`;
}

function header(score: Score, meta: NotationMeta, names: string[]): string[] {
  const printable = Array.from(meta.title, (c) =>
    c.charCodeAt(0) < 32 || c === '\u007f' ? ' ' : c,
  );
  const title = printable.join('').replace(/\s+/g, ' ').trim() || 'Untitled lesson';
  const lowToHigh = [...names].reverse().map((n) => n.toUpperCase());
  const capo =
    meta.capo > 0
      ? `Capo: fret ${String(meta.capo)} (fret numbers count from the capo)`
      : 'Capo: none';
  const tempos = score.bars.map((bar) => Math.round(bar.tempo));
  const first = tempos[0] ?? 120;
  const low = Math.min(...tempos, first);
  const high = Math.max(...tempos, first);
  const tempo =
    low === high
      ? `Tempo: ${String(first)} bpm`
      : `Tempo: ${String(first)} bpm at the start, ${String(low)}-${String(high)} bpm over the lesson`;
  const firstBar = score.bars[0];
  const time = firstBar
    ? `Time: ${String(firstBar.numerator)}/${String(firstBar.denominator)}`
    : '';
  return [
    title,
    '='.repeat(Math.min(title.length, ASCII_TAB_WIDTH)),
    `Tuning: ${tuningName(meta.tuning)} (${lowToHigh.join(' ')}, low to high)`,
    capo,
    tempo,
    ...(time ? [time] : []),
    '',
    'h hammer-on, p pull-off, / \\ slide, b bend, r release, ~ vibrato, x dead note',
  ];
}

/** The text of every sounded note, by index into `notes`, with its marks. */
function noteCells(score: Score, notes: readonly NoteEvent[]): Map<number, string> {
  const placed = placedNotes(score);
  const out = new Map<number, string>();
  // The notes of each string in order, to find the note a slide or legato comes from or goes to.
  const byString = new Map<number, number[]>();
  for (const p of placed) {
    const n = notes[p.note];
    if (!n) continue;
    byString.set(n.string, [...(byString.get(n.string) ?? []), p.note]);
  }
  for (const order of byString.values()) {
    order.forEach((i, k) => {
      const n = notes[i];
      if (!n) return;
      const prev = k > 0 ? notes[order[k - 1] ?? -1] : undefined;
      const next = notes[order[k + 1] ?? -1];
      let text = '';
      if (n.leading_hammer_on) text += 'h';
      else if (n.leading_pull_off) text += 'p';
      else if (n.leading_slide) text += prev && prev.fret > n.fret ? '\\' : '/';
      text += n.mute ? 'x' : String(n.fret);
      if (!n.mute) text += bendText(n);
      if (n.vibrato && !n.mute) text += '~';
      // A technique out of this note with no note on the string that takes it up.
      if (n.trailing_slide && !next?.leading_slide) text += '\\';
      else if (n.trailing_hammer_on && !next?.leading_hammer_on) text += 'h';
      else if (n.trailing_pull_off && !next?.leading_pull_off) text += 'p';
      out.set(i, text);
    });
  }
  return out;
}

/** "b9", "b9r7" from bend_to_fret / release_to_fret, else from the top of the pitch curve. */
function bendText(n: NoteEvent): string {
  if (n.bend_to_fret !== null && n.bend_to_fret !== n.fret) {
    const release = n.release_to_fret === null ? '' : `r${String(n.release_to_fret)}`;
    return `b${String(n.bend_to_fret)}${release}`;
  }
  const top = Math.max(...n.pitch_arr);
  const frets = Math.round((top - 1) / PITCH_STEPS_PER_FRET);
  if (frets <= 0) return '';
  const falls = (n.pitch_arr.at(-1) ?? 1) < top - PITCH_STEPS_PER_FRET / 2;
  return `b${String(n.fret + frets)}${falls ? `r${String(n.fret)}` : ''}`;
}

/** Chord names that start in this bar, as [tick in the bar, name]. */
function chordMarks(bar: ScoreBar, meta: NotationMeta): [number, string][] {
  const out: [number, string][] = [];
  const length = bar.end - bar.start;
  for (const chord of meta.chords ?? []) {
    if (chord.time < bar.start - 1e-6 || chord.time >= bar.end - 1e-6 || length <= 0) continue;
    out.push([(chord.time - bar.start) / length, chord.chord.replace(/\s+/g, ' ').trim()]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

function renderBar(
  score: Score,
  notes: readonly NoteEvent[],
  b: number,
  cells: Map<number, string>,
  chords: [number, string][],
  previous: ScoreBar | undefined,
): RenderedBar {
  const bar = score.bars[b];
  const perColumn = score.ticksPerQuarter * COLUMN_QUARTERS;
  const length = barLengthTicks(score, b);
  const slots = (bar?.slots ?? []).map((slot) => {
    const text = [0, 1, 2, 3, 4, 5].map(() => '');
    if (!slot.tied) {
      for (const i of slot.notes) {
        const t = cells.get(i);
        // One note a string: the first the slot lists.
        const s = (notes[i]?.string ?? 0) - 1;
        if (t !== undefined && s >= 0 && s < 6 && text[s] === '') text[s] = t;
      }
    }
    const cell: Cell = { text, width: Math.max(1, ...text.map((t) => t.length)) };
    return { tick: slot.tick, cell };
  });
  // Columns: one dash after the bar line, then each slot at its tick unless the one before needs
  // the room.
  const cols: number[] = [];
  let next = 1;
  for (const { tick, cell } of slots) {
    const col = Math.max(1 + Math.round(tick / perColumn), next);
    cols.push(col);
    next = col + cell.width + 1;
  }
  const width = Math.max(1 + Math.round(length / perColumn), next);
  const lines = [0, 1, 2, 3, 4, 5].map((s) => {
    const chars = Array.from({ length: width }, () => '-');
    slots.forEach(({ cell }, k) => {
      const text = cell.text[s] ?? '';
      for (let c = 0; c < text.length; c++) chars[(cols[k] ?? 0) + c] = text[c] ?? '-';
    });
    return chars.join('');
  });
  const marks: [number, string][] = [];
  if (
    bar &&
    previous &&
    (bar.numerator !== previous.numerator || bar.denominator !== previous.denominator)
  ) {
    marks.push([0, `(${String(bar.numerator)}/${String(bar.denominator)})`]);
  }
  for (const [along, name] of chords) {
    // The slot nearest the chord's place in the bar.
    const tick = along * length;
    let best = 0;
    slots.forEach((slot, k) => {
      if (Math.abs(slot.tick - tick) < Math.abs((slots[best]?.tick ?? 0) - tick)) best = k;
    });
    marks.push([cols[best] ?? 1, name]);
  }
  return { lines, marks, width };
}
