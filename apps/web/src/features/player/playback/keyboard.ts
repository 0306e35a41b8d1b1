import { ARROW_SEEK_SECONDS } from '@riffscribe/core';
import { editKey, type EditKey } from '../editor/editorKeys';
import type { KeyInput } from '../keyInput';

/** What a key does in the player (spec section 4, Editing interactions: keyboard). */
export type KeyCommand =
  | { type: 'togglePlay' }
  | { type: 'speed'; by: 1 | -1 }
  | { type: 'seekBy'; seconds: number }
  | { type: 'toggleLoop' }
  | { type: 'escape' }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'help' }
  | {
      type: 'practice';
      tool:
        | 'metronome'
        | 'countIn'
        | 'trainer'
        | 'leftHanded'
        | 'listen'
        | 'waitMode'
        | 'headphones'
        | 'calibrate';
    }
  /** Loop the next / previous of the user's sections (issue 40 part 3). */
  | { type: 'section'; by: 1 | -1 }
  | { type: 'edit'; key: EditKey };

const TEXT_TAGS = new Set(['TEXTAREA', 'SELECT']);

/**
 * The player command for a key press, or null to let the page handle it. Typing in a text field
 * is left alone; a focused slider keeps its own arrow keys. In edit mode the editor's keys
 * (editorKeys.ts) come first; none of them is a player key.
 */
export function keyCommand(e: KeyInput, editing = false): KeyCommand | null {
  const typing =
    e.targetEditable ||
    TEXT_TAGS.has(e.targetTag) ||
    (e.targetTag === 'INPUT' && !['range', 'checkbox', 'radio', 'button'].includes(e.targetType));
  if (typing) return e.key === 'Escape' ? { type: 'escape' } : null;
  const mod = e.ctrlKey || e.metaKey;
  if (mod && !e.altKey && e.key.toLowerCase() === 'z') {
    return e.shiftKey ? { type: 'redo' } : { type: 'undo' };
  }
  if (e.key === '?' && !mod && !e.altKey) return { type: 'help' };
  if (editing && !(e.targetTag === 'BUTTON' && (e.key === 'Enter' || e.key === ' '))) {
    const key = editKey(e);
    if (key) return { type: 'edit', key };
  }
  if (mod || e.altKey) return null;
  const slider = e.targetTag === 'INPUT' && e.targetType === 'range';
  switch (e.key) {
    case ' ':
    case 'Spacebar':
      return { type: 'togglePlay' };
    case 'ArrowUp':
      return slider ? null : { type: 'speed', by: 1 };
    case 'ArrowDown':
      return slider ? null : { type: 'speed', by: -1 };
    // With Shift, the previous / next section: no editor key uses the arrows.
    case 'ArrowLeft':
      if (slider) return null;
      return e.shiftKey
        ? { type: 'section', by: -1 }
        : { type: 'seekBy', seconds: -ARROW_SEEK_SECONDS };
    case 'ArrowRight':
      if (slider) return null;
      return e.shiftKey
        ? { type: 'section', by: 1 }
        : { type: 'seekBy', seconds: ARROW_SEEK_SECONDS };
    case 'l':
    case 'L':
      return { type: 'toggleLoop' };
    case 'k':
    case 'K':
      return { type: 'practice', tool: 'metronome' };
    case 'i':
    case 'I':
      return { type: 'practice', tool: 'countIn' };
    case 't':
    case 'T':
      return { type: 'practice', tool: 'trainer' };
    case 'g':
    case 'G':
      return { type: 'practice', tool: 'leftHanded' };
    case 'e':
    case 'E':
      return { type: 'practice', tool: 'listen' };
    case 'w':
    case 'W':
      return { type: 'practice', tool: 'waitMode' };
    case 'u':
    case 'U':
      return { type: 'practice', tool: 'headphones' };
    case 'q':
    case 'Q':
      return { type: 'practice', tool: 'calibrate' };
    case 'Escape':
      return { type: 'escape' };
    default:
      return null;
  }
}
