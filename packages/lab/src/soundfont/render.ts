import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { decodeAudio, findFfmpeg } from '@riffscribe/engine';
import { runTool } from '@riffscribe/engine/media-tools';
import { onPath, seededRandom } from '@riffscribe/engine/stages';
import { midiFileBytes } from './midi-file.js';
import type { MidiFileSpec } from './midi-file.js';
import type { Effects } from './recipes.js';

/**
 * Renders SoundFont corpus items: MIDI -> FluidSynth (Debian's `fluidsynth` with the General MIDI
 * SoundFont of `fluid-soundfont-gm`, its own reverb and chorus off) -> ffmpeg (the engine's
 * findFfmpeg: level, room reverb from early reflections, pink noise, a phone's high-pass, an Opus
 * or AAC round trip at a low bit rate) -> mono 16-bit WAV at 22050 Hz, cached under `cacheDir` by a
 * hash of everything that decides the sound, so that a rerun reads the WAVs back in a moment.
 */

/** Raise to re-render every cached WAV after a change to the rendering chain. */
const RENDER_VERSION = 2;
const SOUNDFONT = '/usr/share/sounds/sf2/FluidR3_GM.sf2';
const PACKAGES = ['fluidsynth', 'fluid-soundfont-gm', 'lv2file', 'guitarix-lv2'] as const;
const RATE = 44100;
/** Peak level of FluidSynth's output before the room and the noise. */
const LEVEL = 0.5;

export interface FluidSynthSetup {
  fluidsynth: string;
  soundfont: string;
  /** lv2file, which runs guitarix's amplifier models (guitarix-lv2) for the electric items. */
  lv2file: string;
}

/** A guitarix plugin the amplifiers use: its presence says guitarix-lv2 is installed. */
const GUITARIX_BUNDLE = '/usr/lib/lv2/gxts9.lv2';

function present(): FluidSynthSetup | null {
  const fluidsynth = onPath('fluidsynth');
  const lv2file = onPath('lv2file');
  return fluidsynth !== undefined &&
    lv2file !== undefined &&
    existsSync(SOUNDFONT) &&
    existsSync(GUITARIX_BUNDLE)
    ? { fluidsynth, soundfont: SOUNDFONT, lv2file }
    : null;
}

const cannot = (why: string) =>
  `The SoundFont corpus needs Debian's ${PACKAGES.join(' and ')}, and they could not be ` +
  `installed here (${why}). Install them (as root: apt-get install -y ${PACKAGES.join(' ')}) ` +
  `and run the eval again, or leave the SoundFont corpus out ` +
  `(npm run eval -- --corpus string-model,real).`;

/**
 * FluidSynth and the GM SoundFont, installed with `apt-get install -y` when missing (said on
 * `progress`). Nothing else is downloaded.
 *
 * @throws Error with what to do when they are missing and cannot be installed.
 */
export async function ensureFluidSynth(progress: (line: string) => void): Promise<FluidSynthSetup> {
  const found = present();
  if (found) return found;
  const apt = onPath('apt-get');
  if (apt === undefined) throw new Error(cannot('no apt-get on PATH'));
  if (process.getuid?.() !== 0) throw new Error(cannot('apt-get needs root'));
  progress(
    `The SoundFont corpus needs ${PACKAGES.join(' and ')}: installing them with apt-get install -y ...`,
  );
  const env = { activity: 'Installing FluidSynth', timeoutMs: 15 * 60_000 };
  const install = () =>
    runTool(apt, ['install', '-y', '--no-install-recommends', ...PACKAGES], env);
  let result = await install();
  if (result.code !== 0) {
    progress('apt-get install failed; running apt-get update and trying once more ...');
    await runTool(apt, ['update'], env);
    result = await install();
  }
  const after = present();
  if (after === null)
    throw new Error(cannot(`apt-get install failed: ${result.stderr.trim().slice(-600)}`));
  progress(`Installed ${PACKAGES.join(' and ')}.`);
  return after;
}

async function tool(binary: string, args: string[], activity: string): Promise<void> {
  const r = await runTool(binary, args, { activity, timeoutMs: 5 * 60_000 });
  if (r.code !== 0)
    throw new Error(
      `${activity} failed (${path.basename(binary)} exit ${r.code}): ${r.stderr.slice(-800)}`,
    );
}

