import { describe, expect, it } from 'vitest';
import { videoFilter } from './video.js';

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
