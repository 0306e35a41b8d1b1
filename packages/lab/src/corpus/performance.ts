import {
  PITCH_POINT_MAX,
  PITCH_POINT_MIN,
  PITCH_STEPS_PER_FRET,
  type ChordEvent,
  type NoteEvent,
  type Tuning,
} from '@riffscribe/core';
import {
  FRAME_RATE,
  gaussian,
  HOP,
  midiToHz,
  openPitch,
  type Random,
  SAMPLE_RATE,
  seededRandom,
} from '@riffscribe/engine/stages';
import {
  CONTROL_SAMPLES,
  naturalT60,
  type Excitation,
  type StringScore,
  type Timbre,
} from './string-model.js';

/**
 * A performance on one guitar: what the player does on each string (picks, legato moves, bends,
 * vibrato, dead notes), from which both the answer key (NoteEvents in the spec's format, with
 * technique flags) and the physical model's control curves are derived. Writing both from one
 * description keeps the rendered audio and its truth in exact agreement.
 */

/** A bend inside one note: times in seconds from the note's start, sizes in semitones. */
export interface BendShape {
  semitones: number;
  /** When the bend starts and how long it takes to reach the top. */
  at: number;
  rise: number;
  /** Optional release back down to `to` semitones above the fretted pitch. */
  release?: { at: number; fall: number; to: number };
  /**
   * Real bends overshoot the target and settle (semitones over the top, seconds to settle), and
   * the string's level moves as the bent string's partials cross the pickup's and body's
   * resonances (`levelDb` at the top of the bend, either sign). Set by Performance from the
   * note's own seed (realism, issue 39).
   */
  overshoot?: { semitones: number; settle: number };
  levelDb?: number;
}

/** Vibrato: `cents` is the modulation's amplitude (half its peak-to-peak swing). */
export interface VibratoShape {
  kind: 'small' | 'big';
  cents: number;
  rate: number;
  /** Seconds after the note's start before the vibrato begins. */
  delay: number;
  /** 'centred' swings both ways (classical); 'upward' only pushes the pitch up (rock). */
  shape: 'centred' | 'upward';
  /**
   * Realism (issue 39), set by Performance from the note's own seed: a person's vibrato is not
   * a steady sine; its rate wanders by `wobble` (a fraction, at about 0.7 Hz), and the string's
   * level swings with the pitch (pickup, body and amp: 2-8 dB peak to peak measured on real
   * licks, `levelDb`, in phase or against it).
   */
  wobble?: number;
  wobblePhase?: number;
  levelDb?: number;
}

export type Attack = 'pick' | 'hammer' | 'pull' | 'slide' | 'mute';

/** One note as played on one string. Times in seconds; fret relative to the capo. */
export interface PlayedNote {
  string: number;
  fret: number;
  start: number;
  end: number;
  attack: Attack;
  velocity: number;
  bend?: BendShape;
  vibrato?: VibratoShape;
  /** Constant detune in semitones (a player is never perfectly in tune). */
  detune: number;
  /** The legato note this one leads into (hammer-on, pull-off or slide), if any. */
  next?: PlayedNote;
  /** For a slide into `next`: seconds of glide at the end of this note. */
  glide?: number;
}

export interface PickOptions {
  velocity?: number;
  bend?: BendShape;
  vibrato?: VibratoShape;
}

/** Smoothstep 0..1 (the shape of a bend's rise and a slide's glide). */
export const smooth = (x: number) => (x <= 0 ? 0 : x >= 1 ? 1 : x * x * (3 - 2 * x));

/**
 * Semitones of bend at `tau` seconds into a note; `asWritten` leaves out the overshoot (the
 * answer key writes the bend a tab would, to its target).
 */
