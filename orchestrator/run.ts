// A run: the matrix's points measured on real agents and simulated, written to results/<run>/. createRun
// validates everything it can before touching a host; execute() does the work and always cleans up.

import { availableParallelism } from 'node:os';
import { relative, resolve } from 'node:path';
import type { TimeScaleChoice } from '../analysis/index.ts';
import { type ClientFigures, type Manifest, type PointRow, rowKey } from '../contract/index.ts';
import { EXIT_CODES } from '../library/index.ts';
import { type Matrix, overrideMatrix, parseMatrix, replicaSetupOf } from '../model/index.ts';
import { Agents, type AgentsOptions } from './agents.ts';
import { type FinishedAnalysis, finishAnalysis, realRow } from './analysis-bridge.ts';
import { measureTimeScale } from './auto-time-scale.ts';
import { ResultsFolderError, ResumeError, RunOptionError } from './errors.ts';
import { checkForeignTarget, foreignLoad, foreignTrafficLine } from './foreign-target.ts';
import { type HostsFile, loadHostsFile } from './hosts/index.ts';
import { type Lane, laneCountOf, laneReachable } from './lanes.ts';
import { checkLeaseSeconds } from './lease.ts';
import { gitCommit, hedgebenchVersion, machineFacts } from './machine.ts';
import { checkNewRunFolder } from './out-guard.ts';
import { defaultMatrixPath, defaultRunDir } from './paths.ts';
import {
  dilationWords,
  loadMatrixFile,
  type PlannedPoint,
  pendingEntry,
  planPoints,
  planTimeScales,
} from './plan.ts';
import { DEFAULT_POINT_TIMING, measurePoint, type PointTiming } from './point-runner.ts';
import { ProgressReporter } from './progress.ts';
import { checkReplicasRunnable, replicaPlanNotes } from './replica-check.ts';
import { RunFolder } from './run-folder.ts';
import { acquireRunLock } from './run-lock.ts';
import type { Run, RunOptions, RunOutcome } from './run-options.ts';
import { RunProgress } from './run-progress.ts';
import { RunRecord } from './run-record.ts';
import { simulatePlan } from './sim-rows.ts';
import { formatRunSummary } from './summary.ts';

/** What the target server accepts as a run id (target-server/config.ts): the run folder's name. */
const RUN_NAME = /^[A-Za-z0-9._%+-]{1,200}$/;

/** A failed point made pending again, without its reason and times (a retry measures it afresh). */
function pendingAgain(p: Manifest['points'][number]): Manifest['points'][number] {
  if (p.state !== 'failed') return p;
  const { reason: _reason, startedAt: _startedAt, endedAt: _endedAt, ...rest } = p;
  return { ...rest, state: 'pending' };
}