/** The peak of 16-bit little-endian PCM, 0..1. */
function peakOf(pcm: Buffer): number {
  let peak = 0;
  for (let i = 0; i + 1 < pcm.length; i += 2) peak = Math.max(peak, Math.abs(pcm.readInt16LE(i)));
  return peak / 32768;
}

/** The ffmpeg filter graph for an item's effects (input [0:a], output [out]). */
export function effectsGraph(
  effects: Effects,
  gain: number,
  seconds: number,
  seed: number,
  amp: Amp | null = null,
): string {
  // After an amplifier the input is already mono; its speaker cabinet comes first.
  const chain = [
    amp ? 'anull' : `pan=mono|c0=0.5*c0+0.5*c1`,
    `volume=${gain.toFixed(6)}`,
    ...(amp ? [amp.cabinet] : []),
  ];
  // Early reflections of a room (aecho: in gain, out gain, delays ms, decays); no impulse file.
  if (effects.room === 'room') chain.push('aecho=1.0:0.75:17|29|43|61:0.35|0.28|0.2|0.12');
  if (effects.room === 'hall') chain.push('aecho=1.0:0.7:37|59|83|121|163:0.4|0.33|0.27|0.2|0.14');
  if (effects.phone) chain.push('highpass=f=180');
  const graph = [`[0:a]${chain.join(',')}[wet]`];
  if (effects.noiseDb === null) graph.push('[wet]anull[out]');
  else {
    const amplitude = LEVEL * 10 ** (effects.noiseDb / 20);
    graph.push(
      `anoisesrc=d=${seconds.toFixed(3)}:c=pink:r=${RATE}:a=${amplitude.toFixed(6)}:s=${seed}[noise]`,
      // amix halves each of its two inputs; volume=2 restores the levels.
      '[wet][noise]amix=inputs=2:duration=first:dropout_transition=0,volume=2[out]',
    );
  }
  return graph.join(';');
}

/**
 * What rendering needs of an item (a SoundfontScore, or a rhythm corpus piece): its name, seed and
 * effects, its length in seconds and its MIDI file.
 */
export interface RenderableScore {
  /** `program`: the GM guitar program; an electric one goes through an amplifier (ampFor). */
  recipe: { name: string; seed: number; effects: Effects; program?: number };
  truth: { seconds: number };
  midi: MidiFileSpec;
}

/** Cache key of an item: everything that decides its sound. */
function cacheKey(score: RenderableScore, midi: Uint8Array, soundfont: string): string {
  const h = createHash('sha256');
  h.update(
    JSON.stringify({
      v: RENDER_VERSION,
      effects: score.recipe.effects,
      amp: ampOf(score),
      seed: score.recipe.seed,
      seconds: score.truth.seconds,
      soundfont: [soundfont, statSync(soundfont).size],
    }),
  );
  h.update(midi);
  return h.digest('hex').slice(0, 16);
}

/**
 * The item's audio: mono samples at 22050 Hz, from the cache or rendered (and cached).
 * `cacheDir` is created when missing.
 */
