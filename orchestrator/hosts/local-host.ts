// LocalHost: the Host that is this machine (the embedded default): execa for commands, a detached child for agents.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, stat } from 'node:fs/promises';
import { constants } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { execa } from 'execa';
import { copyFileAtomic, writeFileAtomicSync } from '../../runtime/index.ts';
import { HostCommandError, HostTimeoutError } from './errors.ts';
import type { ExecOptions, ExecResult, Host, StartOptions, StopOptions } from './host.ts';
import { checkArgv, checkEnvName, checkFileName, checkPid } from './names.ts';

/** Options of createLocalHost. */
interface LocalHostOptions {
  name: string;
  /** Absolute or relative (to cwd) working directory; created on first use. */
  workDir: string;
  /** Address others reach this host on (default 127.0.0.1). */
  address?: string;
}

/** True when /proc says the process exists and is not a zombie (orphans here may never be reaped). */
export async function isLocalPidAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const s = await readFile(`/proc/${pid}/stat`, 'utf8');
    const state = s.slice(s.lastIndexOf(')') + 2, s.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return process.platform !== 'linux';
  }
}

/** Sends a signal to the process group the pid leads (start() makes one), or to the pid alone otherwise. */
function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
    return;
  } catch {}
  try {
    process.kill(pid, sig);
  } catch {}
}

/** SHA-256 of a local file, streamed. */
export async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

class LocalHost implements Host {
  readonly name: string;
  readonly address: string;
  readonly workDir: string;
  #ready: Promise<void> | undefined;

  constructor(o: LocalHostOptions) {
    this.name = o.name;
    this.address = o.address ?? '127.0.0.1';
    this.workDir = resolve(o.workDir);
  }

  #ensureDir(): Promise<void> {
    this.#ready ??= mkdir(this.workDir, { recursive: true }).then(() => undefined);
    return this.#ready;
  }

  async exec(argv: string[], opts: ExecOptions = {}): Promise<ExecResult> {
    checkArgv(this.name, argv);
    await this.#ensureDir();
    const r = await execa(argv[0], argv.slice(1), {
      cwd: this.workDir,
      reject: false,
      timeout: opts.timeoutMs,
      input: opts.input,
      stdin: opts.input === undefined ? 'ignore' : undefined,
      stripFinalNewline: false,
    });
    if (r.timedOut) {
      throw new HostTimeoutError(
        `host ${this.name}: ${argv[0]} ran longer than ${opts.timeoutMs} ms and was killed; raise timeoutMs or check the command`,
      );
    }
    // Like a shell: 127 when the program is missing, 128+n when signal n killed it.
    const sig = r.signal ? (constants.signals[r.signal] ?? 9) : 9;
    const exitCode = r.exitCode ?? (r.code === 'ENOENT' ? 127 : 128 + sig);
    return { stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? ''), exitCode };
  }

  async start(argv: string[], opts: StartOptions): Promise<{ pid: number }> {
    checkArgv(this.name, argv);
    checkFileName(this.name, opts.name);
    for (const k of Object.keys(opts.env ?? {})) checkEnvName(this.name, k);
    await this.#ensureDir();
    const log = await open(join(this.workDir, `${opts.name}.log`), 'a');
    try {
      // detached: its own session and process group, so it outlives us and stop() can signal the group.
      const child = spawn(argv[0], argv.slice(1), {
        cwd: this.workDir,
        detached: true,
        stdio: ['ignore', log.fd, log.fd],
        env: { ...process.env, ...opts.env },
      });
      const pid = await new Promise<number>((ok, fail) => {
        child.once('error', (err) =>
          fail(
            new HostCommandError(
              `host ${this.name}: could not start ${opts.name} (${argv[0]}): ${err.message}; check that the program exists on this machine`,
              { cause: err },
            ),
          ),
        );
        child.once('spawn', () => ok(child.pid!));
      });
      child.unref();
      return { pid };
    } finally {
      await log.close();
    }
  }

  async stop(pid: number, opts: StopOptions = {}): Promise<void> {
    checkPid(this.name, pid);
    if (!(await isLocalPidAlive(pid))) return;
    signal(pid, 'SIGTERM');
    const deadline = Date.now() + (opts.timeoutMs ?? 5000);
    while (Date.now() < deadline) {
      if (!(await isLocalPidAlive(pid))) return;
      await sleep(25);
    }
    signal(pid, 'SIGKILL');
    for (let i = 0; i < 40 && (await isLocalPidAlive(pid)); i++) await sleep(25);
  }

  isAlive(pid: number): Promise<boolean> {
    checkPid(this.name, pid);
    return isLocalPidAlive(pid);
  }

  async writeFile(name: string, content: string, mode = 0o644): Promise<string> {
    const path = join(this.workDir, checkFileName(this.name, name));
    await this.#ensureDir();
    await mkdir(dirname(path), { recursive: true });
    // Written under a temp name with its final mode from the start, so a secret is never briefly world-readable.
    writeFileAtomicSync(path, content, mode);
    return path;
  }

  async readFile(name: string): Promise<string> {
    return readFile(join(this.workDir, checkFileName(this.name, name)), 'utf8');
  }

  async upload(localPath: string, name: string): Promise<string> {
    const path = join(this.workDir, checkFileName(this.name, name));
    const src = resolve(localPath);
    if (src === path) return path;
    await this.#ensureDir();
    const srcStat = await stat(src);
    const existing = await stat(path).catch(() => undefined);
    if (existing && existing.size === srcStat.size && (await sha256File(src)) === (await sha256File(path))) {
      return path;
    }
    await mkdir(dirname(path), { recursive: true });
    await copyFileAtomic(src, path, srcStat.mode & 0o777);
    return path;
  }

  async close(): Promise<void> {}
}

/** Creates the Host for this machine. */
export function createLocalHost(options: LocalHostOptions): Host {
  return new LocalHost(options);
}
