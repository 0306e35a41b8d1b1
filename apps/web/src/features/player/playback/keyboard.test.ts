import { describe, expect, it } from 'vitest';
import { keyInput } from '../testing/keys';
import { keyCommand } from './keyboard';

const key = keyInput;

describe('player keyboard', () => {
  it('maps the keys of spec section 4', () => {
    expect(keyCommand(key(' '))).toEqual({ type: 'togglePlay' });
    expect(keyCommand(key('ArrowUp'))).toEqual({ type: 'speed', by: 1 });
    expect(keyCommand(key('ArrowDown'))).toEqual({ type: 'speed', by: -1 });
    expect(keyCommand(key('ArrowLeft'))).toEqual({ type: 'seekBy', seconds: -0.5 });
    expect(keyCommand(key('ArrowRight'))).toEqual({ type: 'seekBy', seconds: 0.5 });
    expect(keyCommand(key('l'))).toEqual({ type: 'toggleLoop' });
    expect(keyCommand(key('L'))).toEqual({ type: 'toggleLoop' });
    expect(keyCommand(key('Escape'))).toEqual({ type: 'escape' });
    expect(keyCommand(key('z', { ctrlKey: true }))).toEqual({ type: 'undo' });
    expect(keyCommand(key('Z', { metaKey: true, shiftKey: true }))).toEqual({ type: 'redo' });
    expect(keyCommand(key('x'))).toBeNull();
  });

  it('leaves typing and a focused slider’s arrows alone', () => {
    expect(keyCommand(key(' ', { targetTag: 'INPUT', targetType: 'text' }))).toBeNull();
    expect(keyCommand(key('l', { targetEditable: true }))).toBeNull();
    expect(keyCommand(key('ArrowLeft', { targetTag: 'INPUT', targetType: 'range' }))).toBeNull();
    expect(keyCommand(key(' ', { targetTag: 'INPUT', targetType: 'range' }))).toEqual({
      type: 'togglePlay',
    });
    expect(keyCommand(key(' ', { targetTag: 'BUTTON' }))).toEqual({ type: 'togglePlay' });
    expect(keyCommand(key('l', { ctrlKey: true }))).toBeNull();
  });

  it('has a key for each practice tool, in edit mode too (none is an editor key)', () => {
    for (const editing of [false, true]) {
      expect(keyCommand(key('k'), editing)).toEqual({ type: 'practice', tool: 'metronome' });
      expect(keyCommand(key('I'), editing)).toEqual({ type: 'practice', tool: 'countIn' });
      expect(keyCommand(key('t'), editing)).toEqual({ type: 'practice', tool: 'trainer' });
      expect(keyCommand(key('g'), editing)).toEqual({ type: 'practice', tool: 'leftHanded' });
      expect(keyCommand(key('e'), editing)).toEqual({ type: 'practice', tool: 'listen' });
      expect(keyCommand(key('W'), editing)).toEqual({ type: 'practice', tool: 'waitMode' });
      expect(keyCommand(key('u'), editing)).toEqual({ type: 'practice', tool: 'headphones' });
      expect(keyCommand(key('q'), editing)).toEqual({ type: 'practice', tool: 'calibrate' });
    }
    expect(keyCommand(key('k', { targetTag: 'INPUT', targetType: 'number' }))).toBeNull();
  });

  it('steps through the sections with Shift and the arrows, in edit mode too', () => {
    for (const editing of [false, true]) {
      expect(keyCommand(key('ArrowRight', { shiftKey: true }), editing)).toEqual({
        type: 'section',
        by: 1,
      });
      expect(keyCommand(key('ArrowLeft', { shiftKey: true }), editing)).toEqual({
        type: 'section',
        by: -1,
      });
      expect(keyCommand(key('ArrowRight'), editing)).toEqual({ type: 'seekBy', seconds: 0.5 });
    }
    expect(
      keyCommand(key('ArrowRight', { shiftKey: true, targetTag: 'INPUT', targetType: 'range' })),
    ).toBeNull();
    expect(
      keyCommand(key('ArrowLeft', { shiftKey: true, targetTag: 'INPUT', targetType: 'text' })),
    ).toBeNull();
  });
});
