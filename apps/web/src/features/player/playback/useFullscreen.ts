import { useEffect } from 'react';
import type { FullscreenMode } from '../model/playerState';

/**
 * Fullscreen modes: the player takes the whole window showing the chosen parts (CSS, always
 * works) and asks the browser for real fullscreen too. Leaving the browser's fullscreen (Escape)
 * leaves the mode.
 */
export function useFullscreen(
  root: HTMLElement | null,
  mode: FullscreenMode,
  onExit: () => void,
): void {
  useEffect(() => {
    if (!root) return;
    if (mode !== 'none' && document.fullscreenElement !== root) {
      root.requestFullscreen().catch(() => undefined);
    }
    if (mode === 'none' && document.fullscreenElement === root) {
      void document.exitFullscreen().catch(() => undefined);
    }
  }, [root, mode]);

  useEffect(() => {
    if (mode === 'none') return;
    let entered = false;
    const onChange = () => {
      if (document.fullscreenElement) entered = true;
      else if (entered) onExit();
    };
    document.addEventListener('fullscreenchange', onChange);
    return () => {
      document.removeEventListener('fullscreenchange', onChange);
    };
  }, [mode, onExit]);
}
