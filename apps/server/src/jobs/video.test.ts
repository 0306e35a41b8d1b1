import { describe, expect, it } from 'vitest';
import type { MediaFacts } from './engine-api.js';
import { canCopyForBrowser, videoFilter } from './video.js';

describe('videoFilter', () => {
  it('keeps the frame rate up to 60 fps and reduces faster video to 60', () => {
    expect(videoFilter(undefined)).not.toContain('fps=');
    expect(videoFilter(30)).not.toContain('fps=');
    expect(videoFilter(60)).not.toContain('fps=');
    expect(videoFilter(59.94)).not.toContain('fps=');
    expect(videoFilter(120)).toMatch(/,fps=60$/);
    expect(videoFilter(240)).toMatch(/^scale=.*,setsar=1,fps=60$/);
  });
});

describe('canCopyForBrowser', () => {
  const phone: MediaFacts = {
    durationSeconds: 30,
    hasAudio: true,
    hasVideo: true,
    formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
    width: 1920,
    height: 1080,
    frameRate: 30,
    videoCodec: 'h264',
    pixelFormat: 'yuv420p',
    videoProfile: 'High',
    sampleAspectRatio: '1:1',
    audioCodec: 'aac',
    audioChannels: 2,
  };

  it('copies an MP4 with H.264 and AAC that every browser plays', () => {
    expect(canCopyForBrowser(phone)).toBe(true);
    expect(canCopyForBrowser({ ...phone, width: 1080, height: 1920 })).toBe(true);
    expect(canCopyForBrowser({ ...phone, audioChannels: 1, videoProfile: 'Main' })).toBe(true);
  });

  it('encodes again when the frame rate is not known', () => {
    const noRate: MediaFacts = { ...phone };
    delete noRate.frameRate;
    expect(canCopyForBrowser(noRate)).toBe(false);
  });

  it.each<[string, Partial<MediaFacts>]>([
    ['WebM', { formatName: 'matroska,webm', videoCodec: 'vp9', audioCodec: 'opus' }],
    ['HEVC', { videoCodec: 'hevc' }],
    ['10-bit', { pixelFormat: 'yuv420p10le' }],
    ['4:4:4', { pixelFormat: 'yuv444p', videoProfile: 'High 4:4:4 Predictive' }],
    ['over 1080p', { width: 3840, height: 2160 }],
    ['over 60 fps', { frameRate: 120 }],
    ['odd size', { width: 1279, height: 720 }],
    ['non-square pixels', { sampleAspectRatio: '4:3' }],
    ['MP3 audio', { audioCodec: 'mp3' }],
    ['5.1 audio', { audioChannels: 6 }],
  ])('encodes %s again', (_name, change) => {
    expect(canCopyForBrowser({ ...phone, ...change })).toBe(false);
  });
});
