import { MESSAGES } from '@riffscribe/core';

/** How long the browser may take to read a video's header before we give up. */
const PROBE_TIMEOUT_MS = 15_000;

export type DurationResult = { ok: true; seconds: number } | { ok: false; message: string };

/**
 * Reads a video's duration in seconds in the browser, before any upload. Recordings made by
 * MediaRecorder (WebM) report an infinite duration until the element seeks past the end, so
 * the probe does that. Failures map to the messages of spec section 5.
 */
export function readVideoDuration(file: Blob): Promise<DurationResult> {
  return new Promise((resolve) => {
    let url = '';
    try {
      url = URL.createObjectURL(file);
    } catch {
      resolve({ ok: false, message: MESSAGES.couldNotValidateDuration });
      return;
    }
    const video = document.createElement('video');
    let settled = false;
    const finish = (result: DurationResult) => {
      if (settled) return;
      settled = true;
      window.clearTimeout(timer);
      video.removeAttribute('src');
      video.load();
      URL.revokeObjectURL(url);
      resolve(result);
    };
    const timer = window.setTimeout(() => {
      finish({ ok: false, message: MESSAGES.couldNotValidateDuration });
    }, PROBE_TIMEOUT_MS);
    const report = () => {
      const d = video.duration;
      if (d === Infinity) return false;
      finish(
        Number.isFinite(d) && d > 0
          ? { ok: true, seconds: d }
          : { ok: false, message: MESSAGES.durationUnreadable },
      );
      return true;
    };
    video.preload = 'metadata';
    video.muted = true;
    video.onloadedmetadata = () => {
      if (report()) return;
      video.ondurationchange = () => {
        if (video.duration !== Infinity) report();
      };
      video.currentTime = Number.MAX_SAFE_INTEGER;
    };
    video.onerror = () => {
      finish({ ok: false, message: MESSAGES.invalidVideo });
    };
    video.src = url;
  });
}

/** Session-storage key of the thumbnail waiting to be sent once the job exists. */
const THUMBNAIL_KEY = 'riffscribe.pendingThumbnail';
const THUMBNAIL_WIDTH = 480;
const THUMBNAIL_TIMEOUT_MS = 8_000;

/**
 * Draws a frame from about one second into the video (or its middle, for short clips) as a JPEG
 * and keeps it in session storage as a data URL. Resolves false when the browser cannot.
 */
export function storeThumbnail(file: Blob): Promise<boolean> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const video = document.createElement('video');
    let settled = false;
    const finish = (ok: boolean) => {
      if (settled) return;
      settled = true;
      window.clearTimeout(timer);
      video.removeAttribute('src');
      video.load();
      URL.revokeObjectURL(url);
      resolve(ok);
    };
    const timer = window.setTimeout(() => {
      finish(false);
    }, THUMBNAIL_TIMEOUT_MS);
    video.muted = true;
    video.playsInline = true;
    video.preload = 'auto';
    video.onloadeddata = () => {
      const d = Number.isFinite(video.duration) ? video.duration : 0;
      video.currentTime = Math.min(1, d / 2);
    };
    video.onseeked = () => {
      try {
        const scale = THUMBNAIL_WIDTH / Math.max(1, video.videoWidth);
        const canvas = document.createElement('canvas');
        canvas.width = Math.round(video.videoWidth * scale);
        canvas.height = Math.round(video.videoHeight * scale);
        const context = canvas.getContext('2d');
        if (!context || canvas.width === 0 || canvas.height === 0) {
          finish(false);
          return;
        }
        context.drawImage(video, 0, 0, canvas.width, canvas.height);
        sessionStorage.setItem(THUMBNAIL_KEY, canvas.toDataURL('image/jpeg', 0.82));
        finish(true);
      } catch {
        finish(false);
      }
    };
    video.onerror = () => {
      finish(false);
    };
    video.src = url;
  });
}

/**
 * Takes the stored thumbnail out of session storage as a JPEG blob, if there is one. Decoded by
 * hand: the content security policy does not let fetch() read data: URLs.
 */
export function takeStoredThumbnail(): Blob | null {
  const dataUrl = sessionStorage.getItem(THUMBNAIL_KEY);
  sessionStorage.removeItem(THUMBNAIL_KEY);
  const prefix = 'data:image/jpeg;base64,';
  if (!dataUrl?.startsWith(prefix)) return null;
  const binary = atob(dataUrl.slice(prefix.length));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type: 'image/jpeg' });
}

/** Drops a stored thumbnail (a new file was chosen or the wizard was reset). */
export function clearStoredThumbnail(): void {
  sessionStorage.removeItem(THUMBNAIL_KEY);
}