export function bendAt(bend: BendShape | undefined, tau: number, asWritten = false): number {
  if (bend === undefined) return 0;
  let v = bend.semitones * smooth((tau - bend.at) / bend.rise);
  if (bend.overshoot !== undefined && !asWritten) {
    // Over the top at the end of the rise, then settling back onto it.
    const x = (tau - bend.at - bend.rise * 0.8) / bend.overshoot.settle;
    if (x > -0.5) v += bend.overshoot.semitones * Math.exp(-((x - 0.3) ** 2) / 0.18);
  }
  if (bend.release !== undefined)
    v += (bend.release.to - bend.semitones) * smooth((tau - bend.release.at) / bend.release.fall);
  return v;
}

/** Hz of the slow wander of a vibrato's rate. */
const WOBBLE_HZ = 0.7;

/** The vibrato's phase (radians) `x` seconds after it begins, its rate wandering by `wobble`. */
function vibratoPhase(v: VibratoShape, x: number): number {
  const wobble = v.wobble ?? 0;
  const p0 = v.wobblePhase ?? 0;
  const w = 2 * Math.PI * WOBBLE_HZ;
  // The integral of rate * (1 + wobble * sin(w t + p0)).
  return 2 * Math.PI * v.rate * (x - (wobble / w) * (Math.cos(w * x + p0) - Math.cos(p0)));
}

/** The vibrato's swing at `tau`, -1..1 (0 before it begins), as the pitch moves. */
function vibratoSwing(v: VibratoShape, tau: number): number {
  if (tau < v.delay) return 0;
  const x = tau - v.delay;
  // The player eases into the vibrato over about a tenth of a second.
  const ease = smooth(x / 0.1);
  const phase = vibratoPhase(v, x);
  return ease * (v.shape === 'centred' ? Math.sin(phase) : -Math.cos(phase));
}

/** Semitones of vibrato at `tau` seconds into a note. */
export function vibratoAt(v: VibratoShape | undefined, tau: number): number {
  if (v === undefined || tau < v.delay) return 0;
  const depth = v.cents / 100;
  const swing = vibratoSwing(v, tau);
  // An upward vibrato swings from the fretted pitch up: swing -1..1 maps to 0..2 depths.
  const ease = smooth((tau - v.delay) / 0.1);
  return v.shape === 'centred' ? depth * swing : depth * (swing + ease);
}

/**
 * The note's level in dB relative to its plain decay at `tau` seconds in: the swing that comes
 * with a vibrato and the change that comes with a bend (0 for a note with neither).
 */
export function levelAt(n: Pick<PlayedNote, 'bend' | 'vibrato'>, tau: number): number {
  let db = 0;
  if (n.vibrato?.levelDb !== undefined)
    db += (n.vibrato.levelDb / 2) * vibratoSwing(n.vibrato, tau);
  if (n.bend?.levelDb !== undefined && n.bend.semitones !== 0)
    db += n.bend.levelDb * (bendAt(n.bend, tau) / n.bend.semitones);
  return db;
}

/**
 * What real playing adds to a note's bend and vibrato (issue 39), from the note's own seed (its
 * string and start), so that the corpus's other random draws stay as they were: a vibrato whose
 * rate wanders by 5-20 % and whose level swings 2-9 dB peak to peak with the pitch (median about
 * 6 dB, as measured on real electric licks; FluidSynth's vibrato notes swing 2 dB), in phase or
 * against it; a bend that overshoots by 0-0.3 semitone and settles in 60-150 ms, its level moving
 * 1-5 dB either way at the top.
 */
export function realistic(note: PlayedNote): PlayedNote {
  if (!note.vibrato && !note.bend) return note;
  const random = seededRandom(
    (Math.round(note.start * 1000) * 7 + note.string * 104_729 + note.fret * 31) >>> 0,
  );
  const draw = (a: number, b: number) => a + (b - a) * random();
  const sign = () => (random() < 0.5 ? -1 : 1);
  if (note.vibrato && note.vibrato.levelDb === undefined) {
    note.vibrato = {
      ...note.vibrato,
      wobble: draw(0.05, 0.2),
      wobblePhase: draw(0, 2 * Math.PI),
      levelDb: sign() * draw(2, 9),
    };
  }
  if (note.bend && note.bend.levelDb === undefined) {
    const overshoot = { semitones: draw(0, 0.3), settle: draw(0.06, 0.15) };
    note.bend = {
      ...note.bend,
      // A pre-bend (bent before the pick) has no rise to overshoot.
      ...(note.bend.at >= 0 ? { overshoot } : {}),
      levelDb: sign() * draw(1, 5),
    };
  }
  return note;
}

