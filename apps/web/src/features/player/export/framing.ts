import {
  EXPORT_CANVAS,
  EXPORT_FRAMING_LIMITS,
  EXPORT_OVERLAY_DEFAULTS,
  clamp,
} from '@riffscribe/core';

/**
 * Where things go in an exported video (spec section 3, "Export overlay / framing settings"), in
 * the export canvas's logical pixels (EXPORT_CANVAS, 2160 x 3840, portrait): the tab overlay's
 * height and top, the tab's zoom (CSS px of tab per second, as the player's zoom), the logo's
 * corner, and the video's zoom and offset.
 */
export interface ExportFraming {
  overlayHeight: number;
  overlayY: number;
  zoom: number;
  logoX: number;
  logoY: number;
  videoZoom: number;
  videoOffsetX: number;
  videoOffsetY: number;
}

export const DEFAULT_FRAMING: ExportFraming = {
  ...EXPORT_OVERLAY_DEFAULTS,
  zoom: 120,
  videoZoom: 1,
  videoOffsetX: 0,
  videoOffsetY: 0,
};

/** The framing editor's sliders: label, range and step of each setting. */
const LIMITS = EXPORT_FRAMING_LIMITS;
export const FRAMING_CONTROLS: readonly {
  key: keyof ExportFraming;
  label: string;
  min: number;
  max: number;
  step: number;
}[] = [
  { key: 'overlayHeight', label: 'Tab height', ...LIMITS.overlayHeight, step: 16 },
  { key: 'overlayY', label: 'Tab position', ...LIMITS.overlayY, step: 16 },
  { key: 'zoom', label: 'Tab zoom', ...LIMITS.zoom, step: 5 },
  { key: 'videoZoom', label: 'Video zoom', ...LIMITS.videoZoom, step: 0.05 },
  { key: 'videoOffsetX', label: 'Video left/right', ...LIMITS.videoOffsetX, step: 8 },
  { key: 'videoOffsetY', label: 'Video up/down', ...LIMITS.videoOffsetY, step: 8 },
  { key: 'logoX', label: 'Logo left/right', ...LIMITS.logoX, step: 8 },
  { key: 'logoY', label: 'Logo up/down', ...LIMITS.logoY, step: 8 },
];

/** A framing with every value inside its slider's range (stored values may come from anywhere). */
export function clampFraming(framing: Partial<ExportFraming>): ExportFraming {
  const out = { ...DEFAULT_FRAMING };
  for (const c of FRAMING_CONTROLS) {
    const v = framing[c.key];
    if (typeof v === 'number' && Number.isFinite(v)) out[c.key] = clamp(v, c.min, c.max);
  }
  // The tab stays inside the picture.
  out.overlayY = Math.min(out.overlayY, EXPORT_CANVAS.height - out.overlayHeight);
  return out;
}

const storageKey = (jobId: string) => `riffscribe:export-framing:${jobId}`;

/** The framing last used for this lesson in this browser, else the defaults. */
export function loadFraming(jobId: string): ExportFraming {
  try {
    const raw = localStorage.getItem(storageKey(jobId));
    return clampFraming(raw ? (JSON.parse(raw) as Partial<ExportFraming>) : {});
  } catch {
    return { ...DEFAULT_FRAMING };
  }
}

export function saveFraming(jobId: string, framing: ExportFraming): void {
  try {
    localStorage.setItem(storageKey(jobId), JSON.stringify(framing));
  } catch {
    // Private mode or a full storage: the framing is only not remembered.
  }
}
