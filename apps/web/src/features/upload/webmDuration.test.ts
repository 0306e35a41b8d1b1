import { describe, expect, it } from 'vitest';
import { webmDuration, webmWithDuration } from './webmDuration';

/** An element with a one-byte size. */
const el = (id: number[], data: number[]) => [...id, 0x80 | data.length, ...data];

/** The head of a WebM as MediaRecorder writes it: a Segment of unknown size, Info, a Cluster. */
function liveWebm(): Uint8Array<ArrayBuffer> {
  const ebml = el([0x1a, 0x45, 0xdf, 0xa3], el([0x42, 0x82], [0x77, 0x65, 0x62, 0x6d]));
  const info = el(
    [0x15, 0x49, 0xa9, 0x66],
    [...el([0x2a, 0xd7, 0xb1], [0x0f, 0x42, 0x40]), ...el([0x4d, 0x80], [0x43, 0x68])],
  );
  const cluster = el([0x1f, 0x43, 0xb6, 0x75], el([0xe7], [0x00]));
  const segment = [0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
  return Uint8Array.from([...ebml, ...segment, ...info, ...cluster]);
}

describe('webmWithDuration', () => {
  it('writes the duration into a live WebM, keeping everything after its Info', async () => {
    const bytes = liveWebm();
    const blob = new Blob([bytes], { type: 'video/webm' });
    expect(await webmDuration(blob)).toBeNull();
    const fixed = await webmWithDuration(blob, 12.345);
    expect(fixed.type).toBe('video/webm');
    expect(await webmDuration(fixed)).toBeCloseTo(12.345, 6);
    // The cluster is still the file's tail.
    const out = new Uint8Array(await fixed.arrayBuffer());
    expect([...out.slice(-7)]).toEqual([...bytes.slice(-7)]);
    // Written twice: one Duration, the latest.
    expect(await webmDuration(await webmWithDuration(fixed, 3))).toBeCloseTo(3, 6);
  });

  it('leaves what it cannot rewrite as it is', async () => {
    const other = new Blob([Uint8Array.from([0, 1, 2, 3])], { type: 'video/mp4' });
    expect(await webmWithDuration(other, 5)).toBe(other);
    const live = new Blob([liveWebm()], { type: 'video/webm' });
    expect(await webmWithDuration(live, 0)).toBe(live);
  });
});