/** Validates the options, the matrix, the hosts file and the results folder; starts nothing yet. */
export async function createRun(o: RunOptions): Promise<Run> {
  const cwd = o.cwd ?? process.cwd();
  if (o.leaseSeconds !== undefined) checkLeaseSeconds(o.leaseSeconds);
  let folder: RunFolder;
  let matrix: Matrix;
  let manifest: Manifest | null = null;
  let matrixFile: string | null = null;
  let hostsPath = o.hostsFile === undefined ? undefined : resolve(cwd, o.hostsFile);
  let timeScaleChoice: TimeScaleChoice | undefined;
  if (o.resume !== undefined) {
    const clash = (['matrixFile', 'calls', 'seed', 'timeScale', 'out'] as const).filter(
      (k) => o[k] !== undefined,
    );
    if (clash.length > 0) {
      const flag = { matrixFile: 'matrix', timeScale: 'time-scale' } as Record<string, string>;
      throw new RunOptionError(
        `--resume continues a run exactly as it was planned; drop ${clash.map((k) => `--${flag[k] ?? k}`).join(', ')}`,
      );
    }
    folder = new RunFolder(resolve(cwd, o.resume));
    if (!folder.hasManifest()) {
      throw new ResumeError(
        `${folder.dir} has no manifest.json; --resume needs the folder of a run hedgebench started (results/<run>)`,
      );
    }
    manifest = folder.readManifest();
    if (o.retryFailed) manifest = { ...manifest, points: manifest.points.map(pendingAgain) };
    matrix = parseMatrix(manifest.matrix, `${folder.manifestPath} (field "matrix")`);
    matrixFile = manifest.sources.matrixFile;
    hostsPath ??= manifest.sources.hostsFile ?? undefined;
  } else {
    if (o.retryFailed) {
      throw new RunOptionError(
        '--retry-failed measures the failed points of a run again; use it with --resume DIR',
      );
    }
    matrixFile = resolve(cwd, o.matrixFile ?? defaultMatrixPath(cwd));
    matrix = await loadMatrixFile(matrixFile, { calls: o.calls, seed: o.seed, timeScale: o.timeScale });
    if (matrix.timeScale === 'auto') {
      if (o.out !== undefined) checkNewRunFolder(new RunFolder(resolve(cwd, o.out)));
      timeScaleChoice = await measureTimeScale(matrix, o, cwd, createRun);
      (o.stderr ?? process.stderr).write(`hedgebench: ${timeScaleChoice.reason}\n`);
      matrix = overrideMatrix(matrix, { timeScale: timeScaleChoice.k });
    }
    folder = new RunFolder(
      o.out === undefined ? defaultRunDir(matrix.name, new Date(), cwd) : resolve(cwd, o.out),
    );
    checkNewRunFolder(folder);
    if (!RUN_NAME.test(folder.name)) {
      throw new RunOptionError(
        `--out ${folder.dir}: the folder's name ${JSON.stringify(folder.name)} becomes the run id in Redis keys; use a name of 1–200 characters from A-Z a-z 0-9 . _ % + - (e.g. --out results/my-run)`,
      );
    }
  }
  if (matrix.target) checkForeignTarget(matrix.target, o.allowAnyTarget === true);
  const hostsFile = hostsPath === undefined ? undefined : await loadHostsFile(hostsPath);
  checkReplicasRunnable(matrix, hostsFile, hostsPath);
  const plan = planPoints(matrix);
  const lanes = laneCountOf({
    option: o.lanes,
    hostsFile,
    // A resumed run keeps its lanes (one when it had no `lanes`).
    resumed: manifest ? (manifest.lanes ?? 1) : undefined,
    foreign: matrix.target !== undefined,
    timeScale: Math.min(...planTimeScales(plan)),
    points: plan.length,
    say: (t) => (o.stderr ?? process.stderr).write(`${t}\n`),
  });
  if (manifest) {
    const planned = plan.map((p) => p.key).join('\n');
    if (manifest.points.map((p) => p.key).join('\n') !== planned) {
      throw new ResumeError(
        `${folder.manifestPath}: its points do not match its matrix; the folder was edited or written by another hedgebench version`,
      );
    }
  }
  const states = new Map(manifest?.points.map((p) => [p.key, p.state]) ?? []);
  const callsLeft = plan
    .filter((p) => (states.get(p.key) ?? 'pending') === 'pending')
    .reduce((n, p) => n + p.point.calls, 0);
  folder.preflight(callsLeft);
  return new RunImpl(
    o,
    cwd,
    folder,
    matrix,
    plan,
    manifest,
    { matrixFile, hostsFile: hostsPath ?? null },
    hostsFile,
    lanes,
    timeScaleChoice,
  );
}

class RunImpl implements Run {
  private readonly abort = new AbortController();
  private interruptedBy: string | null = null;
  private readonly reporter: ProgressReporter;
  private readonly timing: PointTiming;
  readonly runDir: string;

  constructor(
    private readonly o: RunOptions,
    private readonly cwd: string,
    private readonly folder: RunFolder,
    private readonly matrix: Matrix,
    readonly plan: readonly PlannedPoint[],
    private readonly manifest: Manifest | null,
    private readonly sources: Manifest['sources'],
    private readonly hostsFile: HostsFile | undefined,
    private readonly lanes: number,
    private readonly timeScaleChoice: TimeScaleChoice | undefined,
  ) {
    this.runDir = folder.dir;
    this.reporter = new ProgressReporter(o.stderr ?? process.stderr);
    this.timing = { ...DEFAULT_POINT_TIMING, ...o.timing };
  }

  interrupt(signal: string): void {
    if (this.interruptedBy) return;
    this.interruptedBy = signal;
    this.say(`hedgebench: ${signal}: stopping the current point and every agent; keeping what is written`);
    this.abort.abort(`interrupted by ${signal}`);
  }

  private say(text: string): void {
    this.reporter.message(text);
  }