/** A strum as played: its notes and whether it is an open chord (see `strum`). */
export interface Strum {
  notes: PlayedNote[];
  open: boolean;
}

export class Performance {
  readonly notes: PlayedNote[] = [];
  readonly chords: ChordEvent[] = [];
  readonly strums: Strum[] = [];

  constructor(
    readonly tuning: Tuning,
    readonly capo: number,
    private readonly random: Random,
  ) {}

  /** MIDI pitch of a string and fret under this tuning and capo. */
  pitchOf(string: number, fret: number): number {
    return openPitch(this, string) + fret;
  }

  private lastOn(string: number): PlayedNote | undefined {
    let last: PlayedNote | undefined;
    for (const n of this.notes)
      if (n.string === string && (!last || n.start >= last.start)) last = n;
    return last;
  }

  private add(note: PlayedNote): PlayedNote {
    realistic(note);
    const previous = this.lastOn(note.string);
    // A new attack on a ringing string ends the note that was ringing.
    if (previous !== undefined && previous.end > note.start) previous.end = note.start;
    this.notes.push(note);
    return note;
  }

  /** A picked note. */
  pick(string: number, fret: number, time: number, duration: number, opts: PickOptions = {}) {
    return this.add({
      string,
      fret,
      start: time,
      end: time + duration,
      attack: 'pick',
      velocity: opts.velocity ?? 0.8,
      ...(opts.bend ? { bend: opts.bend } : {}),
      ...(opts.vibrato ? { vibrato: opts.vibrato } : {}),
      detune: 0.03 * gaussian(this.random),
    });
  }

  /**
   * A note reached from `from` without a pick, starting where `from` ends: a slide when `glide`
   * (seconds of glide at the end of `from`) is given, otherwise a hammer-on going up or a
   * pull-off going down.
   */
  legato(
    from: PlayedNote,
    fret: number,
    duration: number,
    opts: PickOptions & { glide?: number } = {},
  ): PlayedNote {
    const attack: Attack =
      opts.glide !== undefined ? 'slide' : fret > from.fret ? 'hammer' : 'pull';
    const note: PlayedNote = {
      string: from.string,
      fret,
      start: from.end,
      end: from.end + duration,
      attack,
      velocity: from.velocity,
      ...(opts.bend ? { bend: opts.bend } : {}),
      ...(opts.vibrato ? { vibrato: opts.vibrato } : {}),
      detune: from.detune,
    };
    from.next = note;
    if (opts.glide !== undefined) from.glide = opts.glide;
    this.notes.push(realistic(note));
    return note;
  }

  /** A dead note: the fretting hand only touches the string; `fret` is where the hand is. */
  mute(string: number, fret: number, time: number, velocity = 0.8): PlayedNote {
    return this.add({
      string,
      fret,
      start: time,
      end: time + 0.08,
      attack: 'mute',
      velocity,
      detune: 0,
    });
  }

  /**
   * A strum: `frets` low string (6) to high string (1), null = not played. Down strums start at
   * the low string; `spread` seconds between neighbouring strings.
   */
  strum(
    frets: readonly (number | null)[],
    time: number,
    duration: number,
    opts: { up?: boolean; spread?: number; velocity?: number } = {},
  ): PlayedNote[] {
    const order = frets
      .map((f, i) => ({ f, string: 6 - i }))
      .filter((x): x is { f: number; string: number } => x.f !== null);
    if (opts.up === true) order.reverse();
    const spread = opts.spread ?? 0.012;
    const notes = order.map((x, k) =>
      this.pick(x.string, x.f, time + k * spread, duration - k * spread, {
        velocity: (opts.velocity ?? 0.7) * (0.85 + 0.3 * this.random()),
      }),
    );
    // An open chord: a full shape (four strings or more) that rings an open string.
    this.strums.push({ notes, open: order.length >= 4 && order.some((x) => x.f === 0) });
    return notes;
  }

