import { parentPort } from 'node:worker_threads';
import {
  chordProblems,
  defaultGrid,
  editChordsBodySchema,
  MAX_NOTES_PER_LESSON,
  TOO_MANY_NOTES,
  editNotesBodySchema,
  noteProblems,
  scoreOf,
  type ChordEvent,
  type NoteEvent,
} from '@riffscribe/core';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { CONTROL_CHARACTERS, hasControlCharacters } from '../routes/control-characters.js';
import { validationSentenceOf, type ValidationIssue } from '../validation-sentence.js';
import { EXPORT_FORMAT_TABLE } from './export-formats.js';
import {
  WorkRefused,
  type EditsTask,
  type ExportTask,
  type WorkAnswer,
  type WorkTask,
} from './work-tasks.js';

/**
 * The worker pools' thread (worker-pool.ts): CPU work a request needs, off the API's event loop.
 * - export: places the notes in bars (`scoreOf`) and writes the file in the format asked for;
 * - edits: an edit-notes/edit-chords body, parsed and checked exactly as the route's schema, the
 *   control-character rule and the edit rules say, sorted and written as the JSON to store.
 * Answers with bytes, transferred (not copied) back; a refusal carries the sentence for the 400.
 */
const port = parentPort;
if (!port) throw new Error('worker-thread.js runs as a worker thread of a worker pool.');

/** A stored events file's array (none when there is no file or it holds no array). */
function eventsIn<T>(json: Uint8Array | null): T[] {
  if (!json) return [];
  const parsed: unknown = JSON.parse(new TextDecoder().decode(json));
  return Array.isArray(parsed) ? (parsed as T[]) : [];
}

const bodyValidators = {
  notes: validatorCompiler({
    schema: editNotesBodySchema,
    method: 'POST',
    url: '',
    httpPart: 'body',
  }),
  chords: validatorCompiler({
    schema: editChordsBodySchema,
    method: 'POST',
    url: '',
    httpPart: 'body',
  }),
};

async function exportFile(task: ExportTask): Promise<Uint8Array> {
  const notes = eventsIn<NoteEvent>(task.notes);
  if (notes.length > MAX_NOTES_PER_LESSON) throw new WorkRefused(TOO_MANY_NOTES, 413);
  const chords = eventsIn<ChordEvent>(task.chords);
  const grid =
    task.grid ??
    defaultGrid(task.gridSeconds ?? notes.reduce((end, n) => Math.max(end, n.end_time), 1));
  const score = scoreOf(notes, grid);
  const out = await EXPORT_FORMAT_TABLE[task.format].exporter(score, notes, {
    ...task.meta,
    chords,
  });
  // A fresh buffer of its own: transferring a view of a shared one would take it away.
  return typeof out === 'string' ? new TextEncoder().encode(out) : out.slice();
}

function edits(task: EditsTask): { bytes: Uint8Array; count: number } {
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(task.body));
  } catch {
    throw new WorkRefused('The request body is not valid JSON.');
  }
  if (hasControlCharacters(body)) throw new WorkRefused(CONTROL_CHARACTERS);
  const checked = bodyValidators[task.events](body) as
    { value: { events: (NoteEvent | ChordEvent)[] } } | { error: ValidationIssue[] };
  if ('error' in checked) throw new WorkRefused(validationSentenceOf(checked.error));
  const events = checked.value.events;
  // Every event against spec section 5; the first one refused says which and why.
  for (const [k, event] of events.entries()) {
    const problems =
      event.event_type === 'note'
        ? noteProblems(event, task.duration)
        : chordProblems(event, task.duration);
    if (problems.length > 0) {
      const what = event.event_type === 'note' ? 'Note' : 'Chord';
      throw new WorkRefused(
        `${what} ${String(k + 1)} (at ${event.time.toFixed(2)} s) cannot be saved: ${problems.join('; ')}.`,
      );
    }
  }
  const sorted = [...events].sort((a, b) => a.time - b.time || a.end_time - b.end_time);
  return { bytes: new TextEncoder().encode(JSON.stringify(sorted)), count: sorted.length };
}

port.on('message', (task: WorkTask & { id: number }) => {
  void (async () => {
    let answer: WorkAnswer;
    const transfer: ArrayBuffer[] = [];
    try {
      const done =
        task.kind === 'export' ? { bytes: await exportFile(task), count: 0 } : edits(task);
      transfer.push(done.bytes.buffer as ArrayBuffer);
      answer = { id: task.id, ok: true, ...done };
    } catch (error) {
      answer = {
        id: task.id,
        ok: false,
        refused: error instanceof WorkRefused ? error.status : null,
        message: error instanceof Error ? error.message : String(error),
      };
    }
    port.postMessage(answer, transfer);
  })();
});
