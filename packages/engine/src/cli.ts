#!/usr/bin/env node
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import {
  GUITAR_TYPES,
  STEM_TYPES,
  TUNING_PRESETS,
  uploadConfigSchema,
  type UploadConfig,
} from '@riffscribe/core';
import { fingerNotes } from './adapters/fingering-model.js';
import { EngineError } from './errors.js';
import { FingeringInputError, parseFingeringInput } from './tab/learned/input.js';
import { transcribe } from './pipeline.js';
import { renderAsciiTab } from './render/ascii-tab.js';

const USAGE = `Usage: riffscribe transcribe <video-or-audio> [options]
       riffscribe fingering <notes.json> <out.json>

fingering: string and fret for every note of a pitch list, by the learned fingering model under
the hand's rules. Reads {"tuning":[six MIDI pitches low to high],"capo":N,
"notes":[{"time":s,"end":s,"pitch":midi}]} (optional: "frets" highest usable fret, default 24;
"guitar" nylon|steel|electric; a note's "pin" keeps it on that string) and writes
{"notes":[...]}, the same notes in the same order with "string" (1 = highest), "fret" (relative
to the capo) and "confidence" (0-1); string and fret are null where no string reaches the pitch.

transcribe options:
  --capo N          capo fret, 0-12 (default 0)
  --tuning T        ${TUNING_PRESETS.map((t) => t.id).join('|')} or six MIDI pitches low to high,
                    e.g. 40,45,50,55,59,64 (default standard)
  --guitar G        ${GUITAR_TYPES.join('|')} (default acoustic)
  --style S         ${STEM_TYPES.join('|')} (default guitar)
  --out DIR         write results.json, notes.json and chords.json there (default: current folder)
  --max-seconds N   refuse media longer than N seconds
  -h, --help        show this help
`;

/** A mistake in the command line: printed with the usage, exit code 2. */
class UsageError extends Error {}

function parseTuning(value: string): number[] {
  const preset = TUNING_PRESETS.find((t) => t.id === value.toLowerCase());
  if (preset) return [...preset.pitches];
  const pitches = value.split(',').map((p) => Number(p.trim()));
  if (pitches.length !== 6 || pitches.some((p) => !Number.isInteger(p) || p < 0 || p > 127)) {
    throw new UsageError(
      `--tuning must be a preset name or six MIDI pitches low to high, not "${value}".`,
    );
  }
  return pitches;
}

function parseInteger(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n))
    throw new UsageError(`--${name} must be a whole number, not "${value}".`);
  return n;
}

/** Builds the upload config from the command line, with the spec's defaults and limits. */
export function configFromArgs(values: {
  capo?: string | undefined;
  tuning?: string | undefined;
  guitar?: string | undefined;
  style?: string | undefined;
}): UploadConfig {
  const parsed = uploadConfigSchema.safeParse({
    capo: parseInteger('capo', values.capo) ?? 0,
    tuning: values.tuning === undefined ? undefined : parseTuning(values.tuning),
    guitar_type: values.guitar ?? 'acoustic',
    stem_type: values.style ?? 'guitar',
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') ?? 'option';
    throw new UsageError(`Invalid ${where}: ${issue?.message ?? 'not valid'}.`);
  }
  return parsed.data;
}

/** `riffscribe fingering IN OUT`: a JSON note list in, the same notes with string and fret out. */
async function fingering(input: string | undefined, rest: string[]): Promise<number> {
  const [output, ...extra] = rest;
  if (input === undefined || output === undefined || extra.length > 0) {
    throw new UsageError('Expected: fingering <notes.json> <out.json>.');
  }
  let parsed;
  try {
    parsed = parseFingeringInput(JSON.parse(await readFile(input, 'utf8')));
  } catch (error) {
    if (error instanceof FingeringInputError || error instanceof SyntaxError) {
      throw new UsageError(`${input}: ${error.message}`);
    }
    throw error;
  }
  const started = performance.now();
  const placed = await fingerNotes(parsed.notes, parsed.setup, parsed.guitar, parsed.pinned);
  const notes = parsed.notes.map((note, i) => {
    const p = placed[i];
    return {
      ...note,
      string: p?.string ?? null,
      fret: p?.fret ?? null,
      confidence: Math.round((p?.confidence ?? 0) * 1000) / 1000,
    };
  });
  await writeFile(output, JSON.stringify({ notes }));
  const ms = (performance.now() - started).toFixed(0);
  process.stderr.write(`Fingered ${notes.length} notes in ${ms} ms; wrote ${output}\n`);
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      capo: { type: 'string' },
      tuning: { type: 'string' },
      guitar: { type: 'string' },
      style: { type: 'string' },
      out: { type: 'string' },
      'max-seconds': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const [command, file, ...rest] = positionals;
  if (command === 'fingering') return fingering(file, rest);
  if (command !== 'transcribe' || file === undefined || rest.length > 0) {
    throw new UsageError(
      command === undefined
        ? 'Say what to do: transcribe <file> or fingering <in> <out>.'
        : 'Expected: transcribe <file> or fingering <in> <out>.',
    );
  }
  const config = configFromArgs(values);
  const maxSeconds = parseInteger('max-seconds', values['max-seconds']);
  const outDir = path.resolve(values.out ?? '.');

  const controller = new AbortController();
  process.once('SIGINT', () => {
    controller.abort();
  });
  let lastLine = '';
  const started = performance.now();
  const result = await transcribe(
    file,
    config,
    (p) => {
      const line = `${String(p.percent).padStart(3)}%  ${p.message}`;
      if (line !== lastLine) process.stderr.write(`${line}\n`);
      lastLine = line;
    },
    {
      signal: controller.signal,
      ...(maxSeconds === undefined ? {} : { maxDurationSeconds: maxSeconds }),
    },
  );
  await mkdir(outDir, { recursive: true });
  await Promise.all([
    writeFile(path.join(outDir, 'results.json'), JSON.stringify(result.results, null, 2)),
    writeFile(path.join(outDir, 'notes.json'), JSON.stringify(result.notes)),
    writeFile(path.join(outDir, 'chords.json'), JSON.stringify(result.chords)),
  ]);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  process.stderr.write(
    `100%  Done in ${seconds} s: ${result.notes.length} notes, ${result.chords.length} chords` +
      `${result.results.musical_key ? `, key ${result.results.musical_key}` : ''}. ` +
      `Wrote results.json, notes.json, chords.json to ${outDir}\n`,
  );
  if (result.results.message) process.stderr.write(`${result.results.message}\n`);
  process.stdout.write(
    renderAsciiTab(result.notes, result.chords, { tuning: config.tuning, capo: config.capo }),
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (
      error instanceof UsageError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      process.stderr.write(`riffscribe: ${(error as Error).message}\n\n${USAGE}`);
      process.exitCode = 2;
    } else if (error instanceof EngineError) {
      process.stderr.write(`riffscribe: ${error.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`riffscribe: unexpected failure: ${String(error)}\n`);
      process.exitCode = 1;
    }
  },
);
