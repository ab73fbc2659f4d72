// SshHost: a Host reached with the system ssh (BatchMode, connect timeout, one multiplexed master per host).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix, resolve } from 'node:path';
import { execa } from 'execa';
import {
  HostArgumentError,
  HostCommandError,
  HostTimeoutError,
  SshAuthError,
  SshUnreachableError,
} from './errors.ts';
import type { ExecOptions, ExecResult, Host, StartOptions, StopOptions } from './host.ts';
import { sha256File } from './local-host.ts';
import { checkArgv, checkEnvName, checkFileName, checkPid } from './names.ts';
import { shellQuote as q, shellJoin } from './shell-quote.ts';
import { parseDestination } from './ssh-destination.ts';
import { isAliveScript, startScript, stopScript, writeFileScript } from './ssh-scripts.ts';

/** Options of createSshHost. */
interface SshHostOptions {
  name: string;
  /** ssh destination, `user@host` (validated: no shell metacharacters, no leading '-'). */
  destination: string;
  address: string;
  /** Absolute path on the remote machine (validated by the hosts-file schema). */
  workDir: string;
  /** `-F` file for ssh (identity, known_hosts, ports). */
  sshConfig?: string;
  connectTimeoutSeconds?: number;
  /** How long the master outlives its last use (default 900 s: longer than a long point); close() ends it. */
  controlPersistSeconds?: number;
}

// ssh's own diagnostics (matched at line starts, and only on exit 255, so a remote program's output is not mistaken).
const UNREACHABLE =
  /^(ssh: connect to host|ssh: Could not resolve hostname|kex_exchange_identification|Connection closed by|Connection reset by|Connection timed out during banner exchange|Connection to \S+ closed by remote host)/m;
const AUTH =
  /^(\S+: Permission denied|Host key verification failed|No \S+ host key is known|Received disconnect.*Too many authentication failures)/m;

class SshHost implements Host {
  readonly name: string;
  readonly address: string;
  readonly workDir: string;
  readonly destination: string;
  readonly #timeoutS: number;
  readonly #sshConfig: string | undefined;
  readonly #persist: number;
  #controlDir: Promise<string> | undefined;
  #closed = false;

  constructor(o: SshHostOptions) {
    if (!parseDestination(o.destination)) {
      throw new HostArgumentError(
        `host ${o.name}: ssh destination ${JSON.stringify(o.destination)} is not safe; write user@host with no spaces or shell metacharacters`,
      );
    }
    this.name = o.name;
    this.destination = o.destination;
    this.address = o.address;
    this.workDir = o.workDir;
    this.#timeoutS = o.connectTimeoutSeconds ?? 5;
    this.#sshConfig = o.sshConfig ? resolve(o.sshConfig) : undefined;
    this.#persist = o.controlPersistSeconds ?? 900;
  }

