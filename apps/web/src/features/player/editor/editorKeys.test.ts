import { describe, expect, it } from 'vitest';
import { keyInput } from '../testing/keys';
import { keyCommand } from '../playback/keyboard';
import { editKey } from './editorKeys';

const key = keyInput;

describe('editor keys', () => {
  it('maps digits, Delete, clipboard, nudge, string moves and techniques', () => {
    expect(editKey(key('7'))).toEqual({ type: 'digit', digit: 7 });
    expect(editKey(key('Delete'))).toEqual({ type: 'delete' });
    expect(editKey(key('Backspace'))).toEqual({ type: 'delete' });
    expect(editKey(key('c', { ctrlKey: true }))).toEqual({ type: 'copy' });
    expect(editKey(key('x', { metaKey: true }))).toEqual({ type: 'cut' });
    expect(editKey(key('v', { ctrlKey: true }))).toEqual({ type: 'paste' });
    expect(editKey(key('.'))).toEqual({ type: 'nudge', direction: 1, shift: false });
    expect(editKey(key('<', { shiftKey: true }))).toEqual({
      type: 'nudge',
      direction: -1,
      shift: true,
    });
    expect(editKey(key('PageUp'))).toEqual({ type: 'string', by: -1 });
    expect(editKey(key('S', { shiftKey: true }))).toEqual({
      type: 'technique',
      side: 'leading',
      technique: 'slide',
    });
    expect(editKey(key('h'))).toEqual({
      type: 'technique',
      side: 'trailing',
      technique: 'hammer_on',
    });
  });

  it('D goes to the next doubtful note (Shift+D back), A accepts; each key means one thing', () => {
    expect(editKey(key('d'))).toEqual({ type: 'review', direction: 1 });
    expect(editKey(key('D', { shiftKey: true }))).toEqual({ type: 'review', direction: -1 });
    expect(editKey(key('a'))).toEqual({ type: 'accept' });
    expect(editKey(key('f'))).toEqual({ type: 'refinger' });
    expect(editKey(key('F'))).toEqual({ type: 'refinger' });
    expect(editKey(key('m'))).toEqual({ type: 'barLine' });
    expect(editKey(key('M'))).toEqual({ type: 'barLine' });
    // Ctrl/Cmd+A stays select-all; the player's keys never become review keys.
    expect(editKey(key('a', { ctrlKey: true }))).toEqual({ type: 'selectAll' });
    expect(keyCommand(key('d'), true)).toEqual({
      type: 'edit',
      key: { type: 'review', direction: 1 },
    });
    expect(keyCommand(key('d'))).toBeNull();
    // No two plain letters share a command: every letter maps to at most one edit.
    const seen = new Map<string, string>();
    for (const letter of 'abcdefghijklmnopqrstuvwxyz') {
      const command = editKey(key(letter));
      if (!command) continue;
      const name = JSON.stringify(command);
      expect(seen.get(name), `${letter} and ${seen.get(name) ?? ''}`).toBeUndefined();
      seen.set(name, letter);
    }
  });

  it('never takes the player keys (Space, arrows, L, Escape)', () => {
    for (const k of [' ', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'l', 'L', 'Escape']) {
      expect(editKey(key(k))).toBeNull();
      expect(keyCommand(key(k), true)?.type).not.toBe('edit');
    }
    expect(keyCommand(key('z', { ctrlKey: true }), true)).toEqual({ type: 'undo' });
    expect(keyCommand(key('Z', { metaKey: true, shiftKey: true }), true)).toEqual({
      type: 'redo',
    });
  });

  it('edits only in edit mode, and never while typing; ? opens the help', () => {
    expect(keyCommand(key('5'))).toBeNull();
    expect(keyCommand(key('5'), true)).toEqual({ type: 'edit', key: { type: 'digit', digit: 5 } });
    expect(keyCommand(key('5', { targetTag: 'INPUT', targetType: 'text' }), true)).toBeNull();
    expect(keyCommand(key('?', { shiftKey: true }))).toEqual({ type: 'help' });
  });
});