  async execute(): Promise<RunOutcome> {
    const t0 = Date.now();
    const folder = this.folder;
    const release = await acquireRunLock(folder.lockPath);
    let record: RunRecord;
    try {
      record = new RunRecord(folder, this.plan, this.manifest ?? (await this.newManifest()));
    } catch (err) {
      release();
      throw err;
    }
    const agentsOf = (o: Pick<AgentsOptions, 'lane' | 'shared' | 'redisOnly'>) =>
      new Agents({
        folder,
        hostsFile: this.hostsFile,
        redisUrl: this.o.redisUrl,
        durableRedis: this.o.durableRedis ?? false,
        leaseSeconds: this.o.leaseSeconds,
        workers: this.matrix.model.workers,
        seed: this.matrix.seeds[0],
        grpc: this.matrix.transport?.includes('grpc') ?? false,
        // One target server per replica, started once for the run: the most any point asks for.
        replicas: Math.max(1, ...this.plan.map((p) => replicaSetupOf(p.point.dims).replicas)),
        foreign: this.matrix.target !== undefined,
        say: (t) => this.say(t),
        ...o,
      });
    // Redis's agents hold the registry and the lease; every lane's share them and go down first.
    const hub = agentsOf({ redisOnly: true });
    const lanes: Agents[] = [];
    let setupError: unknown;
    try {
      if (this.matrix.target && record.pending().length > 0) {
        this.say(foreignTrafficLine(this.matrix.target, record.pending(), this.timing));
      }
      record.open(this.manifest ? 'run-resume' : 'run-start');
      const hosts = await hub.open();
      record.manifest.hosts = hosts.mode === 'local' ? 'local' : hosts.describe();
      if (this.lanes > 1) record.manifest.lanes = this.lanes;
      const pending = record.pending();
      const where = hosts.mode === 'local' ? 'everything on this machine' : 'hosts over SSH';
      this.say(
        `hedgebench: run ${folder.name}: ${pending.length} of ${this.plan.length} points to measure (${where}${this.lanes > 1 ? `, ${this.lanes} lanes in parallel` : ''}); results in ${this.display(folder.dir)}/`,
      );
      if (this.lanes > 1 && hosts.mode === 'local') {
        this.say(
          `hedgebench: note: the ${this.lanes} lanes share this machine's ${availableParallelism()} cores: points measured at the same time take CPU from each other, and their timing shows it (lanes on machines of their own do not)`,
        );
      }
      const dilation = dilationWords(this.plan);
      if (dilation !== '') this.say(`hedgebench: ${dilation}`);
      for (const note of replicaPlanNotes(this.matrix)) this.say(`hedgebench: ${note}`);
      // Every lane opens its hosts and deploys, all at once: an unreachable host fails here, before
      // anything starts. Then Redis, then each lane's targets.
      const shared: AgentsOptions['shared'] = { registry: hub.registry, lease: hub.lease };
      for (let lane = 0; lane < this.lanes; lane++) lanes.push(agentsOf({ lane, shared }));
      const deployed = await Promise.all(
        lanes.map((a, i) =>
          this.bringUp(i, async () => {
            await a.open();
            return a.deploy();
          }),
        ),
      );
      if (deployed.every((d) => d === null)) {
        throw new RunOptionError(
          `none of the ${this.lanes} lanes could be brought up (each one's reason is above); fix the hosts, then continue with --resume`,
        );
      }
      const sim = await simulatePlan(this.plan, folder.simPath);
      const { redis } = await hub.start();
      shared.redis = redis;
      record.manifest.versions.redisServer = redis.version;
      const started = await Promise.all(
        lanes.map(async (a, i): Promise<Lane | null> => {
          const loadgens = deployed[i];
          if (!loadgens) return null;
          const up = await this.bringUp(i, () => a.start());
          return (
            up && { index: i, hosts: a.hosts!, loadgens, redis, targets: up.targets, registry: a.registry }
          );
        }),
      );
      const ready = started.filter((l): l is Lane => l !== null);
      if (this.lanes > 1 && hosts.mode === 'ssh') {
        record.manifest.hosts = {
          ...hosts.describe(),
          lanes: lanes.map((a) => a.hosts?.describe() ?? null),
        };
      }
      record.save();
      await this.measure(pending, record, sim, ready);
    } catch (err) {
      setupError = err;
    } finally {
      this.reporter.clear();
      await Promise.all(lanes.map((a) => a.down()));
      await hub.down();
    }
    const { done, failed, pending } = record.counts();
    const exitCode = this.interruptedBy
      ? this.interruptedBy === 'SIGTERM'
        ? 143
        : 130
      : failed > 0 || pending > 0
        ? 1
        : 0;
    try {
      record.close(exitCode);
    } catch (err) {
      setupError ??= err;
    }
    release();
    const resumeCommand = pending > 0 ? `hedgebench run --resume ${this.display(folder.dir)}` : null;
    if (setupError) {
      if (resumeCommand)
        this.say(
          `hedgebench: nothing more was measured; after fixing the cause, continue with: ${resumeCommand}`,
        );
      throw diskFullError(setupError, folder.dir) ?? setupError;
    }
    const none: FinishedAnalysis = { line: null, files: [], gate: null, json: null };
    let analysis = none;
    if (!this.interruptedBy && done > 0 && this.o.analyse !== false) {
      analysis = await finishAnalysis(folder.dir, this.o.failOn).catch((err: Error) => {
        this.say(`hedgebench: the comparison could not be written: ${err.message}`);
        return none;
      });
    }
    // "Measured, but the thresholds failed" only when everything was measured: a failed point says more.
    const gated = exitCode === EXIT_CODES.ok && analysis.gate !== null && !analysis.gate.passed;
    const finalCode = gated ? EXIT_CODES.thresholds : exitCode;
    const summary = formatRunSummary({
      name: this.matrix.name,
      runDir: this.display(folder.dir),
      entries: record.manifest.points,
      rows: withPendingSims(folder.readPoints(), folder.readSim()),
      elapsedMs: Date.now() - t0,
      exitCode: finalCode,
      comparisonLine: analysis.line,
      extraFiles: analysis.files,
      resumeCommand,
    });
    this.reporter.clear();
    (this.o.stdout ?? process.stdout).write(`\n${summary}`);
    return {
      runDir: folder.dir,
      exitCode: finalCode,
      done,
      failed,
      pending,
      interrupted: this.interruptedBy,
      resumeCommand,
      summary,
      gate: analysis.gate,
      comparison: analysis.json,
    };
  }

