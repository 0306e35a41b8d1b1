import { useCallback, useState } from 'react';

/** localStorage key of a user's left-handed view (one per user on this browser). */
export const leftHandedKey = (uid: string | null) => `riffscribe.leftHanded.${uid ?? 'guest'}`;

function read(uid: string | null): boolean {
  try {
    return window.localStorage.getItem(leftHandedKey(uid)) === '1';
  } catch {
    return false;
  }
}

/**
 * The left-handed view (issue 40): the fretboard and the video mirrored, the tab as tabs are
 * written. Remembered per user on this browser; a storage that refuses writes keeps it for the
 * visit.
 */
export function useLeftHanded(uid: string | null): [boolean, (on: boolean) => void] {
  const [state, setState] = useState(() => ({ uid, on: read(uid) }));
  // Another user signing in on this page reads their own choice.
  const on = state.uid === uid ? state.on : read(uid);
  const set = useCallback(
    (next: boolean) => {
      setState({ uid, on: next });
      try {
        window.localStorage.setItem(leftHandedKey(uid), next ? '1' : '0');
      } catch {
        // Private mode or a full storage: the choice lasts for this visit.
      }
    },
    [uid],
  );
  return [on, set];
}
