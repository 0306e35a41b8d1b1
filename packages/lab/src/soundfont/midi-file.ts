/**
 * A small Standard MIDI File writer (format 0 or 1) for the SoundFont corpus: note on/off, program
 * change, control change (RPN for the pitch-bend range), 14-bit pitch bend, tempo and track name.
 * Pure: events in, bytes out. No running status (every event carries its status byte), which
 * every reader accepts and keeps the bytes easy to check.
 */

export type MidiEvent =
  | { tick: number; type: 'noteOn'; channel: number; note: number; velocity: number }
  | { tick: number; type: 'noteOff'; channel: number; note: number }
  | { tick: number; type: 'programChange'; channel: number; program: number }
  | { tick: number; type: 'controlChange'; channel: number; controller: number; value: number }
  /** `value` -8192..8191, 0 = centre (no bend). */
  | { tick: number; type: 'pitchBend'; channel: number; value: number }
  | { tick: number; type: 'tempo'; microsecondsPerQuarter: number }
  | { tick: number; type: 'trackName'; text: string };

export interface MidiFileSpec {
  /** Ticks per quarter note (the header's division), 1..32767. */
  ticksPerQuarter: number;
  /** One list of events per track, in any order (sorted by tick here, ties kept in order). */
  tracks: readonly (readonly MidiEvent[])[];
}

/**
 * At one tick: note-offs first, then meta and controller events, then pitch bends, then note-ons,
 * so that a bend reset always reaches a channel before the note it belongs to.
 */
const ORDER: Record<MidiEvent['type'], number> = {
  noteOff: 0,
  tempo: 1,
  trackName: 1,
  programChange: 1,
  controlChange: 1,
  pitchBend: 2,
  noteOn: 3,
};

/** The events that set a channel's pitch-bend range (RPN 0, then the null RPN). */
export function pitchBendRangeEvents(
  tick: number,
  channel: number,
  semitones: number,
): MidiEvent[] {
  const cc = (controller: number, value: number): MidiEvent => ({
    tick,
    type: 'controlChange',
    channel,
    controller,
    value,
  });
  return [cc(101, 0), cc(100, 0), cc(6, semitones), cc(38, 0), cc(101, 127), cc(100, 127)];
}

function variableLength(value: number): number[] {
  if (!Number.isInteger(value) || value < 0 || value > 0x0fffffff)
    throw new RangeError(`delta time out of range: ${value}`);
  const bytes = [value & 0x7f];
  let v = value >>> 7;
  while (v > 0) {
    bytes.unshift((v & 0x7f) | 0x80);
    v >>>= 7;
  }
  return bytes;
}

const data7 = (v: number, what: string): number => {
  if (!Number.isInteger(v) || v < 0 || v > 127) throw new RangeError(`${what} out of range: ${v}`);
  return v;
};

const channelOf = (c: number): number => {
  if (!Number.isInteger(c) || c < 0 || c > 15) throw new RangeError(`channel out of range: ${c}`);
  return c;
};

function eventBytes(e: MidiEvent): number[] {
  switch (e.type) {
    case 'noteOn':
      return [0x90 | channelOf(e.channel), data7(e.note, 'note'), data7(e.velocity, 'velocity')];
    case 'noteOff':
      return [0x80 | channelOf(e.channel), data7(e.note, 'note'), 0x40];
    case 'programChange':
      return [0xc0 | channelOf(e.channel), data7(e.program, 'program')];
    case 'controlChange':
      return [
        0xb0 | channelOf(e.channel),
        data7(e.controller, 'controller'),
        data7(e.value, 'value'),
      ];
    case 'pitchBend': {
      const v = Math.max(-8192, Math.min(8191, Math.round(e.value))) + 8192;
      return [0xe0 | channelOf(e.channel), v & 0x7f, (v >> 7) & 0x7f];
    }
    case 'tempo': {
      const t = e.microsecondsPerQuarter;
      if (!Number.isInteger(t) || t < 1 || t > 0xffffff) throw new RangeError(`tempo: ${t}`);
      return [0xff, 0x51, 0x03, (t >> 16) & 0xff, (t >> 8) & 0xff, t & 0xff];
    }
    case 'trackName': {
      const text = Array.from(e.text, (ch) => ch.charCodeAt(0) & 0x7f);
      return [0xff, 0x03, ...variableLength(text.length), ...text];
    }
  }
}

function u32(v: number): number[] {
  return [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
}

const u16 = (v: number): number[] => [(v >> 8) & 0xff, v & 0xff];

const ascii = (s: string): number[] => Array.from(s, (ch) => ch.charCodeAt(0));

function trackChunk(events: readonly MidiEvent[]): number[] {
  const sorted = events
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.tick - b.e.tick || ORDER[a.e.type] - ORDER[b.e.type] || a.i - b.i);
  const body: number[] = [];
  let last = 0;
  for (const { e } of sorted) {
    if (!Number.isInteger(e.tick) || e.tick < 0) throw new RangeError(`tick: ${e.tick}`);
    body.push(...variableLength(e.tick - last), ...eventBytes(e));
    last = e.tick;
  }
  body.push(0x00, 0xff, 0x2f, 0x00);
  return [...ascii('MTrk'), ...u32(body.length), ...body];
}

/** The bytes of a Standard MIDI File: format 0 for one track, format 1 for several. */
export function midiFileBytes(spec: MidiFileSpec): Uint8Array {
  const division = spec.ticksPerQuarter;
  if (!Number.isInteger(division) || division < 1 || division > 0x7fff)
    throw new RangeError(`ticksPerQuarter: ${division}`);
  if (spec.tracks.length === 0) throw new RangeError('a MIDI file needs at least one track');
  const header = [
    ...ascii('MThd'),
    ...u32(6),
    ...u16(spec.tracks.length === 1 ? 0 : 1),
    ...u16(spec.tracks.length),
    ...u16(division),
  ];
  const bytes = [...header];
  for (const track of spec.tracks) for (const b of trackChunk(track)) bytes.push(b);
  return Uint8Array.from(bytes);
}
