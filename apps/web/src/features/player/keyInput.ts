/**
 * A key press as the player's key handlers read it: the key, its modifiers and what has focus.
 * Shared by the playback keys (playback/keyboard.ts) and the editor's keys (editor/editorKeys.ts).
 */
export interface KeyInput {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  /** Tag name of the focused element ("INPUT", "BUTTON"...). */
  targetTag: string;
  /** type attribute of a focused input ("range", "text"...), '' otherwise. */
  targetType: string;
  targetEditable: boolean;
}
