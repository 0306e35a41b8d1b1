/**
 * A Standard MIDI File writer, linear in the events (the writer @tonejs/midi uses copies its
 * whole buffer on every event: 136 s for a 50,000-note lesson). Format 1, one chunk per track;
 * each event is given at an absolute tick and written with its delta time.
 */

/** One event at an absolute tick: its bytes after the delta time (status byte included). */
export interface SmfEvent {
  tick: number;
  bytes: readonly number[];
}

/** A growable byte buffer. */
class Bytes {
  private data = new Uint8Array(1024);
  length = 0;
  push(...values: number[]): void {
    this.ensure(values.length);
    for (const v of values) this.data[this.length++] = v & 0xff;
  }
  append(values: readonly number[] | Uint8Array): void {
    this.ensure(values.length);
    this.data.set(values, this.length);
    this.length += values.length;
  }
  private ensure(more: number): void {
    if (this.length + more <= this.data.length) return;
    let size = this.data.length * 2;
    while (size < this.length + more) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.data.subarray(0, this.length));
    this.data = grown;
  }
  bytes(): Uint8Array {
    return this.data.slice(0, this.length);
  }
}

/** A variable-length quantity (delta times, meta lengths). */
function vlq(value: number): number[] {
  let v = Math.max(0, Math.floor(value));
  const out = [v & 0x7f];
  v = Math.floor(v / 128);
  while (v > 0) {
    out.unshift((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  return out;
}

const u32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];

/** A meta event's bytes: FF, type, length, data. */
export function meta(type: number, data: readonly number[]): number[] {
  return [0xff, type, ...vlq(data.length), ...data];
}

/** A text as bytes one character a byte (the caller gives UTF-8 as a byte string). */
export function textBytes(text: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; i += 1) out.push(text.charCodeAt(i) & 0xff);
  return out;
}

/**
 * The file: `tracks` of events at absolute ticks, kept in tick order (a stable sort: events of
 * one tick keep the order given), each track closed with End of Track.
 */
export function writeSmf(ticksPerQuarter: number, tracks: readonly SmfEvent[][]): Uint8Array {
  const out = new Bytes();
  out.append(textBytes('MThd'));
  out.push(...u32(6), 0, 1, (tracks.length >> 8) & 0xff, tracks.length & 0xff);
  out.push((ticksPerQuarter >> 8) & 0x7f, ticksPerQuarter & 0xff);
  for (const events of tracks) {
    const body = new Bytes();
    const sorted = events
      .map((e, i) => ({ e, i }))
      .sort((a, b) => a.e.tick - b.e.tick || a.i - b.i);
    let last = 0;
    for (const { e } of sorted) {
      const tick = Math.max(last, Math.round(e.tick));
      body.append(vlq(tick - last));
      body.append(e.bytes);
      last = tick;
    }
    body.append([0x00, ...meta(0x2f, [])]);
    out.append(textBytes('MTrk'));
    out.push(...u32(body.length));
    out.append(body.bytes());
  }
  return out.bytes();
}
