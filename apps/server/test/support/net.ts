import { createServer, Socket } from 'node:net';

/**
 * Small network helpers shared by the tests, the test tiers in vitest.config.ts and the
 * pipeline bench. Node built-ins only, so that each of them can import this file.
 */

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

/** Whether something accepts TCP connections at host:port within a second. */
export function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => {
      done(false);
    });
    socket.once('error', () => {
      done(false);
    });
    socket.connect(port, host, () => {
      done(true);
    });
  });
}
