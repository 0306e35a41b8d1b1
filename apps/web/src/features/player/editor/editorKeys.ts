import type { Technique, TechniqueSide } from '@riffscribe/core';
import type { KeyInput } from '../keyInput';

/**
 * What a key does in edit mode. None of these keys is one of the player's (Space, the arrows, L,
 * Escape), so playing and editing never fight over a key.
 */
export type EditKey =
  | { type: 'digit'; digit: number }
  | { type: 'delete' }
  | { type: 'copy' }
  | { type: 'cut' }
  | { type: 'paste' }
  | { type: 'selectAll' }
  | { type: 'nudge'; direction: 1 | -1; shift: boolean }
  | { type: 'resize'; direction: 1 | -1; shift: boolean }
  | { type: 'string'; by: 1 | -1 }
  | { type: 'technique'; side: TechniqueSide; technique: Technique }
  | { type: 'mute' }
  | { type: 'vibrato'; kind: 'small' | 'big' }
  | { type: 'bend' }
  | { type: 'addNote' }
  | { type: 'addChord' }
  | { type: 'renameChord' }
  | { type: 'review'; direction: 1 | -1 }
  | { type: 'accept' }
  | { type: 'addSuggestion' }
  | { type: 'refinger' }
  | { type: 'barLine' };

/** One line of the keyboard help: the keys as shown and what they do. */
export interface KeyHelp {
  keys: string;
  does: string;
}

export const PLAYER_KEYS: readonly KeyHelp[] = [
  { keys: 'Space', does: 'Play / pause' },
  { keys: '↑ ↓', does: 'Change speed' },
  { keys: '← →', does: 'Seek 0.5 s' },
  { keys: 'Shift ← →', does: 'Previous / next section: loop it and go to its start' },
  { keys: 'L', does: 'Loop 2 s on / off' },
  { keys: 'K', does: 'Metronome on / off' },
  { keys: 'I', does: 'Count-in before play and loop repeats on / off' },
  { keys: 'T', does: 'Speed trainer start / stop (needs a loop)' },
  { keys: 'G', does: 'Left-handed view on / off' },
  { keys: 'E', does: 'Listen & check on / off (the microphone checks your playing)' },
  { keys: 'W', does: 'Wait mode: playback waits at each note until you play it' },
  { keys: 'U', does: 'Lesson sound while listening on / off (with headphones)' },
  { keys: 'Q', does: 'Calibrate the microphone’s delay (a note on each of 8 clicks)' },
  { keys: 'Esc', does: 'Clear the selection, the loop, fullscreen' },
  { keys: '?', does: 'This help' },
];

export const EDIT_KEYS: readonly KeyHelp[] = [
  { keys: 'Click, Shift/Ctrl/⌘-click', does: 'Select a note, add to the selection' },
  { keys: 'Drag on the tab', does: 'Select the notes in a rectangle' },
  { keys: 'Drag a note / its end', does: 'Move its start / its end' },
  { keys: 'Double-click a string', does: 'Add a note (0.1 s)' },
  { keys: '0–9', does: 'Fret (two digits quickly: 10–24)' },
  { keys: 'Delete', does: 'Remove the selection' },
  { keys: 'Ctrl/⌘ C, X, V', does: 'Copy, cut, paste at the playhead' },
  { keys: 'Ctrl/⌘ A', does: 'Select every note' },
  { keys: ', .', does: 'Nudge 0.05 s earlier / later (Shift: 0.2 s)' },
  { keys: '[ ]', does: 'Shorten / lengthen by 0.05 s (Shift: 0.2 s)' },
  { keys: 'PgUp PgDn', does: 'Move to the string above / below, same pitch' },
  { keys: 'S  H  P', does: 'Slide, hammer-on, pull-off out (Shift: into the note)' },
  { keys: 'X', does: 'Mute' },
  { keys: 'V', does: 'Small vibrato (Shift: big)' },
  { keys: 'B', does: 'Next bend preset (+1, 1 + release, +2, 2 + release, +3, 3 + release, none)' },
  { keys: 'N', does: 'Add a note at the playhead' },
  { keys: 'C', does: 'Add a chord at the playhead' },
  { keys: 'R / Enter', does: 'Rename the selected chord' },
  { keys: 'D', does: 'Next doubtful note: select it, loop 2 s around it (Shift: previous)' },
  { keys: 'A', does: 'Accept the selected notes as written (they leave the review)' },
  { keys: 'Y', does: 'Add the technique the AI suggests for the selected note ("bend?")' },
  { keys: 'F', does: "Re-finger the selection: a hand position, strings, or one note's string" },
  { keys: 'Click a ring on the fretboard', does: 'Move the selected note there, same pitch' },
  { keys: 'M', does: 'A bar starts at the playhead (tap it on the one while playing)' },
  { keys: 'Drag a bar number', does: 'Move that bar line (the bars beside it stretch)' },
  { keys: 'Ctrl/⌘ Z, Ctrl/⌘ Shift Z', does: 'Undo, redo' },
];

/** The edit-mode command for a key, or null (the player's keys then apply). */
export function editKey(e: KeyInput): EditKey | null {
  const mod = e.ctrlKey || e.metaKey;
  if (e.altKey) return null;
  if (mod) {
    switch (e.key.toLowerCase()) {
      case 'c':
        return { type: 'copy' };
      case 'x':
        return { type: 'cut' };
      case 'v':
        return { type: 'paste' };
      case 'a':
        return { type: 'selectAll' };
      default:
        return null;
    }
  }
  if (/^[0-9]$/.test(e.key)) return { type: 'digit', digit: Number(e.key) };
  const shift = e.shiftKey;
  const side: TechniqueSide = shift ? 'leading' : 'trailing';
  switch (e.key) {
    case 'Delete':
    case 'Backspace':
      return { type: 'delete' };
    case ',':
    case '<':
      return { type: 'nudge', direction: -1, shift };
    case '.':
    case '>':
      return { type: 'nudge', direction: 1, shift };
    case '[':
    case '{':
      return { type: 'resize', direction: -1, shift };
    case ']':
    case '}':
      return { type: 'resize', direction: 1, shift };
    case 'PageUp':
      return { type: 'string', by: -1 };
    case 'PageDown':
      return { type: 'string', by: 1 };
    case 's':
    case 'S':
      return { type: 'technique', side, technique: 'slide' };
    case 'h':
    case 'H':
      return { type: 'technique', side, technique: 'hammer_on' };
    case 'p':
    case 'P':
      return { type: 'technique', side, technique: 'pull_off' };
    case 'x':
    case 'X':
      return { type: 'mute' };
    case 'v':
    case 'V':
      return { type: 'vibrato', kind: shift ? 'big' : 'small' };
    case 'b':
    case 'B':
      return { type: 'bend' };
    case 'n':
    case 'N':
      return { type: 'addNote' };
    case 'c':
    case 'C':
      return { type: 'addChord' };
    case 'r':
    case 'R':
    case 'Enter':
      return { type: 'renameChord' };
    case 'd':
    case 'D':
      return { type: 'review', direction: shift ? -1 : 1 };
    case 'a':
    case 'A':
      return { type: 'accept' };
    case 'y':
    case 'Y':
      return { type: 'addSuggestion' };
    case 'f':
    case 'F':
      return { type: 'refinger' };
    case 'm':
    case 'M':
      return { type: 'barLine' };
    default:
      return null;
  }
}