  /** The control socket's folder: short (sockets have a ~104-byte path limit) and private (0700). */
  #dir(): Promise<string> {
    // `<dir>/%C` expands to 40 hex characters; fall back to /tmp when TMPDIR is too long for a socket path.
    const base = tmpdir().length <= 50 ? tmpdir() : '/tmp';
    this.#controlDir ??= mkdtemp(join(base, 'hb-ssh-'));
    return this.#controlDir;
  }

  /** The ssh options every call shares; the ControlPath makes each call reuse one authenticated connection. */
  async sshArgs(): Promise<string[]> {
    if (this.#closed) throw new HostCommandError(`host ${this.name}: used after close()`);
    const dir = await this.#dir();
    return [
      ...(this.#sshConfig ? ['-F', this.#sshConfig] : []),
      '-o',
      'BatchMode=yes',
      '-o',
      `ConnectTimeout=${this.#timeoutS}`,
      '-o',
      'ControlMaster=auto',
      '-o',
      `ControlPath=${dir}/%C`,
      '-o',
      `ControlPersist=${this.#persist}`,
      '-o',
      'ServerAliveInterval=5',
      '-o',
      'ServerAliveCountMax=3',
      '-T',
    ];
  }

  /** Runs one remote shell command line (already quoted); classifies ssh's own failures (exit 255). */
  async #ssh(remote: string, opts: ExecOptions & { what: string }): Promise<ExecResult> {
    const args = [...(await this.sshArgs()), '--', this.destination, remote];
    // The connect timeout bounds the handshake; the overall timeout (if any) bounds the command.
    const r = await execa('ssh', args, {
      reject: false,
      timeout: opts.timeoutMs,
      input: opts.input,
      stdin: opts.input === undefined ? 'ignore' : undefined,
      stripFinalNewline: false,
    });
    if (r.timedOut) {
      throw new HostTimeoutError(
        `host ${this.name} (${this.destination}): ${opts.what} ran longer than ${opts.timeoutMs} ms and was killed; raise the timeout or check the host`,
      );
    }
    const stdout = String(r.stdout ?? '');
    const stderr = String(r.stderr ?? '');
    if (r.exitCode === undefined && r.code === 'ENOENT') {
      throw new HostCommandError(
        `host ${this.name}: the ssh client is not installed here; install openssh-client (Debian: apt-get install openssh-client)`,
        { cause: r },
      );
    }
    const exitCode = r.exitCode ?? 255;
    if (exitCode === 255) this.#classify(stderr, r);
    return { stdout, stderr, exitCode };
  }

  #classify(stderr: string, cause: unknown): void {
    const detail = stderr.trim().split('\n').slice(-2).join(' / ').replace(/\.$/, '');
    if (AUTH.test(stderr)) {
      throw new SshAuthError(
        `host ${this.name} (${this.destination}): ssh could not log in: ${detail}. Fix: authorise this machine's key for that user (or set IdentityFile in sshConfig), and trust the host key in known_hosts; BatchMode never prompts for a password`,
        { cause },
      );
    }
    if (UNREACHABLE.test(stderr)) {
      throw new SshUnreachableError(
        `host ${this.name} (${this.destination}): unreachable within ${this.#timeoutS} s: ${detail}. Fix: check the address in the hosts file, that sshd runs there and that this machine can route to it (for the lab: scripts/lab.sh up)`,
        { cause },
      );
    }
  }

  /** Prefix that makes the working directory exist and current. */
  #inWorkDir(): string {
    return `mkdir -p -- ${q(this.workDir)} && cd -- ${q(this.workDir)} && `;
  }

  async exec(argv: string[], opts: ExecOptions = {}): Promise<ExecResult> {
    checkArgv(this.name, argv);
    return this.#ssh(`${this.#inWorkDir()}exec ${shellJoin(argv)}`, { ...opts, what: argv[0] });
  }

  /** Runs a POSIX sh script sent on stdin, so no argument of it appears on any command line. */
  async #script(script: string, what: string, timeoutMs?: number): Promise<ExecResult> {
    return this.#ssh(`${this.#inWorkDir()}exec sh -s`, { input: script, timeoutMs, what });
  }

  async start(argv: string[], opts: StartOptions): Promise<{ pid: number }> {
    checkArgv(this.name, argv);
    checkFileName(this.name, opts.name);
    const env = Object.entries(opts.env ?? {});
    for (const [k] of env) checkEnvName(this.name, k);
    const r = await this.#script(startScript(argv, `${opts.name}.log`, env), `start ${opts.name}`, 30_000);
    const pid = Number(r.stdout.trim());
    if (r.exitCode !== 0 || !Number.isSafeInteger(pid) || pid <= 1) {
      throw new HostCommandError(
        `host ${this.name}: could not start ${opts.name} (${argv[0]}): exit ${r.exitCode}, ${r.stderr.trim() || r.stdout.trim()}; check that the program exists on that host and see ${posix.join(this.workDir, `${opts.name}.log`)}`,
      );
    }
    return { pid };
  }

  async stop(pid: number, opts: StopOptions = {}): Promise<void> {
    checkPid(this.name, pid);
    const ms = opts.timeoutMs ?? 5000;
    const r = await this.#script(stopScript(pid, ms), `stop ${pid}`, ms + 30_000);
    if (r.exitCode !== 0) {
      throw new HostCommandError(`host ${this.name}: could not stop pid ${pid}: ${r.stderr.trim()}`);
    }
  }

  async isAlive(pid: number): Promise<boolean> {
    checkPid(this.name, pid);
    const r = await this.#script(isAliveScript(pid), `isAlive ${pid}`, 30_000);
    if (r.exitCode > 1)
      throw new HostCommandError(`host ${this.name}: could not check pid ${pid}: ${r.stderr.trim()}`);
    return r.exitCode === 0;
  }

  async writeFile(name: string, content: string, mode = 0o644): Promise<string> {
    const path = posix.join(this.workDir, checkFileName(this.name, name));
    // Content travels on stdin behind the script (`sh -s` reads the script, `cat` the rest), never on argv.
    const r = await this.#ssh(`${this.#inWorkDir()}${writeFileScript(path, mode)}`, {
      input: content,
      what: `writeFile ${name}`,
      timeoutMs: 60_000,
    });
    if (r.exitCode !== 0)
      throw new HostCommandError(`host ${this.name}: could not write ${path}: ${r.stderr.trim()}`);
    return path;
  }

  async readFile(name: string): Promise<string> {
    const path = posix.join(this.workDir, checkFileName(this.name, name));
    const r = await this.#ssh(`cat -- ${q(path)}`, { what: `readFile ${name}`, timeoutMs: 60_000 });
    if (r.exitCode !== 0)
      throw new HostCommandError(`host ${this.name}: could not read ${path}: ${r.stderr.trim()}`);
    return r.stdout;
  }

  async upload(localPath: string, name: string): Promise<string> {
    const path = posix.join(this.workDir, checkFileName(this.name, name));
    const hash = await sha256File(localPath);
    const have = await this.#ssh(`sha256sum -- ${q(path)} 2>/dev/null`, {
      what: 'sha256sum',
      timeoutMs: 60_000,
    });
    if (have.exitCode === 0 && have.stdout.split(' ')[0] === hash) return path;
    // Streamed over the multiplexed connection (no new handshake), checked, then renamed into place.
    const tmp = `${path}.upload-${process.pid}`;
    const remote = `${this.#inWorkDir()}mkdir -p -- ${q(posix.dirname(path))} && cat > ${q(tmp)} && [ "$(sha256sum < ${q(tmp)} | cut -d' ' -f1)" = ${hash} ] && mv -f -- ${q(tmp)} ${q(path)} || { rm -f -- ${q(tmp)}; exit 1; }`;
    const args = [...(await this.sshArgs()), '--', this.destination, remote];
    const r = await execa('ssh', args, { reject: false, inputFile: localPath, timeout: 300_000 });
    if (r.exitCode === 255) this.#classify(String(r.stderr), r);
    if (r.exitCode !== 0) {
      throw new HostCommandError(
        `host ${this.name}: upload of ${localPath} to ${path} failed (exit ${r.exitCode}): ${String(r.stderr).trim()}; check free space and permissions in workDir`,
      );
    }
    return path;
  }

  /** True while a master connection is up (`ssh -O check`): proof that calls are multiplexed. */
  async masterRunning(): Promise<boolean> {
    if (this.#closed || !this.#controlDir) return false;
    const r = await execa('ssh', [...(await this.sshArgs()), '-O', 'check', '--', this.destination], {
      reject: false,
      stdin: 'ignore',
      timeout: 10_000,
    });
    return r.exitCode === 0;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    const dirP = this.#controlDir;
    if (dirP) {
      await execa('ssh', [...(await this.sshArgs()), '-O', 'exit', '--', this.destination], {
        reject: false,
        stdin: 'ignore',
        timeout: 10_000,
      });
    }
    this.#closed = true;
    if (dirP) await rm(await dirP, { recursive: true, force: true });
  }
}

/** Creates a Host reached over ssh; nothing connects until the first call. */
export function createSshHost(options: SshHostOptions): SshHost {
  return new SshHost(options);
}

/** The concrete SSH host type (adds masterRunning() to Host, for tests and diagnostics). */
export type { SshHost };
