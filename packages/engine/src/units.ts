/**
 * One branded type per unit, so that a fret can never be passed where a pitch is expected
 * (DESIGN.md, domain conventions). Brands cost nothing at run time: construct with the helpers
 * below at the edge (adapters, parsing) and keep the brand through the algorithms.
 */
declare const unit: unique symbol;
type Branded<T, U extends string> = T & { readonly [unit]: U };

/** Time in seconds from the start of the clip. */
export type Seconds = Branded<number, 'seconds'>;
/** MIDI pitch number; fractional only where a curve needs it (69 = A4 = 440 Hz). */
export type MidiPitch = Branded<number, 'midi'>;
/** Frequency in hertz. */
export type Hz = Branded<number, 'hz'>;
/** Index of a model frame (FRAME_RATE frames per second). */
export type Frames = Branded<number, 'frames'>;
/** Guitar string, 1 = high e ... 6 = low E. */
export type StringNumber = Branded<number, 'string'>;
/** Fret relative to the capo, as a capo tab is written (0 = open or the capo itself). */
export type Fret = Branded<number, 'fret'>;

export const seconds = (value: number): Seconds => value as Seconds;
export const midi = (value: number): MidiPitch => value as MidiPitch;
export const hz = (value: number): Hz => value as Hz;
export const frames = (value: number): Frames => value as Frames;
export const stringNumber = (value: number): StringNumber => value as StringNumber;
export const fret = (value: number): Fret => value as Fret;

/** Analysis sample rate and hop (spec section 9, pitch curves). */
export const SAMPLE_RATE = 22050;
export const HOP = 256;
/** Model frames (and pitch_arr points) per second: 22050 / 256 ≈ 86.13. */
export const FRAME_RATE = SAMPLE_RATE / HOP;

export const framesToSeconds = (f: Frames | number): Seconds => seconds(f / FRAME_RATE);
export const secondsToFrames = (s: Seconds | number): Frames => frames(s * FRAME_RATE);
export const midiToHz = (m: MidiPitch | number): Hz => hz(440 * 2 ** ((m - 69) / 12));
export const hzToMidi = (f: Hz | number): MidiPitch => midi(69 + 12 * Math.log2(f / 440));