  /**
   * The true notes of the strums (all, or only those of shapes that ring an open string), with
   * pitches, strings and frets, times rounded as in `truth()`: for strum note recall.
   */
  strumTruth(openOnly: boolean): {
    time: number;
    endTime: number;
    pitch: number;
    string: number;
    fret: number;
  }[] {
    return this.strums
      .filter((s) => !openOnly || s.open)
      .flatMap((s) => s.notes)
      .map((n) => ({
        time: round(n.start),
        endTime: round(n.end),
        pitch: this.pitchOf(n.string, n.fret),
        string: n.string,
        fret: n.fret,
      }))
      .sort((a, b) => a.time - b.time || b.string - a.string);
  }

  /** The answer for a chord sounding from `time` to `end`. */
  chord(name: string, time: number, end: number): void {
    this.chords.push({ time, end_time: end, chord: name, event_type: 'chord' });
  }

  /** End of the last note, seconds. */
  get end(): number {
    return this.notes.reduce((e, n) => Math.max(e, n.end), 0);
  }

  /** The answer key: one NoteEvent per played note, in the spec's format, sorted by time. */
  truth(): NoteEvent[] {
    const previousOf = new Map<PlayedNote, PlayedNote>();
    for (const n of this.notes) if (n.next) previousOf.set(n.next, n);
    return this.notes
      .map((n): NoteEvent => {
        const time = round(n.start);
        const end = round(n.end);
        const duration = end - time;
        const points = Math.floor((duration * SAMPLE_RATE) / HOP) + 1;
        const pitchArr = Array.from({ length: points }, (_, k) => {
          const v = 1 + PITCH_STEPS_PER_FRET * bendAt(n.bend, k / FRAME_RATE, true);
          return Math.round(Math.min(PITCH_POINT_MAX, Math.max(PITCH_POINT_MIN, v)) * 100) / 100;
        });
        const top = n.bend ? n.fret + n.bend.semitones : null;
        const release = n.bend?.release ? n.fret + n.bend.release.to : null;
        const into = n.next?.attack;
        return {
          time,
          end_time: end,
          string: n.string,
          fret: n.fret,
          event_type: 'note',
          pitch_arr: pitchArr,
          mute: n.attack === 'mute',
          vibrato: n.vibrato?.kind ?? '',
          bend_to_fret: top,
          release_to_fret: release,
          leading_slide: n.attack === 'slide',
          trailing_slide: into === 'slide',
          leading_hammer_on: n.attack === 'hammer',
          trailing_hammer_on: into === 'hammer',
          leading_pull_off: n.attack === 'pull',
          trailing_pull_off: into === 'pull',
        };
      })
      .sort((a, b) => a.time - b.time || b.string - a.string);
  }

  /**
   * Sympathetic ringing: an open string no finger touches rings softly when another string
   * plays a note that shares its partials (its pitch, or one, two octaves or a twelfth above),
   * from that note's start until the open string is next played (realism, issue 39; the answer
   * key has no note for it). `pitch` and `t60` are the open string's control curves.
   */
  private sympathy(
    string: number,
    own: readonly PlayedNote[],
    pitch: Float32Array,
    t60: Float32Array,
    excitations: Excitation[],
  ): void {
    const open = this.pitchOf(string, 0);
    const resonates = (p: number) => [0, 12, 19, 24].includes(p - open);
    for (const n of this.notes) {
      if (n.string === string || n.attack === 'mute' || !resonates(this.pitchOf(n.string, n.fret)))
        continue;
      // Only while this string is free: no note of its own sounding or about to start.
      if (own.some((m) => m.start < n.end + 0.3 && m.end > n.start - 0.05)) continue;
      excitations.push({ time: n.start + 0.01, kind: 'sympathy', velocity: 0.05 * n.velocity });
      const from = Math.floor(((n.start + 0.01) * SAMPLE_RATE) / CONTROL_SAMPLES);
      const to = Math.min(t60.length, Math.ceil(((n.end + 0.3) * SAMPLE_RATE) / CONTROL_SAMPLES));
      for (let k = Math.max(0, from); k < to; k++) {
        pitch[k] = open;
        t60[k] = 1.2;
      }
    }
  }

