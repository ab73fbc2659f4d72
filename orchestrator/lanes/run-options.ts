// What `createRun` takes and what a run gives back: the options of `hedgebench run` (plus knobs for tests),
// the Run handle, and the outcome.
import type { GateResult } from '../../analysis/index.ts';
import type { FailOnVerdict } from '../../model/index.ts';
import type { PlannedPoint } from '../plan/plan.ts';
import type { ProgressSink } from '../plan/progress-reporter.ts';
import type { PointTiming } from '../point/point-runner.ts';

/** Options of createRun (the `hedgebench run` options, plus knobs for tests). */
export interface RunOptions {
  /** Matrix JSON (default experiments/quick.json). Not with `resume`. */
  matrixFile?: string;
  /** Hosts JSON; absent = everything on this machine (the embedded default). */
  hostsFile?: string;
  /**
   * Lanes on this machine (points measured in parallel, one per lane), or "auto" (orchestrator/lanes/lanes.ts);
   * absent = auto when every point is dilated, else 1. With a hosts file, its `lanes`.
   */
  lanes?: number | 'auto';
  /** Calls per point (overrides the matrix). */
  calls?: number;
  /** The seeds to run instead of the matrix's (`--seed 3`, `--seed 1-12`). */
  seeds?: readonly number[];
  /** The time scale instead of the matrix's (`--time-scale`; model/time-scale.ts). */
  timeScale?: number | 'auto';
  /** Run folder (default results/<yyyymmdd-hhmmss>-<matrix name>). */
  out?: string;
  /** Continue the run in this folder: skip done points, re-run pending ones. */
  resume?: string;
  /** With `resume`: measure the failed points again too (their old rows and reasons are dropped). */
  retryFailed?: boolean;
  /** With `resume`: measure again the done points whose real row failed its self-check (`valid` false). */
  retryInvalid?: boolean;
  /** Use this Redis instead of starting one (or the hosts file's). */
  redisUrl?: string;
  /** Start redis-server with an append-only file, so a Redis restart mid-point loses nothing. */
  durableRedis?: boolean;
  /** Verdicts that fail the run with exit 3 (`--fail-on`); undefined = the matrix's `failOn`. */
  failOn?: FailOnVerdict[];
  /** Agents stop by themselves this many seconds after their lease was last renewed (default 15). */
  leaseSeconds?: number;
  /** Let a foreign target (the matrix's `target.url`) be outside loopback and 198.18.0.0/15. */
  allowAnyTarget?: boolean;
  /** Run compare + report at the end (default true). */
  analyse?: boolean;
  cwd?: string;
  /** Progress and messages (default process.stderr). */
  stderr?: ProgressSink;
  /** The end-of-run summary (default process.stdout). */
  stdout?: { write(text: string): unknown };
  timing?: Partial<PointTiming>;
}

/** How a run ended. */
export interface RunOutcome {
  runDir: string;
  /** 0 every point done; 1 some failed; 3 all done but the gate failed; 130 / 143 interrupted by SIGINT / SIGTERM. */
  exitCode: number;
  done: number;
  failed: number;
  pending: number;
  interrupted: string | null;
  /** The command that continues the run, when points are left. */
  resumeCommand: string | null;
  /** The end-of-run summary (also printed to stdout). */
  summary: string;
  /** The gate over the comparison; null when nothing was compared. */
  gate: GateResult | null;
  /** The comparison's machine-readable summary (`--json`); null when nothing was compared. */
  comparison: Record<string, unknown> | null;
}

/** A prepared run. */
export interface Run {
  readonly runDir: string;
  readonly plan: readonly PlannedPoint[];
  /** Measures every pending point, then cleans up; resolves with the outcome (throws only for setup errors). */
  execute(): Promise<RunOutcome>;
  /** Stops the current point and the run (SIGINT/SIGTERM); what was written is kept. */
  interrupt(signal: string): void;
}
