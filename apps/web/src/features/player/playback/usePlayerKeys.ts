import { useEffect, useRef } from 'react';
import { keyCommand, type KeyCommand } from './keyboard';

/** Routes the player's keys (spec section 4) to `handle`, leaving typing and dialogs alone. */
export function usePlayerKeys(
  handle: (command: KeyCommand) => void,
  enabled: boolean,
  editing = false,
): void {
  const handler = useRef(handle);
  useEffect(() => {
    handler.current = handle;
  }, [handle]);
  useEffect(() => {
    if (!enabled) return;
    const onKey = (e: KeyboardEvent) => {
      const target = e.target instanceof HTMLElement ? e.target : null;
      // An open modal dialog owns the keyboard (Escape closes it natively).
      if (target?.closest('dialog[open]')) return;
      const command = keyCommand(
        {
          key: e.key,
          ctrlKey: e.ctrlKey,
          metaKey: e.metaKey,
          altKey: e.altKey,
          shiftKey: e.shiftKey,
          targetTag: target?.tagName ?? 'BODY',
          targetType: target instanceof HTMLInputElement ? target.type : '',
          targetEditable: target?.isContentEditable ?? false,
        },
        editing,
      );
      if (!command) return;
      // Space on a focused button would also click it: the player handles it once.
      e.preventDefault();
      handler.current(command);
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
    };
  }, [enabled, editing]);
}