  /** Control curves and excitations for the six strings (index 0 = string 1). */
  scores(lengthSamples: number, timbre: Timbre): StringScore[] {
    const steps = Math.ceil(lengthSamples / CONTROL_SAMPLES) + 2;
    const out: StringScore[] = [];
    for (let s = 1; s <= 6; s++) {
      const notes = this.notes.filter((n) => n.string === s).sort((a, b) => a.start - b.start);
      const pitch = new Float32Array(steps);
      const t60 = new Float32Array(steps);
      const level = new Float32Array(steps).fill(1);
      const excitations: Excitation[] = [];
      let current = this.pitchOf(s, 0);
      let idx = 0;
      for (let k = 0; k < steps; k++) {
        const t = (k * CONTROL_SAMPLES) / SAMPLE_RATE;
        while (idx < notes.length && (notes[idx]?.end ?? 0) <= t) idx++;
        const n = notes[idx];
        if (n === undefined || n.start > t) {
          // Between notes the fretting hand rests on the string and damps it.
          pitch[k] = current;
          t60[k] = 0.03;
          continue;
        }
        const tau = t - n.start;
        let p =
          this.pitchOf(s, n.fret) + n.detune + bendAt(n.bend, tau) + vibratoAt(n.vibrato, tau);
        let decay = naturalT60(timbre, midiToHz(p));
        if (n.next && n.glide !== undefined && t > n.end - n.glide) {
          const x = (t - (n.end - n.glide)) / n.glide;
          p += (n.next.fret - n.fret) * smooth(x);
          // Friction of the sliding finger.
          decay *= 0.6;
        }
        if (n.attack === 'mute') decay = 0.02;
        level[k] = 10 ** (levelAt(n, tau) / 20);
        pitch[k] = p;
        t60[k] = decay;
        current = p;
      }
      for (const n of notes) {
        if (n.attack !== 'slide')
          excitations.push({ time: n.start, kind: n.attack, velocity: n.velocity });
        // Fret noise: the finger sliding along the string through a slide's glide.
        if (n.next && n.glide !== undefined)
          excitations.push({
            time: n.end - n.glide,
            kind: 'scrape',
            velocity: n.velocity * (s >= 4 ? 1 : 0.5),
            seconds: n.glide,
          });
      }
      // Finger noise: the hand shifting position along a wound string between two picked notes
      // squeaks (from the note's own seed: about half of the shifts of three frets or more).
      for (let k = 1; k < notes.length; k++) {
        const a = notes[k - 1];
        const b = notes[k];
        if (!a || b?.attack !== 'pick' || s < 4 || Math.abs(b.fret - a.fret) < 3) continue;
        const r = seededRandom((Math.round(b.start * 1000) * 13 + s * 101 + b.fret) >>> 0);
        if (r() < 0.5) continue;
        const seconds = 0.03 + 0.04 * r();
        excitations.push({
          time: Math.max(a.start, b.start - seconds - 0.01),
          kind: 'scrape',
          velocity: 0.4 + 0.4 * r(),
          seconds,
        });
      }
      this.sympathy(s, notes, pitch, t60, excitations);
      out.push({ pitch, t60, level, excitations });
    }
    return out;
  }
}

const round = (x: number) => Math.round(x * 10000) / 10000;
