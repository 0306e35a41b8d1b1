import { describe, expect, it } from 'vitest';
import { EXPORT_OVERLAY_DEFAULTS } from './constants.js';
import { convertStartBodySchema } from './api.js';
import { bandPicture, EXPORT_OUTPUT, exportLayout } from './export-layout.js';
import { exportFileName } from './project-name.js';

const placement = { ...EXPORT_OVERLAY_DEFAULTS, videoZoom: 1, videoOffsetX: 0, videoOffsetY: 0 };

describe('export layout', () => {
  it('places a 16:9 video as wide as the picture, centred above the tab', () => {
    const layout = exportLayout(placement, { width: 1280, height: 720 }, EXPORT_OUTPUT);
    expect(layout.scale).toBeCloseTo(1536 / 2160);
    expect(layout.video?.width).toBeCloseTo(1536);
    expect(layout.video?.height).toBeCloseTo(864);
    // Centred in the 2672 units above the tab: centre at 1336 units.
    expect((layout.video?.y ?? 0) + 432).toBeCloseTo(1336 * layout.scale);
    expect(layout.band.top).toBeCloseTo(2672 * layout.scale);
    expect(layout.band.tabHeight + layout.band.fretHeight).toBe(Math.round(1152 * layout.scale));
  });

  it('zooms about the centre and moves by the offsets; the same at any output size', () => {
    const zoomed = { ...placement, videoZoom: 2, videoOffsetX: 100 };
    const big = exportLayout(zoomed, { width: 1280, height: 720 }, EXPORT_OUTPUT);
    const small = exportLayout(zoomed, { width: 1280, height: 720 }, { width: 270, height: 480 });
    expect(big.video?.width).toBeCloseTo(3072);
    expect((big.video?.x ?? 0) + 1536).toBeCloseTo((1080 + 100) * big.scale);
    expect((small.video?.x ?? 0) / small.scale).toBeCloseTo((big.video?.x ?? 0) / big.scale);
  });

  it('gives the band picture whole pixels and an even height', () => {
    for (const overlayHeight of [640, 1151, 1152, 2400]) {
      const band = bandPicture(exportLayout({ ...placement, overlayHeight }, null, EXPORT_OUTPUT));
      expect(band.width).toBe(1536);
      expect(band.height % 2).toBe(0);
      expect(band.tabHeight + band.fretHeight).toBe(band.height);
    }
  });

  it('accepts an overlay within the framing limits only, with a base64 logo', () => {
    const ok = {
      job_id: 'job-1',
      overlay: { format: 'mp4', framing: placement, logo_png: 'iVBORw0K' },
    };
    expect(convertStartBodySchema.safeParse(ok).success).toBe(true);
    expect(convertStartBodySchema.safeParse({ job_id: 'job-1' }).success).toBe(true);
    const far = { ...ok, overlay: { ...ok.overlay, framing: { ...placement, videoZoom: 40 } } };
    expect(convertStartBodySchema.safeParse(far).success).toBe(false);
    const notBase64 = { ...ok, overlay: { ...ok.overlay, logo_png: '<svg>' } };
    expect(convertStartBodySchema.safeParse(notBase64).success).toBe(false);
  });

  it('names the download after the lesson', () => {
    expect(exportFileName('Blues in A / take 2', 'mp4')).toBe('Blues-in-A-take-2-tabs.mp4');
    expect(exportFileName('???', 'webm')).toBe('lesson-tabs.webm');
  });
});
