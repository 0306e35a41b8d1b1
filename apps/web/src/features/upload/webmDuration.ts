/**
 * A browser's MediaRecorder writes WebM as a live stream: the Segment's Info has no Duration, so
 * a player shows 0:00 (or Infinity) and cannot seek the take. `webmWithDuration` writes the
 * duration into the Info element. Only the head of the file is read and rewritten; the clusters
 * after it are kept as they are (MediaRecorder writes no SeekHead or Cues whose offsets would
 * move).
 */

const EBML_HEADER = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const INFO = 0x1549a966;
const TIMECODE_SCALE = 0x2ad7b1;
const DURATION = 0x4489;
const CLUSTER = 0x1f43b675;
const SEEK_HEAD = 0x114d9b74;

/** How much of the file's head is searched for the Info element. */
const HEAD_BYTES = 64 * 1024;

interface Element {
  id: number;
  /** Offset of the element's first byte, of its data, and the end of its data (null: unknown). */
  start: number;
  dataStart: number;
  end: number | null;
}

/** An element ID (its marker bits kept, as IDs are written) at `at`, and its length. */
function readId(bytes: Uint8Array, at: number): { id: number; length: number } | null {
  const first = bytes[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (length > 4 || at + length > bytes.length) return null;
  let id = 0;
  for (let i = 0; i < length; i += 1) id = id * 256 + (bytes[at + i] ?? 0);
  return { id, length };
}

/** A size (a vint with its marker removed) at `at`; `value` null for "unknown size". */
function readSize(bytes: Uint8Array, at: number): { value: number | null; length: number } | null {
  const first = bytes[at];
  if (first === undefined || first === 0) return null;
  const length = Math.clz32(first) - 23;
  if (at + length > bytes.length) return null;
  let value = first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i += 1) {
    const b = bytes[at + i] ?? 0;
    value = value * 256 + b;
    if (b !== 0xff) allOnes = false;
  }
  return { value: allOnes ? null : value, length };
}

function readElement(bytes: Uint8Array, at: number): Element | null {
  const id = readId(bytes, at);
  if (!id) return null;
  const size = readSize(bytes, at + id.length);
  if (!size) return null;
  const dataStart = at + id.length + size.length;
  return {
    id: id.id,
    start: at,
    dataStart,
    end: size.value === null ? null : dataStart + size.value,
  };
}

/** An element of known size at `at`, or null. */
function readKnown(bytes: Uint8Array, at: number): (Element & { end: number }) | null {
  const e = readElement(bytes, at);
  return e && e.end !== null ? { ...e, end: e.end } : null;
}

function readUint(bytes: Uint8Array, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i += 1) value = value * 256 + (bytes[i] ?? 0);
  return value;
}

/** An element with an 8-byte size: ID bytes, size, data. */
function element(idBytes: number[], data: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(idBytes.length + 8 + data.length);
  out.set(idBytes, 0);
  const sizeAt = idBytes.length;
  out[sizeAt] = 0x01;
  let size = data.length;
  for (let i = 7; i >= 1; i -= 1) {
    out[sizeAt + i] = size % 256;
    size = Math.floor(size / 256);
  }
  out.set(data, idBytes.length + 8);
  return out;
}

/**
 * Where the Info element is in the head of a WebM file, and its timecode scale; null when the
 * head is not a WebM this can rewrite (then the file is used as it is).
 */
function findInfo(head: Uint8Array): { info: Element; scale: number } | null {
  const ebml = readKnown(head, 0);
  if (ebml?.id !== EBML_HEADER) return null;
  const segment = readElement(head, ebml.end);
  // A Segment of known size (or with a SeekHead) would need its sizes and offsets moved too:
  // only the live-stream layout MediaRecorder writes is rewritten.
  if (segment?.id !== SEGMENT || segment.end !== null) return null;
  let at = segment.dataStart;
  while (at < head.length) {
    const child = readKnown(head, at);
    if (!child || child.id === CLUSTER || child.id === SEEK_HEAD) return null;
    if (child.id === INFO) {
      if (child.end > head.length) return null;
      let scale = 1_000_000;
      for (let inner = child.dataStart; inner < child.end;) {
        const e = readKnown(head, inner);
        if (!e || e.end > child.end) return null;
        if (e.id === TIMECODE_SCALE) scale = readUint(head, e.dataStart, e.end) || scale;
        inner = e.end;
      }
      return { info: child, scale };
    }
    at = child.end;
  }
  return null;
}

/**
 * The WebM `blob` with `seconds` written as its duration (replacing one already there). A blob
 * this cannot read as WebM is returned unchanged.
 */
export async function webmWithDuration(blob: Blob, seconds: number): Promise<Blob> {
  if (!(seconds > 0)) return blob;
  const head = new Uint8Array(await blob.slice(0, HEAD_BYTES).arrayBuffer());
  const found = findInfo(head);
  if (!found) return blob;
  const { info, scale } = found;
  const end = info.end ?? info.dataStart;
  // Info's children without any Duration, then the new Duration (a 64-bit float, in ticks).
  const kept: Uint8Array[] = [];
  for (let at = info.dataStart; at < end;) {
    const e = readKnown(head, at);
    if (!e) return blob;
    if (e.id !== DURATION) kept.push(head.subarray(e.start, e.end));
    at = e.end;
  }
  const value = new Uint8Array(8);
  new DataView(value.buffer).setFloat64(0, (seconds * 1e9) / scale);
  const duration = element([0x44, 0x89], value);
  const children = new Uint8Array(kept.reduce((n, k) => n + k.length, 0) + duration.length);
  let offset = 0;
  for (const k of kept) {
    children.set(k, offset);
    offset += k.length;
  }
  children.set(duration, offset);
  const newInfo = element([0x15, 0x49, 0xa9, 0x66], children);
  return new Blob([head.subarray(0, info.start), newInfo, blob.slice(end)], { type: blob.type });
}

/** The duration a WebM's head states, in seconds; null when it states none. */
export async function webmDuration(blob: Blob): Promise<number | null> {
  const head = new Uint8Array(await blob.slice(0, HEAD_BYTES).arrayBuffer());
  const found = findInfo(head);
  if (!found?.info.end) return null;
  for (let at = found.info.dataStart; at < found.info.end;) {
    const e = readKnown(head, at);
    if (!e) return null;
    if (e.id === DURATION) {
      const view = new DataView(head.buffer, head.byteOffset + e.dataStart, e.end - e.dataStart);
      const ticks = e.end - e.dataStart === 4 ? view.getFloat32(0) : view.getFloat64(0);
      return (ticks * found.scale) / 1e9;
    }
    at = e.end;
  }
  return null;
}
