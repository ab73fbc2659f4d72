// Everything a run checks before it touches a host: the options, the matrix (a resumed run's from its
// manifest, else the file's, with an "auto" time scale measured), the hosts file, the replicas, the lanes and
// the results folder (new, a valid run id, room for the calls left).

import { resolve } from 'node:path';
import type { Manifest } from '../../contract/index.ts';
import { type Matrix, overrideMatrix, parseMatrix } from '../../model/index.ts';
import { checkLeaseSeconds } from '../agents/lease.ts';
import { ResumeError, RunOptionError } from '../errors.ts';
import { type HostsFile, loadHostsFile } from '../hosts/index.ts';
import { sharedMachine } from '../lanes/lane-machines.ts';
import { laneCountOf } from '../lanes/lanes.ts';
import type { Run, RunOptions } from '../lanes/run-options.ts';
import { defaultMatrixPath, defaultRunDir } from '../paths.ts';
import { laneDemand, loadMatrixFile, type PlannedPoint, planPoints } from '../plan/plan.ts';
import { RunFolder } from '../plan/run-folder.ts';
import { checkForeignTarget } from '../point/foreign-load.ts';
import { autoProbeLanes, measureTimeScale } from './auto-time-scale.ts';
import { checkNewRunFolder } from './out-guard.ts';
import { checkReplicasRunnable } from './replica-check.ts';
import { invalidToRetry } from './retry-invalid.ts';
import type { TimeScaleChoice } from './time-scale-choice.ts';

/** What the target server accepts as a run id (target-server/config.ts): the run folder's name. */
const RUN_NAME = /^[A-Za-z0-9._%+-]{1,200}$/;

/** A run checked and planned: what bringing it up and measuring it need. */
export interface ValidRun {
  cwd: string;
  folder: RunFolder;
  matrix: Matrix;
  plan: PlannedPoint[];
  /** A resumed run's manifest (the points --retry-failed/--retry-invalid name pending again); null for a new run. */
  manifest: Manifest | null;
  sources: Manifest['sources'];
  hostsFile: HostsFile | undefined;
  lanes: number;
  /** Several lanes whose targets and load generators share one machine's cores (this one, or a lab's). */
  lanesShareMachine: boolean;
  timeScaleChoice: TimeScaleChoice | undefined;
}

/** A point made pending again, without its reason and times (a retry measures it afresh). */
function pendingAgain(p: Manifest['points'][number]): Manifest['points'][number] {
  const { reason: _reason, startedAt: _startedAt, endedAt: _endedAt, ...rest } = p;
  return { ...rest, state: 'pending' };
}

/** The points `--retry-failed` and `--retry-invalid` measure again, made pending. */
function retried(o: RunOptions, folder: RunFolder, manifest: Manifest): Manifest {
  const invalid = o.retryInvalid ? invalidToRetry(folder.readPoints()) : new Set<string>();
  const again = (p: Manifest['points'][number]) =>
    (o.retryFailed === true && p.state === 'failed') || (p.state === 'done' && invalid.has(p.key));
  return { ...manifest, points: manifest.points.map((p) => (again(p) ? pendingAgain(p) : p)) };
}

/**
 * Validates the options, the matrix, the hosts file and the results folder; starts nothing yet. `create` is
 * createRun: an "auto" time scale is measured by a run of its own (no import cycle).
 */
export async function validateRun(o: RunOptions, create: (o: RunOptions) => Promise<Run>): Promise<ValidRun> {
  const cwd = o.cwd ?? process.cwd();
  if (o.leaseSeconds !== undefined) checkLeaseSeconds(o.leaseSeconds);
  let folder: RunFolder;
  let matrix: Matrix;
  let manifest: Manifest | null = null;
  let matrixFile: string | null = null;
  let hostsPath = o.hostsFile === undefined ? undefined : resolve(cwd, o.hostsFile);
  let timeScaleChoice: TimeScaleChoice | undefined;
  if (o.resume !== undefined) {
    const clash = (['matrixFile', 'calls', 'seeds', 'timeScale', 'out'] as const).filter(
      (k) => o[k] !== undefined,
    );
    if (clash.length > 0) {
      const flag = { matrixFile: 'matrix', seeds: 'seed', timeScale: 'time-scale' } as Record<string, string>;
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
    manifest = retried(o, folder, manifest);
    matrix = parseMatrix(manifest.matrix, `${folder.manifestPath} (field "matrix")`);
    matrixFile = manifest.sources.matrixFile;
    hostsPath ??= manifest.sources.hostsFile ?? undefined;
  } else {
    const retry = o.retryFailed ? 'failed' : o.retryInvalid ? 'invalid' : undefined;
    if (retry) {
      throw new RunOptionError(
        `--retry-${retry} measures the ${retry} points of a run again; use it with --resume DIR`,
      );
    }
    matrixFile = resolve(cwd, o.matrixFile ?? defaultMatrixPath(cwd));
    matrix = await loadMatrixFile(matrixFile, { calls: o.calls, seeds: o.seeds, timeScale: o.timeScale });
    if (matrix.timeScale === 'auto') {
      if (o.out !== undefined) checkNewRunFolder(new RunFolder(resolve(cwd, o.out)));
      const probeLanes = await autoProbeLanes(matrix, o, hostsPath);
      timeScaleChoice = await measureTimeScale(matrix, o, cwd, create, probeLanes);
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
  // A hosts file of several lanes: are they all on one machine (a lab's namespaces)? "auto" keeps fewer lanes
  // then, and the lanes measure the points predicted to collapse alone.
  const shared =
    hostsFile !== undefined && hostsFile.lanes.length > 1 ? await sharedMachine(hostsFile, cwd) : undefined;
  const lanes = laneCountOf({
    option: o.lanes,
    hostsFile,
    shared,
    // A resumed run keeps its lanes (one when it had no `lanes`).
    resumed: manifest ? (manifest.lanes ?? 1) : undefined,
    foreign: matrix.target !== undefined,
    ...laneDemand(plan),
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
  return {
    cwd,
    folder,
    matrix,
    plan,
    manifest,
    sources: { matrixFile, hostsFile: hostsPath ?? null },
    hostsFile,
    lanes,
    lanesShareMachine: lanes > 1 && (hostsFile === undefined || (shared ?? null) !== null),
    timeScaleChoice,
  };
}