export async function renderSoundfontItem(
  score: RenderableScore,
  setup: FluidSynthSetup,
  cacheDir: string,
): Promise<{ audio: Float32Array; cached: boolean; file: string }> {
  const midi = midiFileBytes(score.midi);
  const file = path.join(
    cacheDir,
    `${score.recipe.name}-${cacheKey(score, midi, setup.soundfont)}.wav`,
  );
  if (existsSync(file)) return { audio: await decodeAudio(file), cached: true, file };

  await mkdir(cacheDir, { recursive: true });
  const work = await mkdtemp(path.join(os.tmpdir(), 'riffscribe-sf-'));
  try {
    const mid = path.join(work, 'item.mid');
    const raw = path.join(work, 'raw.pcm');
    await writeFile(mid, midi);
    await tool(
      setup.fluidsynth,
      [
        '-n',
        '-i',
        '-q',
        '-R',
        '0',
        '-C',
        '0',
        '-g',
        '0.5',
        '-r',
        String(RATE),
        '-T',
        'raw',
        '-O',
        's16',
        '-E',
        'little',
        '-F',
        raw,
        setup.soundfont,
        mid,
      ],
      'Rendering with FluidSynth',
    );
    const peak = peakOf(await readFile(raw));
    if (peak === 0) throw new Error(`FluidSynth rendered silence for ${score.recipe.name}`);
    const ffmpeg = findFfmpeg();
    const effects = score.recipe.effects;
    const input = [
      '-nostdin',
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-protocol_whitelist',
      'file',
    ];
    let raw44 = ['-f', 's16le', '-ar', String(RATE), '-ac', '2', '-i', raw];
    let gain = LEVEL / peak;
    const amp = ampOf(score);
    if (amp) {
      // An electric guitar is heard through an amplifier: guitarix's LV2 models run by lv2file,
      // on mono 32-bit float (no clipping between the stages), then levelled again.
      let current = path.join(work, 'dry.wav');
      await tool(
        ffmpeg,
        [
          ...input,
          ...raw44,
          '-af',
          `pan=mono|c0=0.5*c0+0.5*c1,volume=${gain.toFixed(6)}`,
          '-c:a',
          'pcm_f32le',
          current,
        ],
        'Preparing the amplifier input',
      );
      for (const [k, stage] of amp.stages.entries()) {
        const out = path.join(work, `amp-${String(k)}.wav`);
        await tool(
          setup.lv2file,
          [
            '--ignore-clipping',
            '-i',
            current,
            '-o',
            out,
            ...Object.entries(stage.params).flatMap(([port, v]) => ['-p', `${port}:${String(v)}`]),
            stage.uri,
          ],
          `Running the ${amp.name} amplifier`,
        );
        current = out;
      }
      const amped = await decodeAudio(current);
      const ampPeak = amped.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
      if (ampPeak === 0)
        throw new Error(`the ${amp.name} amplifier gave silence for ${score.recipe.name}`);
      raw44 = ['-i', current];
      gain = LEVEL / ampPeak;
    }
    const graph = effectsGraph(effects, gain, score.truth.seconds, score.recipe.seed, amp);
    const graphArgs = [
      '-filter_complex',
      graph,
      '-map',
      '[out]',
      '-t',
      score.truth.seconds.toFixed(3),
    ];
    const wavOut = ['-ac', '1', '-ar', '22050', '-c:a', 'pcm_s16le', '-f', 'wav'];
    // Written beside the cache file and renamed into place last, so that an interrupted render
    // never leaves a partial WAV under the cached name.
    const tmpWav = `${file}.partial.wav`;
    if (effects.codec === 'none') {
      await tool(
        ffmpeg,
        [...input, ...raw44, ...graphArgs, ...wavOut, tmpWav],
        'Applying room and noise',
      );
    } else {
      // A phone-like lossy round trip: Opus at 24 kbit/s or AAC at 48 kbit/s, mono.
      const coded = path.join(work, effects.codec === 'opus' ? 'coded.ogg' : 'coded.m4a');
      const codec =
        effects.codec === 'opus'
          ? ['-c:a', 'libopus', '-b:a', '24k', '-ar', '48000', '-f', 'ogg']
          : ['-c:a', 'aac', '-b:a', '48k', '-ar', '44100', '-f', 'mp4'];
      await tool(
        ffmpeg,
        [...input, ...raw44, ...graphArgs, '-ac', '1', ...codec, coded],
        'Encoding',
      );
      await tool(
        ffmpeg,
        [
          ...input,
          '-f',
          effects.codec === 'opus' ? 'ogg' : 'mov,mp4,m4a,3gp,3g2,mj2',
          '-i',
          coded,
          ...wavOut,
          tmpWav,
        ],
        'Decoding',
      );
    }
    await rename(tmpWav, file);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  return { audio: await decodeAudio(file), cached: false, file };
}

/** One LV2 plugin of an amplifier, with its control ports' values. */
export interface AmpStage {
  uri: string;
  params: Record<string, number>;
}

/**
 * An amplifier for an electric guitar (issue 39: amp and cabinet chains from clean to high
 * gain): guitarix LV2 models run offline by lv2file (`stages`), then a speaker cabinet as ffmpeg
 * filters (`cabinet`): a high-pass, the cabinet's low thump, a scooped middle, presence, a few
 * narrow peaks and dips as a cabinet's and a microphone's response has (the partials of a note
 * under a vibrato or a bend move across them, which makes their levels swing as on a real rig)
 * and the speaker's roll-off. guitarix's own cabinet plugin crashes under lv2file, hence ffmpeg.
 */
export interface Amp {
  name: string;
  stages: AmpStage[];
  cabinet: string;
}

const GX = 'http://guitarix.sourceforge.net/plugins/';

/**
 * The amplifier an item's program plays through, drawn from its seed. The clean programs (26
 * jazz, 27 clean, 28 muted: a guitar's own sound) go through one of four, clean to high gain: a
 * clean tube amp, a studio preamp, a Tube Screamer into a JCM800 preamp (crunch), a metal amp.
 * The overdrive and distortion programs (29, 30) are samples of a driven amp already: only the
 * speaker cabinet is added (a second distortion on top is no rig anyone plays). Null for the
 * acoustic programs (24, 25).
 */
export function ampFor(program: number, seed: number): Amp | null {
  if (program < 26 || program > 30) return null;
  const random = seededRandom((seed * 7919 + program) >>> 0);
  const draw = (a: number, b: number) => Math.round((a + (b - a) * random()) * 1000) / 1000;
  const kind =
    program >= 29
      ? 'cabinet'
      : (['clean', 'studio', 'crunch', 'metal'] as const)[Math.floor(random() * 4)];
  let name = 'cabinet only';
  let stages: AmpStage[] = [];
  switch (kind) {
    case 'cabinet':
      break;
    case 'crunch':
      name = 'Tube Screamer and JCM800';
      stages = [
        {
          uri: `${GX}gxts9#ts9sim`,
          params: { fslider2_: draw(0.2, 0.6), fslider1_: draw(400, 750), fslider0_: -10 },
        },
        {
          uri: `${GX}gx_jcm800pre_#_jcm800pre_`,
          params: { P6v: draw(0.3, 0.6), Treble: draw(0.4, 0.7), GAIN: 0 },
        },
      ];
      break;
    case 'metal':
      name = 'metal';
      stages = [
        {
          uri: `${GX}gxmetal_amp#metal_amp`,
          params: { DRIVE: draw(3, 10), TONE: draw(0.4, 0.6), PREGAIN: 0, GAIN1: -6 },
        },
      ];
      break;
    case 'clean':
      name = 'clean tube';
      stages = [
        {
          uri: `${GX}gx_redeye#chump`,
          params: { Gain: draw(0.15, 0.4), Tone: draw(0.4, 0.7), Volume: 0.5 },
        },
      ];
      break;
    case 'studio':
      name = 'studio preamp';
      stages = [
        {
          uri: `${GX}gx_studiopre#studiopre`,
          params: {
            volume: draw(0.3, 0.5),
            bright: random() < 0.5 ? 0 : 1,
            bass: draw(0.4, 0.6),
            middle: draw(0.4, 0.6),
            treble: draw(0.4, 0.6),
            master: 0.5,
          },
        },
      ];
      break;
  }
  const peaks = Array.from(
    { length: 4 },
    () =>
      `equalizer=f=${String(Math.round(draw(600, 3200)))}:t=q:w=${String(draw(8, 16))}:g=${String(draw(-5, 5))}`,
  );
  const rolloff = Math.round(draw(3800, 5500));
  const cabinet = [
    'highpass=f=75',
    `equalizer=f=${String(Math.round(draw(90, 140)))}:t=q:w=2:g=${String(draw(2, 5))}`,
    `equalizer=f=${String(Math.round(draw(350, 550)))}:t=q:w=1.5:g=${String(draw(-6, -2))}`,
    `equalizer=f=${String(Math.round(draw(1800, 3000)))}:t=q:w=2:g=${String(draw(2, 5))}`,
    ...peaks,
    `lowpass=f=${String(rolloff)}`,
    `lowpass=f=${String(rolloff)}`,
  ].join(',');
  return { name, stages, cabinet };
}

/** The amplifier of a score, when its program is electric. */
function ampOf(score: RenderableScore): Amp | null {
  return score.recipe.program === undefined
    ? null
    : ampFor(score.recipe.program, score.recipe.seed);
}
