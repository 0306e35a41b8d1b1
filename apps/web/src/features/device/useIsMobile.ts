import { MOBILE_WIDTH_THRESHOLD_PX } from '@riffscribe/core';
import { useSyncExternalStore } from 'react';
import { isMobileUserAgent } from './mobile';

const query = `(max-width: ${String(MOBILE_WIDTH_THRESHOLD_PX - 0.02)}px)`;

function subscribe(onChange: () => void) {
  const list = window.matchMedia(query);
  list.addEventListener('change', onChange);
  return () => {
    list.removeEventListener('change', onChange);
  };
}

function snapshot(): boolean {
  return (
    window.matchMedia(query).matches ||
    isMobileUserAgent(navigator.userAgent, navigator.maxTouchPoints)
  );
}

/**
 * True on screens narrower than 1024 px or on a mobile user agent (spec sections 2 and 9):
 * recording is hidden there and the lesson shows 'Desktop Experience Required'. Follows resizes.
 */
export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, snapshot, () => false);
}