  /**
   * One step of bringing up lane `index` (open and deploy, or start). With several lanes, a lane that cannot
   * (a host unreachable, no Node…) is left out, said so, and its points go to the other lanes: null then. A
   * run of one lane stops with the lane's error, as it always did.
   */
  private async bringUp<T>(index: number, step: () => Promise<T>): Promise<T | null> {
    try {
      return await step();
    } catch (err) {
      if (this.lanes === 1) throw err;
      const error = (err as Error).message;
      this.say(
        `hedgebench: lane ${index} could not be brought up (${error}); its points go to the other lanes`,
      );
      this.folder.event('lane-down', { lane: index, error });
      return null;
    }
  }

  /**
   * Measures the pending points, one at a time per lane, in plan order, until done or interrupted. A lane
   * whose hosts stop answering is retired and its point goes back to the queue; when no lane is left, the
   * points not measured stay pending (--resume).
   */
  private async measure(
    pending: PlannedPoint[],
    record: RunRecord,
    sim: Map<string, PointRow>,
    lanes: Lane[],
  ): Promise<void> {
    const queue = [...pending];
    const progress = new RunProgress(this.reporter, pending, this.lanes);
    let alive = lanes;
    const work = async (lane: Lane): Promise<void> => {
      while (!this.abort.signal.aborted) {
        const pp = queue.shift();
        if (!pp) return;
        const lost = await this.measureOne(pp, lane, record, sim, progress, pending.length);
        if (lost !== null) {
          queue.unshift(pp);
          alive = alive.filter((l) => l !== lane);
          this.say(
            `hedgebench: lane ${lane.index} is lost (${lost}); ${pp.key} and the points after it go to the ${alive.length} other lane${alive.length === 1 ? '' : 's'}`,
          );
          this.folder.event('lane-down', { lane: lane.index, error: lost });
          return;
        }
      }
    };
    // A lane lost after the others emptied the queue leaves its point there: the lanes left take it.
    while (queue.length > 0 && alive.length > 0 && !this.abort.signal.aborted) {
      await Promise.all(alive.map(work));
    }
    if (queue.length > 0 && alive.length === 0 && !this.abort.signal.aborted) {
      this.say(`hedgebench: every lane is lost; ${queue.length} points stay pending`);
    }
  }

