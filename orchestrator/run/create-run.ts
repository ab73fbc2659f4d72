// A run: the matrix's points measured on real agents and simulated, written to results/<run>/. createRun
// validates everything it can before touching a host (run-validation.ts); execute() brings the agents up
// (lane-bring-up.ts), measures the points on the lanes (lane-scheduler.ts) and always cleans up
// (run-teardown.ts).

import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { stealPercent } from '../../analysis/index.ts';
import { type Manifest, type PointRow, rowKey } from '../../contract/index.ts';
import { type MachineCpu, startCpuMeter } from '../../runtime/index.ts';
import { RunAgents } from '../lanes/lane-bring-up.ts';
import { measureOnLanes } from '../lanes/lane-scheduler.ts';
import type { Run, RunOptions, RunOutcome } from '../lanes/run-options.ts';
import { type FinishedAnalysis, finishAnalysis } from '../plan/analysis-steps.ts';
import { dilationWords, type PlannedPoint, pendingEntry } from '../plan/plan.ts';
import { simulatePlan } from '../plan/plan-simulation.ts';
import { ProgressReporter } from '../plan/progress-reporter.ts';
import { RunRecord } from '../plan/run-record.ts';
import { foreignTrafficLine } from '../point/foreign-load.ts';
import { DEFAULT_POINT_TIMING, type PointTiming } from '../point/point-runner.ts';
import { gitCommit, hedgebenchVersion, machineFacts } from './machine.ts';
import { replicaPlanNotes } from './replica-check.ts';
import { gatedExitCode } from './run-exit-code.ts';
import { acquireRunLock } from './run-lock.ts';
import { closeRun } from './run-teardown.ts';
import { type ValidRun, validateRun } from './run-validation.ts';
import { formatRunSummary } from './summary.ts';

/** Validates the options, the matrix, the hosts file and the results folder; starts nothing yet. */
export async function createRun(o: RunOptions): Promise<Run> {
  return new RunImpl(o, await validateRun(o, createRun));
}

class RunImpl implements Run {
  private readonly abort = new AbortController();
  private interruptedBy: string | null = null;
  private readonly reporter: ProgressReporter;
  private readonly timing: PointTiming;
  readonly runDir: string;
  readonly plan: readonly PlannedPoint[];

  constructor(
    private readonly o: RunOptions,
    private readonly v: ValidRun,
  ) {
    this.runDir = v.folder.dir;
    this.plan = v.plan;
    this.reporter = new ProgressReporter(o.stderr ?? process.stderr);
    this.timing = { ...DEFAULT_POINT_TIMING, ...o.timing };
  }

  interrupt(signal: string): void {
    if (this.interruptedBy) return;
    this.interruptedBy = signal;
    this.say(`hedgebench: ${signal}: stopping the current point and every agent; keeping what is written`);
    this.abort.abort(`interrupted by ${signal}`);
  }

  // What the points cost this machine, for the report and for checking `--lanes auto`'s budget (lanes.ts).
  private recordCpu(record: RunRecord, cpu: MachineCpu | null, lanes: number): void {
    if (cpu === null || cpu.seconds <= 0) return;
    const busy = Math.round(cpu.busyCores * 1000) / 1000;
    const { stealShare } = cpu;
    record.manifest.cpu = {
      cores: cpu.cores,
      busyCores: busy,
      seconds: Math.round(cpu.seconds * 10) / 10,
      stealShare,
    };
    const perLane = lanes > 1 ? `, about ${(busy / lanes).toFixed(2)} a lane` : '';
    const stolen =
      stealShare > 0 ? `; its hypervisor took ${stealPercent(stealShare)} of its CPU time (steal)` : '';
    this.say(
      `hedgebench: this machine kept ${busy.toFixed(2)} of its ${cpu.cores} cores busy over the points${perLane} (everything running on it counts)${stolen}`,
    );
  }

  private say(text: string): void {
    this.reporter.message(text);
  }

