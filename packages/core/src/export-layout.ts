import { z } from 'zod';
import { DEFAULT_OUTPUT_RESOLUTION, EXPORT_CANVAS } from './constants.js';

/**
 * Where things go in an exported video (spec section 3, "Export overlay / framing settings"),
 * shared by the browser, which draws the preview and the tab overlay, and the server, which puts
 * that overlay over the lesson's video with ffmpeg: both place the picture from these numbers.
 */

/** The exported video's size: the spec's upload default (1536 x 2728, portrait). */
export const EXPORT_OUTPUT = (() => {
  const [w, h] = DEFAULT_OUTPUT_RESOLUTION.split('x').map(Number);
  return { width: w ?? 1536, height: h ?? 2728 };
})();

/** Share of the overlay the tab takes; the fretboard has the rest. */
export const EXPORT_TAB_SHARE = 0.7;

/** The range of each framing setting, in EXPORT_CANVAS units (the editor's sliders use them). */
export const EXPORT_FRAMING_LIMITS = {
  overlayHeight: { min: 640, max: 2400 },
  overlayY: { min: 0, max: EXPORT_CANVAS.height - 640 },
  zoom: { min: 40, max: 400 },
  videoZoom: { min: 1, max: 4 },
  videoOffsetX: { min: -EXPORT_CANVAS.width, max: EXPORT_CANVAS.width },
  videoOffsetY: { min: -EXPORT_CANVAS.height, max: EXPORT_CANVAS.height },
  logoX: { min: 0, max: EXPORT_CANVAS.width - 480 },
  logoY: { min: 0, max: EXPORT_CANVAS.height - 140 },
} as const;

/** The framing settings that place the video, the overlay band and the logo. */
export interface ExportPlacement {
  overlayHeight: number;
  overlayY: number;
  videoZoom: number;
  videoOffsetX: number;
  videoOffsetY: number;
  logoX: number;
  logoY: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface ExportLayout {
  /** Output pixels per EXPORT_CANVAS unit. */
  scale: number;
  /** The lesson's video, in output pixels (may reach past the picture's edges); null without one. */
  video: Box | null;
  /** The tab overlay's band: its top, and the tab's and fretboard's heights, in output pixels. */
  band: { top: number; height: number; tabHeight: number; fretHeight: number };
  /** The logo's top-left corner, in output pixels. */
  logo: { x: number; y: number };
}

/**
 * The layout of a frame `output` pixels large: the video as wide as the picture, centred in the
 * space above the tab, then zoomed about its centre and moved by the offsets; the band at
 * overlayY, overlayHeight high (EXPORT_TAB_SHARE of it tab); the logo at its corner.
 */
export function exportLayout(
  placement: ExportPlacement,
  picture: { width: number; height: number } | null,
  output: { width: number; height: number },
): ExportLayout {
  const scale = output.width / EXPORT_CANVAS.width;
  let video: Box | null = null;
  if (picture && picture.width > 0 && picture.height > 0) {
    const base = EXPORT_CANVAS.width / picture.width;
    const w = picture.width * base * placement.videoZoom;
    const h = picture.height * base * placement.videoZoom;
    const cx = EXPORT_CANVAS.width / 2 + placement.videoOffsetX;
    const cy = Math.max(h / 2, placement.overlayY / 2) + placement.videoOffsetY;
    video = {
      x: (cx - w / 2) * scale,
      y: (cy - h / 2) * scale,
      width: w * scale,
      height: h * scale,
    };
  }
  const height = placement.overlayHeight * scale;
  const tabHeight = Math.round(height * EXPORT_TAB_SHARE);
  return {
    scale,
    video,
    band: {
      top: placement.overlayY * scale,
      height,
      tabHeight,
      fretHeight: Math.round(height - tabHeight),
    },
    logo: { x: placement.logoX * scale, y: placement.logoY * scale },
  };
}

/**
 * The band as a picture of its own (the overlay the browser renders for the server): whole
 * pixels, an even height (4:2:0 video), the fretboard taking the rounding.
 */
export function bandPicture(layout: ExportLayout): {
  width: number;
  height: number;
  tabHeight: number;
  fretHeight: number;
} {
  const height = 2 * Math.ceil((layout.band.tabHeight + layout.band.fretHeight) / 2);
  return {
    width: EXPORT_OUTPUT.width,
    height,
    tabHeight: layout.band.tabHeight,
    fretHeight: height - layout.band.tabHeight,
  };
}

const inRange = (r: { min: number; max: number }) => z.number().min(r.min).max(r.max);

/** The largest logo picture accepted (base64 of a PNG of a few hundred pixels: ~20 KB). */
export const MAX_EXPORT_LOGO_BASE64 = 400_000;

/**
 * POST /api/convert/start's `overlay`: the upload is the tab overlay's band alone (rendered in
 * the browser, EXPORT_OUTPUT wide, bandPicture high), and the server puts it and the logo (a
 * PNG, base64) over the lesson's own video with these settings, as MP4 or WebM. Without it the
 * upload is the whole recorded video and is converted to MP4 as it is.
 */
export const exportOverlaySchema = z.object({
  format: z.enum(['mp4', 'webm']),
  framing: z.object({
    overlayHeight: inRange(EXPORT_FRAMING_LIMITS.overlayHeight),
    overlayY: inRange(EXPORT_FRAMING_LIMITS.overlayY),
    videoZoom: inRange(EXPORT_FRAMING_LIMITS.videoZoom),
    videoOffsetX: inRange(EXPORT_FRAMING_LIMITS.videoOffsetX),
    videoOffsetY: inRange(EXPORT_FRAMING_LIMITS.videoOffsetY),
    logoX: inRange(EXPORT_FRAMING_LIMITS.logoX),
    logoY: inRange(EXPORT_FRAMING_LIMITS.logoY),
  }),
  logo_png: z
    .string()
    .min(8)
    .max(MAX_EXPORT_LOGO_BASE64)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'logo_png must be base64'),
});
export type ExportOverlay = z.infer<typeof exportOverlaySchema>;
