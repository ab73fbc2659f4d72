// The run folder (results/<run>/): its files, durable writes, the free-space check and the event log.

import {
  accessSync,
  appendFileSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  writeFileSync,
} from 'node:fs';
import { basename, join, resolve } from 'node:path';
import {
  formatManifest,
  formatPointsCsv,
  type Manifest,
  type ManifestData,
  type PointRow,
  parseManifest,
  parsePointsCsv,
  RAW_DIR,
  RUN_FILES,
} from '../../contract/index.ts';
import { writeFileAtomicSync } from '../../runtime/index.ts';
import { ResultsFolderError, ResumeError } from '../errors.ts';

/** Bytes of raw data one call costs on disk (its call line plus ~1.5 attempt lines), with headroom. */
export const BYTES_PER_CALL = 150;
/** Space kept free beyond the estimate (logs, manifest, report, the file system's own needs). */
export const MARGIN_BYTES = 64 * 2 ** 20;

/** Paths and durable writes of one run folder. */
export class RunFolder {
  readonly dir: string;
  readonly name: string;

  constructor(dir: string) {
    this.dir = resolve(dir);
    this.name = basename(this.dir);
  }

  get manifestPath(): string {
    return join(this.dir, RUN_FILES.manifest);
  }
  get pointsPath(): string {
    return join(this.dir, RUN_FILES.points);
  }
  get rawDir(): string {
    return join(this.dir, RAW_DIR);
  }
  get logPath(): string {
    return join(this.dir, RUN_FILES.runLog);
  }
  /** Agents this run started (pids), so a resumed run can stop what a killed one left behind. */
  get agentsPath(): string {
    return join(this.dir, 'agents.json');
  }
  /** Held while a run writes the folder. */
  get lockPath(): string {
    return join(this.dir, 'run.lock');
  }
  /** Simulated rows, computed once per run (also across --resume). */
  get simPath(): string {
    return join(this.dir, RUN_FILES.sim);
  }

  /** True when the folder already holds a run (a manifest). */
  hasManifest(): boolean {
    return existsSync(this.manifestPath);
  }

  /**
   * Creates the folder and proves it is writable and that its disk has room for `calls` more calls
   * of raw data — before anything starts, so a full disk fails now and not after an hour.
   */
  preflight(calls: number): void {
    try {
      mkdirSync(this.rawDir, { recursive: true });
      accessSync(this.dir, constants.W_OK);
      const probe = join(this.dir, `.write-probe-${process.pid}`);
      writeFileSync(probe, 'ok');
      rmSync(probe);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
      const full = code === 'ENOSPC' || code === 'EDQUOT';
      throw new ResultsFolderError(
        full
          ? `results folder ${this.dir} is on a full disk (${code}: not even a small file fits); free some space, or pass --out on another disk`
          : `results folder ${this.dir} is not writable (${code}); pass --out with a folder you can write, or fix its permissions`,
        { cause: err },
      );
    }
    const need = calls * BYTES_PER_CALL + MARGIN_BYTES;
    const s = statfsSync(this.dir);
    const free = Number(s.bavail) * Number(s.bsize);
    if (free < need) {
      const mib = (b: number) => `${Math.ceil(b / 2 ** 20)} MiB`;
      throw new ResultsFolderError(
        `results folder ${this.dir} has ${mib(free)} free but this run needs about ${mib(need)} (${calls} calls of raw data); free some space, pass --out on a bigger disk, or lower --calls`,
      );
    }
  }

  /** Writes manifest.json atomically. */
  writeManifest(m: Manifest): void {
    writeFileAtomicSync(this.manifestPath, formatManifest(m));
  }

  /** Reads and validates manifest.json (for --resume). */
  readManifest(): Manifest {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(this.manifestPath, 'utf8'));
    } catch (err) {
      throw new ResumeError(
        `${this.manifestPath} cannot be read as JSON (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); --resume needs the folder of a run hedgebench started`,
        { cause: err },
      );
    }
    const r = parseManifest(json);
    if (!r.ok) {
      throw new ResumeError(
        `${this.manifestPath} is not a hedgebench manifest:\n  - ${r.issues.join('\n  - ')}`,
      );
    }
    const missing = resumeIssues(r.manifest);
    if (missing.length > 0) {
      throw new ResumeError(
        `${this.manifestPath} is not a hedgebench manifest:\n  - ${missing.join('\n  - ')}`,
      );
    }
    return r.manifest as Manifest;
  }

  /** Rows of points.csv (none when it does not exist yet). */
  readPoints(): PointRow[] {
    return existsSync(this.pointsPath) ? parsePointsCsv(readFileSync(this.pointsPath, 'utf8')) : [];
  }

  /** The simulated rows cached in sim.csv (none when absent or unreadable). */
  readSim(): PointRow[] {
    try {
      return existsSync(this.simPath) ? parsePointsCsv(readFileSync(this.simPath, 'utf8')) : [];
    } catch {
      return [];
    }
  }

  /** Replaces points.csv atomically. */
  writePoints(rows: readonly PointRow[]): void {
    writeFileAtomicSync(this.pointsPath, formatPointsCsv(rows));
  }

  /** Appends one event (JSON line) to run.log: what happened when, for people and for tests. */
  event(event: string, fields: Record<string, unknown> = {}): void {
    appendFileSync(this.logPath, `${JSON.stringify({ t: new Date().toISOString(), event, ...fields })}\n`);
  }
}

// The one manifest schema (contract/) also reads folders older runs wrote; --resume continues a run with
// exactly its recorded plan and sources, so it needs every field the current writer puts there.
function resumeIssues(m: ManifestData): string[] {
  const issues: string[] = [];
  if (m.version !== 1) issues.push('version: must be 1');
  for (const f of ['createdAt', 'node', 'versions', 'machine', 'sources', 'hosts'] as const) {
    if (m[f] === undefined) issues.push(`${f}: Required`);
  }
  if (m.gitCommit === undefined) issues.push('gitCommit: Required');
  if (m.points.length === 0) issues.push('points: must list at least one point');
  m.points.forEach((p, i) => {
    if (typeof p.config !== 'string') issues.push(`points.${i}.config: must be the configuration's name`);
    if (p.calibration === undefined) issues.push(`points.${i}.calibration: Required`);
  });
  return issues;
}
