import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { GuitarType } from '@riffscribe/core';
import { FIXTURE_DATASETS } from '@riffscribe/engine';
import { parseChordLabel, pitchClassOf, type ChordSpan, type PlacedNote } from './metrics.js';

/**
 * The real annotated recordings under a datasets folder (packages/engine/fixtures/datasets; its
 * README.md describes the layout and the licences): per item a `.tab.json` with the true notes
 * (string 1 = high e, standard tuning, no capo), the audio beside it and a JAMS file with chords
 * and, where present, the key.
 */

/**
 * Where the datasets are: RIFFSCRIBE_DATASETS as given when it is set (resolved against the
 * working directory; it is not checked, so a wrong setting shows up as missing data rather than
 * being passed over; it points `npm run eval` at a larger collection), else the recordings kept
 * in the repository.
 */
export function findDatasetsRoot(repoRoot: string): string {
  const fromEnv = process.env.RIFFSCRIBE_DATASETS;
  if (fromEnv) return path.resolve(fromEnv);
  return path.resolve(repoRoot, FIXTURE_DATASETS);
}

/** One real recording with its ground truth files. */
export interface DatasetItem {
  /** "folder/stem", e.g. "guitarset/00_BN1-129-Eb_comp". */
  name: string;
  audio: string;
  tab: string;
  jams: string | null;
  guitar: GuitarType;
}

/** Guitar type per dataset folder (from its README); others are taken as acoustic. */
const GUITAR_OF_FOLDER: Record<string, GuitarType> = {
  guitarset: 'acoustic',
  egset12: 'electric',
};

/** Audio file names tried beside `<stem>.tab.json`, in order. */
const AUDIO_SUFFIXES = ['.wav', '_mic.wav', '.flac', '.mp3', '.ogg'];

/** Every item with a `.tab.json` and an audio file, in each sub-folder of `root`, sorted. */
export async function discoverDatasets(root: string): Promise<DatasetItem[]> {
  if (!existsSync(root)) return [];
  const out: DatasetItem[] = [];
  const folders = (await readdir(root, { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  for (const folder of folders) {
    const dir = path.join(root, folder);
    const files = (await readdir(dir)).sort();
    for (const file of files) {
      if (!file.endsWith('.tab.json')) continue;
      const stem = file.slice(0, -'.tab.json'.length);
      const audio = AUDIO_SUFFIXES.map((s) => path.join(dir, stem + s)).find((f) => existsSync(f));
      if (!audio) continue;
      const jams = path.join(dir, `${stem}.jams`);
      out.push({
        name: `${folder}/${stem}`,
        audio,
        tab: path.join(dir, file),
        jams: existsSync(jams) ? jams : null,
        guitar: GUITAR_OF_FOLDER[folder] ?? 'acoustic',
      });
    }
  }
  return out;
}

interface TabJsonNote {
  time: number;
  end_time: number;
  string: number;
  fret: number;
  midi: number;
}

/** The true notes of a `.tab.json`. */
export async function readTabJson(file: string): Promise<PlacedNote[]> {
  const raw = JSON.parse(await readFile(file, 'utf8')) as TabJsonNote[];
  return raw.map((n) => ({
    time: n.time,
    endTime: n.end_time,
    pitch: Math.round(n.midi),
    string: n.string,
    fret: n.fret,
  }));
}

interface JamsAnnotation {
  namespace: string;
  annotation_metadata?: { data_source?: string; annotation_rules?: string };
  data: { time: number; duration: number; value: unknown }[];
}

/** What a JAMS file says about chords and the key. */
export interface JamsTruth {
  /** Chords as performed (GuitarSet: the transcribed chord annotation), or null. */
  performedChords: ChordSpan[] | null;
  /** Chords as instructed (GuitarSet: the lead sheet), or null. */
  leadSheetChords: ChordSpan[] | null;
  /** "Eb major", or null when neither the file nor its name gives a key. */
  key: string | null;
  /** Beat times in seconds from a `beat_position` annotation, or null. */
  beats: number[] | null;
  /** The beats whose `position` is 1 (bar starts), seconds, or null without beats. */
  downbeats: number[] | null;
  /** Quarter notes a minute from a `tempo` annotation, or null. */
  tempo: number | null;
}

const spans = (a: JamsAnnotation): ChordSpan[] =>
  a.data.map((d) => ({ time: d.time, end_time: d.time + d.duration, chord: String(d.value) }));

/**
 * Chords and key from a JAMS file. Of several `chord` annotations, the one whose metadata calls
 * it a transcription is the performed one and the first other one the lead sheet. The key comes
 * from a `key_mode` annotation, or else from a GuitarSet name ("00_BN1-129-Eb_comp": tonic Eb),
 * with the mode of the lead sheet's chord on that tonic (minor if it is minor, else major).
 */
export async function readJams(file: string, stem: string): Promise<JamsTruth> {
  const jams = JSON.parse(await readFile(file, 'utf8')) as { annotations?: JamsAnnotation[] };
  const annotations = jams.annotations ?? [];
  const chordAnnotations = annotations.filter((a) => a.namespace === 'chord');
  const described = (a: JamsAnnotation) =>
    /transcri|perform/i.test(
      `${a.annotation_metadata?.data_source ?? ''} ${a.annotation_metadata?.annotation_rules ?? ''}`,
    );
  const performed = chordAnnotations.find(described) ?? chordAnnotations.at(-1);
  const leadSheet = chordAnnotations.find((a) => a !== performed) ?? performed;

  let key: string | null = null;
  const keyMode = annotations.find((a) => a.namespace === 'key_mode')?.data[0]?.value;
  if (typeof keyMode === 'string') {
    const [tonic = '', mode = 'major'] = keyMode.split(':');
    if (pitchClassOf(tonic) !== null) key = `${tonic} ${mode === 'minor' ? 'minor' : 'major'}`;
  }
  const named = /^\d+_[A-Za-z]+\d*-\d+-([A-G][#b]?)_/.exec(stem)?.[1];
  if (key === null && named !== undefined) {
    const tonic = pitchClassOf(named);
    const onTonic = (leadSheet ? spans(leadSheet) : [])
      .map((c) => parseChordLabel(c.chord))
      .filter((c) => c !== null && c.root === tonic);
    const minor =
      onTonic.length > 0 && onTonic.every((c) => c?.quality === 'm' || c?.quality === 'm7');
    key = `${named} ${minor ? 'minor' : 'major'}`;
  }
  const beatData = annotations.find((a) => a.namespace === 'beat_position')?.data ?? [];
  const beats = beatData.map((d) => d.time);
  const downbeats = beatData
    .filter((d) => (d.value as { position?: unknown } | null)?.position === 1)
    .map((d) => d.time);
  const tempoValue = annotations.find((a) => a.namespace === 'tempo')?.data[0]?.value;
  return {
    beats: beats.length >= 2 ? beats : null,
    downbeats: beats.length >= 2 ? downbeats : null,
    tempo: typeof tempoValue === 'number' && tempoValue > 0 ? tempoValue : null,
    performedChords: performed ? spans(performed) : null,
    leadSheetChords: leadSheet ? spans(leadSheet) : null,
    key,
  };
}
