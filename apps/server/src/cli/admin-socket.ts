import { chmodSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import path from 'node:path';
import type { Database } from '../db/database.js';
import { runAdminCommand, UsageError } from './admin-commands.js';

/**
 * The embedded database (PGlite) belongs to one process: the admin command cannot open it while
 * the server runs. So the server answers the command on a Unix socket in its data folder
 * (readable by the data folder's owner only, as the database files are): one JSON line in
 * (`{ argv }`), one out (`{ ok, output, usage }`).
 */
export const adminSocketPath = (dataDir: string) => path.join(dataDir, 'admin.sock');

interface Answer {
  ok: boolean;
  output: string;
  /** The command line was wrong (exit code 2). */
  usage?: boolean;
}

export async function startAdminSocket(dataDir: string, database: Database): Promise<Server> {
  const file = adminSocketPath(dataDir);
  // A socket file left by a server that died: nobody answers on it any more.
  rmSync(file, { force: true });
  const server = createServer((socket) => {
    let text = '';
    let answered = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      if (answered) return;
      text += chunk;
      const end = text.indexOf('\n');
      if (end === -1) {
        if (text.length > 64_000) socket.destroy();
        return;
      }
      answered = true;
      void answer(text.slice(0, end)).then((a) => socket.end(`${JSON.stringify(a)}\n`));
    });
    socket.on('error', () => undefined);
  });
  const answer = async (line: string): Promise<Answer> => {
    try {
      const request = JSON.parse(line) as { argv?: unknown };
      const argv = Array.isArray(request.argv) ? request.argv.map(String) : [];
      return { ok: true, output: await runAdminCommand(database, argv) };
    } catch (error) {
      return {
        ok: false,
        output: error instanceof Error ? error.message : String(error),
        usage: error instanceof UsageError,
      };
    }
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(file, 0o600);
  server.unref();
  return server;
}

/**
 * Sends a command to a running server's socket; null when no server answers there (none runs:
 * the command then opens the database itself).
 */
export function sendAdminCommand(dataDir: string, argv: readonly string[]): Promise<Answer | null> {
  return new Promise((resolve) => {
    const socket = createConnection(adminSocketPath(dataDir));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify({ argv })}\n`));
    socket.on('data', (chunk: string) => {
      text += chunk;
    });
    socket.on('end', () => {
      try {
        resolve(JSON.parse(text) as Answer);
      } catch {
        resolve({ ok: false, output: 'The running server gave no answer.' });
      }
    });
    socket.on('error', () => {
      resolve(null);
    });
  });
}