  async execute(): Promise<RunOutcome> {
    const t0 = Date.now();
    const { folder, matrix, manifest } = this.v;
    const laneCount = this.v.lanes;
    const release = await acquireRunLock(folder.lockPath);
    let record: RunRecord;
    try {
      record = new RunRecord(folder, this.plan, manifest ?? (await this.newManifest()));
    } catch (err) {
      release();
      throw err;
    }
    const agents = new RunAgents({
      folder,
      hostsFile: this.v.hostsFile,
      options: this.o,
      matrix,
      plan: this.plan,
      laneCount,
      say: (t) => this.say(t),
    });
    let setupError: unknown;
    try {
      if (matrix.target && record.pending().length > 0) {
        this.say(foreignTrafficLine(matrix.target, record.pending(), this.timing));
      }
      record.open(manifest ? 'run-resume' : 'run-start');
      const hosts = await agents.openHub();
      record.manifest.hosts = hosts.mode === 'local' ? 'local' : hosts.describe();
      if (laneCount > 1) record.manifest.lanes = laneCount;
      const pending = record.pending();
      const where = hosts.mode === 'local' ? 'everything on this machine' : 'hosts over SSH';
      this.say(
        `hedgebench: run ${folder.name}: ${pending.length} of ${this.plan.length} points to measure (${where}${laneCount > 1 ? `, ${laneCount} lanes in parallel` : ''}); results in ${this.display(folder.dir)}/`,
      );
      if (laneCount > 1 && hosts.mode === 'local') {
        this.say(
          `hedgebench: note: the ${laneCount} lanes share this machine's ${availableParallelism()} cores: points measured at the same time take CPU from each other, and their timing shows it (lanes on machines of their own do not)`,
        );
      }
      const dilation = dilationWords(pending);
      if (dilation !== '') this.say(`hedgebench: ${dilation}`);
      for (const note of replicaPlanNotes(matrix)) this.say(`hedgebench: ${note}`);
      // Every lane's hosts deployed at once (an unreachable host fails here, before anything starts), the
      // simulation, then Redis, then each lane's targets.
      const deployed = await agents.deploy();
      const sim = await simulatePlan(this.plan, folder.simPath);
      const { redis, ready } = await agents.start(deployed);
      record.manifest.versions.redisServer = redis.version;
      if (laneCount > 1 && hosts.mode === 'ssh') {
        record.manifest.hosts = {
          ...hosts.describe(),
          lanes: agents.lanes.map((a) => a.hosts?.describe() ?? null),
        };
      }
      record.save();
      const cpu = startCpuMeter();
      await measureOnLanes(
        {
          folder,
          matrix,
          laneCount,
          lanesShareMachine: this.v.lanesShareMachine,
          allowAnyTarget: this.o.allowAnyTarget === true,
          timing: this.timing,
          reporter: this.reporter,
          signal: this.abort.signal,
          say: (t) => this.say(t),
        },
        pending,
        record,
        sim,
        ready,
      );
      // A resume with nothing left to measure keeps what the last measured points cost.
      if (pending.length > 0) this.recordCpu(record, cpu.read(), laneCount);
    } catch (err) {
      setupError = err;
    } finally {
      this.reporter.clear();
      await agents.down();
    }
    const { done, failed, pending, exitCode, resumeCommand } = closeRun(record, release, {
      interruptedBy: this.interruptedBy,
      setupError,
      dir: folder.dir,
      shownDir: this.display(folder.dir),
      say: (t) => this.say(t),
    });
    const none: FinishedAnalysis = { line: null, files: [], gate: null, json: null };
    let analysis = none;
    if (!this.interruptedBy && done > 0 && this.o.analyse !== false) {
      analysis = await finishAnalysis(folder.dir, this.o.failOn).catch((err: Error) => {
        this.say(`hedgebench: the comparison could not be written: ${err.message}`);
        return none;
      });
    }
    const finalCode = gatedExitCode(exitCode, analysis.gate);
    const summary = formatRunSummary({
      name: matrix.name,
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

  /** A path relative to cwd when it is inside cwd (shorter to read and to paste). */
  private display(path: string): string {
    const rel = relative(this.v.cwd, path);
    return rel && !rel.startsWith('..') ? rel : path;
  }

  private async newManifest(): Promise<Manifest> {
    const { folder, matrix, sources, hostsFile, timeScaleChoice } = this.v;
    return {
      version: 1,
      run: folder.name,
      createdAt: new Date().toISOString(),
      gitCommit: await gitCommit(),
      node: process.version,
      versions: { hedgebench: hedgebenchVersion(), redisServer: null },
      machine: machineFacts(),
      matrix,
      sources,
      hosts: hostsFile ? {} : 'local',
      points: this.plan.map(pendingEntry),
      ...(timeScaleChoice === undefined
        ? {}
        : { timeScaleChoice: { ...timeScaleChoice, delays: { ...timeScaleChoice.delays } } }),
    };
  }
}

/** points.csv rows plus the cached simulated row of every point that has none there (pending, interrupted). */
function withPendingSims(rows: PointRow[], sims: PointRow[]): PointRow[] {
  const have = new Set(rows.filter((r) => r.source === 'sim').map(rowKey));
  return [...rows, ...sims.filter((r) => !have.has(rowKey(r)))];
}
