import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { decodeAudio, findFfmpeg } from '@riffscribe/engine';
import { runTool } from '@riffscribe/engine/media-tools';
import { onPath } from '@riffscribe/engine/stages';
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
const RENDER_VERSION = 1;
const SOUNDFONT = '/usr/share/sounds/sf2/FluidR3_GM.sf2';
const PACKAGES = ['fluidsynth', 'fluid-soundfont-gm'] as const;
const RATE = 44100;
/** Peak level of FluidSynth's output before the room and the noise. */
const LEVEL = 0.5;

export interface FluidSynthSetup {
  fluidsynth: string;
  soundfont: string;
}

function present(): FluidSynthSetup | null {
  const fluidsynth = onPath('fluidsynth');
  return fluidsynth !== undefined && existsSync(SOUNDFONT)
    ? { fluidsynth, soundfont: SOUNDFONT }
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
): string {
  const chain = [`pan=mono|c0=0.5*c0+0.5*c1`, `volume=${gain.toFixed(6)}`];
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
  recipe: { name: string; seed: number; effects: Effects };
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
    const graph = effectsGraph(effects, LEVEL / peak, score.truth.seconds, score.recipe.seed);
    const input = [
      '-nostdin',
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-protocol_whitelist',
      'file',
    ];
    const raw44 = ['-f', 's16le', '-ar', String(RATE), '-ac', '2', '-i', raw];
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
