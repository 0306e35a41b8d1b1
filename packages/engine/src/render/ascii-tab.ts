import type { ChordEvent, NoteEvent } from '@riffscribe/core';

const NOTE_NAMES = ['C', 'C#', 'D', 'Eb', 'E', 'F', 'F#', 'G', 'Ab', 'A', 'Bb', 'B'] as const;

/** Options for `renderAsciiTab`. */
export interface AsciiTabOptions {
  /** Open-string MIDI pitches, low to high (for the string labels). */
  tuning: readonly number[];
  capo: number;
  /** Characters per line of music, labels excluded. */
  width?: number;
  /** Onsets closer than this (seconds) share a column. */
  chordWindow?: number;
}

/** Mark written after a fret for the technique that leaves the note (or the bend it makes). */
function suffix(note: NoteEvent): string {
  if (note.mute) return '';
  if (note.bend_to_fret !== null) {
    return note.release_to_fret !== null
      ? `b${note.bend_to_fret}r${note.release_to_fret}`
      : `b${note.bend_to_fret}`;
  }
  if (note.trailing_slide) return '/';
  if (note.trailing_hammer_on) return 'h';
  if (note.trailing_pull_off) return 'p';
  if (note.vibrato !== '') return '~';
  return '';
}

function cell(note: NoteEvent, next: NoteEvent | undefined): string {
  const body = note.mute ? 'x' : String(note.fret);
  let mark = suffix(note);
  // A slide is drawn / when it goes up and \ when it goes down.
  if (mark === '/' && next && next.fret < note.fret) mark = '\\';
  return body + mark;
}

function label(pitch: number): string {
  return NOTE_NAMES[((pitch % 12) + 12) % 12] ?? '?';
}

/**
 * Renders notes as a plain-text tab a guitarist can read in a terminal: one line per string
 * (high e on top), one column group per onset, techniques written the usual way
 * (h, p, / \, b for bends with the target fret, r for release, ~ vibrato, x muted), chord names
 * above, and the time in seconds at the start of each line. Pure: returns the text.
 */
export function renderAsciiTab(
  notes: readonly NoteEvent[],
  chords: readonly ChordEvent[],
  options: AsciiTabOptions,
): string {
  const width = options.width ?? 72;
  const window = options.chordWindow ?? 0.03;
  const labels = [1, 2, 3, 4, 5, 6].map((s) => {
    const open = options.tuning[6 - s] ?? 0;
    return label(open + options.capo).padEnd(2);
  });
  if (notes.length === 0) return '(no notes)\n';

  const sorted = [...notes].sort((a, b) => a.time - b.time || a.string - b.string);
  const groups: NoteEvent[][] = [];
  for (const note of sorted) {
    const current = groups.at(-1);
    const first = current?.[0];
    if (current && first && note.time - first.time <= window) current.push(note);
    else groups.push([note]);
  }
  const nextOnString = (group: number, string: number): NoteEvent | undefined => {
    for (let g = group + 1; g < groups.length; g += 1) {
      const hit = groups[g]?.find((n) => n.string === string);
      if (hit) return hit;
    }
    return undefined;
  };

  const lines: string[] = [];
  let rows = labels.map(() => '');
  let chordRow = '';
  let lineStart = groups[0]?.[0]?.time ?? 0;
  let chordIndex = 0;
  const flush = () => {
    lines.push(`${lineStart.toFixed(1)}s`);
    if (chordRow.trim() !== '') lines.push(`   ${chordRow}`);
    rows.forEach((row, i) => lines.push(`${labels[i] ?? '  '}|${row}-|`));
    lines.push('');
    rows = labels.map(() => '');
    chordRow = '';
  };

  groups.forEach((group, g) => {
    const cells = [1, 2, 3, 4, 5, 6].map((s) => {
      const note = group.find((n) => n.string === s);
      return note ? cell(note, nextOnString(g, s)) : '';
    });
    const cellWidth = Math.max(...cells.map((c) => c.length)) + 1;
    if ((rows[0]?.length ?? 0) + cellWidth > width) {
      flush();
      lineStart = group[0]?.time ?? lineStart;
    }
    const at = group[0]?.time ?? 0;
    let name = '';
    while (chordIndex < chords.length && (chords[chordIndex]?.time ?? Infinity) <= at + window) {
      name = chords[chordIndex]?.chord ?? '';
      chordIndex += 1;
    }
    if (name !== '') {
      // Names never run into each other: at least one space after the previous name.
      const at = Math.max(rows[0]?.length ?? 0, chordRow === '' ? 0 : chordRow.length + 1);
      chordRow = chordRow.padEnd(at) + name;
    }
    rows = rows.map((row, i) => row + '-' + (cells[i] ?? '').padEnd(cellWidth - 1, '-'));
  });
  flush();
  return lines.join('\n');
}
