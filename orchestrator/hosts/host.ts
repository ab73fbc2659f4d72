// The Host abstraction: one machine the orchestrator runs commands on, this one (LocalHost) or over SSH (SshHost).

/** What a finished command returned; a non-zero exit is data, not an exception. */
export interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** Options of Host.exec. */
export interface ExecOptions {
  /** Kill the command after this many milliseconds (it then rejects with HB_HOST_TIMEOUT). */
  timeoutMs?: number;
  /** Written to the command's stdin (how secrets reach a remote process without a command line). */
  input?: string;
}

/** Options of Host.start. */
export interface StartOptions {
  /** Process name: the log is `<workDir>/<name>.log`; a safe file-name charset is required. */
  name: string;
  /** Extra environment variables for the process (names `[A-Za-z_][A-Za-z0-9_]*`). */
  env?: Record<string, string>;
}

/** Options of Host.stop. */
export interface StopOptions {
  /** How long to wait after SIGTERM before SIGKILL (default 5000 ms). */
  timeoutMs?: number;
}

/** One machine: commands run as argv arrays (never a caller-built shell string), files live in workDir. */
export interface Host {
  /** Role-ish label used in messages, e.g. "target" or "loadgen". */
  readonly name: string;
  /** The address other hosts reach this one on (e.g. 127.0.0.1 or 198.18.0.2). */
  readonly address: string;
  /** Absolute working directory on that machine; every file this Host writes goes here. */
  readonly workDir: string;
  /** Runs argv to completion; resolves with its output and exit code (a non-zero exit does not reject). */
  exec(argv: string[], opts?: ExecOptions): Promise<ExecResult>;
  /** Starts a long-running process detached (survives the ssh session), stdout+stderr to `<workDir>/<name>.log`; returns its pid. */
  start(argv: string[], opts: StartOptions): Promise<{ pid: number }>;
  /** SIGTERM, wait up to timeoutMs (default 5000), then SIGKILL; no error if already gone. */
  stop(pid: number, opts?: StopOptions): Promise<void>;
  /** True while the process exists (and is not a zombie). */
  isAlive(pid: number): Promise<boolean>;
  /** Writes a file in workDir (mode e.g. 0o600 for secrets, never passed on a command line); returns its path. */
  writeFile(name: string, content: string, mode?: number): Promise<string>;
  /** Reads a file from workDir as UTF-8. */
  readFile(name: string): Promise<string>;
  /** Copies a local file into workDir (skips when unchanged); returns the remote path. */
  upload(localPath: string, name: string): Promise<string>;
  /** Releases connections (ends the SSH master); the Host is unusable afterwards. Idempotent. */
  close(): Promise<void>;
}

/** Redis reached by URL (an existing server) rather than started on a Host. */
export interface RedisUrl {
  url: string;
}

/** TLS files of the run's Redis (paths on this machine): the CA clients verify it with; cert and key when the orchestrator starts it. */
export interface RedisTlsFiles {
  ca: string;
  cert?: string;
  key?: string;
}

/** The roles of a run, as openHosts returns them. */
export interface RunHosts {
  /** The target host of replica 0 (`targets[0]`). */
  target: Host;
  /** One target host per replica the run deploys (R ≥ 1), replica r = `targets[r]`. */
  targets: Host[];
  /** The first load-generator host (`loadgens[0]`). */
  loadgen: Host;
  /** Every load-generator host: client i of a point with `clients` runs on `loadgens[i mod length]`. */
  loadgens: Host[];
  /** A URL to use as is, or a Host on which the orchestrator starts redis-server. */
  redis: RedisUrl | Host;
  /** Target port from the hosts file (default when absent: chosen by the orchestrator). */
  targetPort?: number;
  /** Each target's port from the hosts file, in `targets` order (absent locally). */
  targetPorts?: number[];
  /** Redis port from the hosts file when redis is a Host. */
  redisPort?: number;
  /** Redis over TLS (rediss://) with a CA of the hosts file's; absent = plain, or a CA the system trusts. */
  redisTls?: RedisTlsFiles;
  /** 'local' (no hosts file) or 'ssh'. */
  readonly mode: 'local' | 'ssh';
  /** A description for the manifest: destinations, addresses, workDirs — no secrets (no passwords in URLs). */
  describe(): object;
  /** Closes every Host (idempotent). */
  close(): Promise<void>;
}

/** The name of replica r's target host: `target` for replica 0 (as with one target), `target-<r>` after. */
export function targetHostName(replica: number): string {
  return replica === 0 ? 'target' : `target-${replica}`;
}

/** The name of load-generator host g: `loadgen` for the first (as with one), `loadgen-<g>` after. */
export function loadgenHostName(g: number): string {
  return g === 0 ? 'loadgen' : `loadgen-${g}`;
}

/** True when redis is a URL rather than a Host. */
export function isRedisUrl(r: RedisUrl | Host): r is RedisUrl {
  return typeof (r as RedisUrl).url === 'string' && typeof (r as Host).exec !== 'function';
}
