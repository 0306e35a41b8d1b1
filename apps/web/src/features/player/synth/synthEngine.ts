import {
  Chorus,
  Compressor,
  Distortion,
  Filter,
  Gain,
  Reverb,
  Volume,
  connect,
  getContext,
  getDestination,
  start as startTone,
} from 'tone';
import { DEFAULT_SYNTH, type SynthPreset, type SynthSettings } from '../model/playerState';
import type { ScheduledVoice } from './schedule';

/** Per-preset voice: envelope (seconds, levels 0..1) and the pluck's brightness filter (Hz). */
const VOICES: Record<
  SynthPreset,
  { attack: number; decay: number; sustain: number; release: number; bright: number; level: number }
> = {
  nylon: { attack: 0.006, decay: 0.35, sustain: 0.22, release: 0.12, bright: 2400, level: 0.55 },
  steel: { attack: 0.003, decay: 0.5, sustain: 0.28, release: 0.15, bright: 4600, level: 0.5 },
  electric: { attack: 0.003, decay: 0.9, sustain: 0.55, release: 0.1, bright: 3800, level: 0.45 },
};

interface Playing {
  osc: OscillatorNode;
  env: GainNode;
}

/**
 * The Web Audio synth (Tone.js): triangle-wave voices, one per note with its own pluck envelope
 * and pitch-bend automation, into high-pass -> drive -> chorus -> cab low-pass -> reverb ->
 * compressor -> volume. Voices are plain Web Audio nodes so that a dense passage stays cheap.
 */
export class SynthEngine {
  private readonly input = new Gain(1);
  private readonly highPass = new Filter({
    type: 'highpass',
    frequency: DEFAULT_SYNTH.highPassHz,
    rolloff: -12,
  });
  private readonly drive = new Distortion({ distortion: 0, wet: 0, oversample: '2x' });
  private readonly chorus = new Chorus({ frequency: 1.2, delayTime: 3.5, depth: 0.5, wet: 0 });
  private readonly cab = new Filter({
    type: 'lowpass',
    frequency: DEFAULT_SYNTH.cabLowPassHz,
    rolloff: -24,
  });
  private readonly reverb = new Reverb({ decay: 2.2, preDelay: 0.015, wet: 0.2 });
  private readonly compressor = new Compressor({
    threshold: DEFAULT_SYNTH.compressorThresholdDb,
    ratio: DEFAULT_SYNTH.compressorRatio,
    attack: 0.005,
  });
  private readonly volume = new Volume(0);
  private readonly playing = new Set<Playing>();
  private preset: SynthPreset = DEFAULT_SYNTH.preset;

  constructor() {
    this.chorus.start();
    this.input.chain(
      this.highPass,
      this.drive,
      this.chorus,
      this.cab,
      this.reverb,
      this.compressor,
      this.volume,
      getDestination(),
    );
  }

  /** Resumes the audio context; browsers allow it only after a user gesture. */
  async start(): Promise<void> {
    await startTone();
  }

  /** The audio clock, seconds. */
  now(): number {
    return getContext().currentTime;
  }

  get running(): boolean {
    return getContext().state === 'running';
  }

  apply(settings: SynthSettings): void {
    this.preset = settings.preset;
    this.highPass.frequency.value = settings.highPassHz;
    this.cab.frequency.value = settings.cabLowPassHz;
    this.drive.distortion = settings.drive * 0.9;
    this.drive.wet.value = settings.drive > 0 ? 1 : 0;
    this.chorus.wet.value = settings.chorus;
    this.reverb.wet.value = settings.reverb;
    this.compressor.threshold.value = settings.compressorThresholdDb;
    this.compressor.ratio.value = settings.compressorRatio;
  }

  /** 0..1, as the volume slider gives it. */
  setVolume(volume: number): void {
    this.volume.volume.value = volume <= 0 ? -Infinity : 20 * Math.log10(volume);
  }

  play(v: ScheduledVoice): void {
    const ctx = getContext();
    const spec = VOICES[this.preset];
    const start = v.startAt;
    const end = start + v.length;
    const osc = ctx.createOscillator();
    osc.type = 'triangle';
    osc.frequency.value = v.voice.frequency;
    if (v.voice.detune.length >= 2) {
      osc.detune.setValueCurveAtTime(v.voice.detune, start, Math.max(0.01, v.length));
    }
    const tone = ctx.createBiquadFilter();
    tone.type = 'lowpass';
    tone.frequency.value = v.voice.muted ? 900 : spec.bright;
    tone.Q.value = 0.7;
    const env = ctx.createGain();
    const peak = spec.level * (v.voice.muted ? 0.6 : 1);
    env.gain.setValueAtTime(0, start);
    env.gain.linearRampToValueAtTime(peak, start + spec.attack);
    env.gain.setTargetAtTime(peak * spec.sustain, start + spec.attack, spec.decay / 3);
    env.gain.setTargetAtTime(0, end, spec.release / 3);
    osc.connect(tone);
    tone.connect(env);
    connect(env, this.input);
    osc.start(start);
    osc.stop(end + spec.release * 2);
    const entry = { osc, env };
    this.playing.add(entry);
    osc.onended = () => {
      env.disconnect();
      this.playing.delete(entry);
    };
  }

  /** Fades out every scheduled or sounding voice at once (pause, seek, speed change). */
  stopAll(): void {
    const now = this.now();
    for (const p of this.playing) {
      p.env.gain.cancelScheduledValues(now);
      p.env.gain.setTargetAtTime(0, now, 0.01);
      try {
        p.osc.stop(now + 0.06);
      } catch {
        // Not started yet: stopping before the start time is refused by some browsers.
      }
    }
  }

  dispose(): void {
    this.stopAll();
    for (const node of [
      this.input,
      this.highPass,
      this.drive,
      this.chorus,
      this.cab,
      this.reverb,
      this.compressor,
      this.volume,
    ]) {
      node.dispose();
    }
  }
}
