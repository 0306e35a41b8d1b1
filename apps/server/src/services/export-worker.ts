import { parentPort } from 'node:worker_threads';
import { scoreOf } from '@riffscribe/core';
import { EXPORT_FORMAT_TABLE } from './export-formats.js';
import type { ExportTask, ExportTaskResult } from './export-pool.js';

/**
 * The export pool's worker thread (export-pool.ts): places the notes in bars (`scoreOf`) and
 * writes the file in the format asked for, off the API's event loop. Answers with the bytes,
 * transferred (not copied) back.
 */
const port = parentPort;
if (!port) throw new Error('export-worker.js runs as a worker thread of the export pool.');

port.on('message', (task: ExportTask) => {
  void (async () => {
    let answer: ExportTaskResult;
    const transfer: ArrayBuffer[] = [];
    try {
      const score = scoreOf(task.notes, task.grid);
      const out = await EXPORT_FORMAT_TABLE[task.format].exporter(score, task.notes, task.meta);
      // A fresh buffer of its own: transferring a view of a shared one would take it away.
      const bytes = typeof out === 'string' ? new TextEncoder().encode(out) : out.slice();
      transfer.push(bytes.buffer);
      answer = { id: task.id, ok: true, bytes };
    } catch (error) {
      answer = {
        id: task.id,
        ok: false,
        message: error instanceof Error ? error.message : String(error),
      };
    }
    port.postMessage(answer, transfer);
  })();
});
