import type { KeyInput } from '../keyInput';

/** A key press on the page's body for tests: override only what the test is about. */
export function keyInput(key: string, over: Partial<KeyInput> = {}): KeyInput {
  return {
    key,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    targetTag: 'BODY',
    targetType: '',
    targetEditable: false,
    ...over,
  };
}
