// Test helper: a real redis-server on a free loopback port, in its own temp folder, that a test can
// restart on the same port (with its data, via SHUTDOWN SAVE) and always stops.

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A running redis-server owned by one test file. */
export interface RedisProcess {
  port: number;
  url: string;
  /** Saves its data, stops, and starts again on the same port; resolves when it answers PING. */
  /** `onDown` runs once the server has exited, `onUp` just before it is launched again. */
  restart(options?: { downMs?: number; onDown?: () => void; onUp?: () => void }): Promise<void>;
  /** Stops the server (no save) and removes its folder. */
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (asked from the kernel, then released). */
export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts redis-server (`--save '' --appendonly no`) on a free port; resolves when it answers PING. */
export async function startRedis(): Promise<RedisProcess> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'hb-redis-'));
  let child: ChildProcess = launch(port, dir);
  await waitForPing(port, child);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async restart(options = {}) {
      await command(port, 'SHUTDOWN SAVE');
      await exited(child);
      options.onDown?.();
      if (options.downMs) await new Promise((r) => setTimeout(r, options.downMs));
      options.onUp?.();
      child = launch(port, dir);
      await waitForPing(port, child);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited(child);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function launch(port: number, dir: string): ChildProcess {
  return spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    { stdio: 'ignore' },
  );
}

async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => child.once('exit', () => resolve()));
}

async function waitForPing(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server on port ${port} exited (${child.exitCode})`);
    try {
      if ((await command(port, 'PING')).startsWith('+PONG')) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING in 10 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// One inline command over a raw socket, so the helper depends on nothing but redis-server itself.
async function command(port: number, text: string): Promise<string> {
  return await new Promise((resolve, reject) => {
    const sock = new Socket();
    let out = '';
    sock.setTimeout(2_000, () => sock.destroy(new Error('timeout')));
    sock.once('error', reject);
    sock.on('data', (d) => {
      out += d.toString();
      if (out.includes('\r\n')) sock.end();
    });
    sock.once('close', () => resolve(out));
    sock.connect(port, '127.0.0.1', () => sock.write(`${text}\r\n`));
  });
}