  /** Measures one point on a lane and records it; returns why the lane is lost (the point goes back), else null. */
  private async measureOne(
    pp: PlannedPoint,
    lane: Lane,
    record: RunRecord,
    sim: Map<string, PointRow>,
    progress: RunProgress,
    total: number,
  ): Promise<string | null> {
    const folder = this.folder;
    const many = this.lanes > 1;
    record.started(pp, many ? lane.index : undefined);
    const position = progress.startPoint(pp, lane.index);
    const outcome = await measurePoint(pp, {
      ...lane,
      folder,
      run: folder.name,
      loadgenHosts: lane.hosts.loadgens,
      foreign: this.matrix.target ? foreignLoad(this.matrix.target, this.o.allowAnyTarget === true) : null,
      timing: this.timing,
      sendLagThresholdMs: this.matrix.fidelity.sendLagP99Ms,
      signal: this.abort.signal,
      onStatus: (s, ms) => progress.status(s, ms, lane.index),
      note: (text) => {
        this.say(`hedgebench: ${many ? `lane ${lane.index}: ` : ''}${text}`);
        folder.event('note', { key: pp.key, text, ...(many ? { lane: lane.index } : {}) });
      },
    });
    if (outcome.kind === 'interrupted') {
      progress.endPoint(lane.index);
      record.interrupted(pp, outcome.reason);
      return null;
    }
    // A failed point on a lane that no longer answers was the lane's fault: measure it elsewhere.
    if (outcome.kind === 'failed' && many && lane.hosts.mode === 'ssh' && !(await laneReachable(lane))) {
      progress.requeue(lane.index);
      record.requeued(pp, lane.index, outcome.reason);
      return outcome.reason;
    }
    progress.endPoint(lane.index);
    let reason = outcome.kind === 'failed' ? outcome.reason : null;
    let real: PointRow | null = null;
    let clients: ClientFigures[] | null = null;
    if (reason === null) {
      try {
        ({ row: real, clients } = realRow(folder.dir, record.entry(pp), this.matrix));
      } catch (err) {
        reason = `its raw files could not be turned into a row: ${(err as Error).message}`;
      }
    }
    const calls = outcome.kind === 'failed' ? (outcome.drained?.calls ?? 0) : outcome.drained.calls;
    record.finished(
      pp,
      sim.get(pp.key),
      real,
      reason,
      { calls, phasesMs: outcome.kind === 'done' ? outcome.phases : undefined },
      clients,
    );
    const at = `[${position}/${total}] ${pp.key}${many ? ` (lane ${lane.index})` : ''}`;
    this.say(reason === null ? `${at}: done (${calls} calls measured)` : `${at}: FAILED: ${reason}`);
    return null;
  }

  /** A path relative to cwd when it is inside cwd (shorter to read and to paste). */
  private display(path: string): string {
    const rel = relative(this.cwd, path);
    return rel && !rel.startsWith('..') ? rel : path;
  }

  private async newManifest(): Promise<Manifest> {
    return {
      version: 1,
      run: this.folder.name,
      createdAt: new Date().toISOString(),
      gitCommit: await gitCommit(),
      node: process.version,
      versions: { hedgebench: hedgebenchVersion(), redisServer: null },
      machine: machineFacts(),
      matrix: this.matrix,
      sources: this.sources,
      hosts: this.hostsFile ? {} : 'local',
      points: this.plan.map(pendingEntry),
      ...(this.timeScaleChoice === undefined
        ? {}
        : { timeScaleChoice: { ...this.timeScaleChoice, delays: { ...this.timeScaleChoice.delays } } }),
    };
  }
}

/** A clear error for a disk that filled up during the run (the free-space check ran at the start), else null. */
function diskFullError(err: unknown, dir: string): ResultsFolderError | null {
  const code = (err as NodeJS.ErrnoException).code;
  if (code !== 'ENOSPC' && code !== 'EDQUOT') return null;
  return new ResultsFolderError(
    `results folder ${dir}: the disk filled up during the run (${(err as Error).message}); points not finished stay pending: free some space, then continue with --resume ${dir}`,
    { cause: err },
  );
}

/** points.csv rows plus the cached simulated row of every point that has none there (pending, interrupted). */
function withPendingSims(rows: PointRow[], sims: PointRow[]): PointRow[] {
  const have = new Set(rows.filter((r) => r.source === 'sim').map(rowKey));
  return [...rows, ...sims.filter((r) => !have.has(rowKey(r)))];
}
