// `timeScale: "auto"` on a real run: before the points, one calibration point measures this machine's own
// harness delays (send lag, transit, hold overshoot, response delay) in wall-clock ms, and the run takes the
// smallest k of the ladder at which they fall under the fidelity thresholds in model time
// (time-scale-choice.ts). The probe is a run of its own, in a temporary folder, on the same hosts,
// on as many lanes at once as the run may use: lanes on one machine add to each other's delays. A probe the
// hypervisor stole from is measured again (AUTO_PROBE_TRIES).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRealPoint, STEAL_NOTE_SHARE, stealPercent } from '../../analysis/index.ts';
import type { ManifestPoint } from '../../contract/index.ts';
import {
  formatLoad,
  type Matrix,
  overrideMatrix,
  parseMatrix,
  pointModel,
  TIME_SCALE_LADDER,
} from '../../model/index.ts';
import { RunOptionError } from '../errors.ts';
import { loadHostsFile } from '../hosts/index.ts';
import { laneCountOf } from '../lanes/lanes.ts';
import type { Run, RunOptions } from '../lanes/run-options.ts';
import { laneDemand, planPoints } from '../plan/plan.ts';
import { RunFolder } from '../plan/run-folder.ts';
import {
  chooseTimeScale,
  type HarnessDelays,
  harnessDelays,
  type TimeScaleChoice,
  worstDelays,
} from './time-scale-choice.ts';

/**
 * The probe measures this many times the calibration point's calls. Its p99s decide k, and a p99 of the
 * quick preset's 900 measured calibration calls rests on 9 of them, too few for a choice that repeats
 * (docs/time-scale.md, "Choosing k").
 */
const AUTO_PROBE_FACTOR = 3;

/**
 * The probe runs at the ladder's first dilated step, so it measures the harness a dilated run uses (a load
 * generator at `nice -n -10` polling only before each send) rather than the undilated one (SCHED_FIFO
 * polling), whose transit p99 jumps between two modes from run to run, on either side of k = 5's bound, so
 * the choice did too (docs/time-scale.md, "Choosing k"). It costs the probe twice the wall time.
 */
export const AUTO_PROBE_SCALE = 2;

/**
 * A probe the hypervisor took STEAL_NOTE_SHARE or more of the CPU from is measured again, up to this many
 * probes in all, and the least stolen one decides: steal delays every timer at once, for minutes (send lag
 * follows it: bench/RESULTS.md, "The hypervisor's steal"), and a k chosen in such minutes is the host's, not
 * the harness's.
 */
const AUTO_PROBE_TRIES = 3;

/**
 * The lanes "auto"'s probe measures at once: with a hosts file, every lane it lists; else as many as the
 * run would have at the ladder's largest k (the most any k gives), so the k it picks holds on the lanes the
 * run then gets (never more). One lane's delays under-read a run's: lanes on one machine add to each other's
 * delays, so a k one lane fits need not hold on several (docs/time-scale.md, "Choosing k").
 */
export async function autoProbeLanes(
  matrix: Matrix,
  o: Pick<RunOptions, 'lanes'>,
  hostsPath: string | undefined,
  cores?: number,
): Promise<number> {
  if (hostsPath !== undefined) return (await loadHostsFile(hostsPath)).lanes.length;
  const largest = TIME_SCALE_LADDER[TIME_SCALE_LADDER.length - 1];
  return laneCountOf({
    option: o.lanes,
    hostsFile: undefined,
    resumed: undefined,
    foreign: matrix.target !== undefined,
    ...laneDemand(planPoints(overrideMatrix(matrix, { timeScale: largest }))),
    cores,
  });
}

/**
 * Measures the harness on `lanes` lanes at once (one probe point each; with a hosts file, every lane it
 * lists) and chooses the time scale from the worst lane's delays; `create` is createRun (no import cycle).
 */
export async function measureTimeScale(
  m: Matrix,
  o: RunOptions,
  cwd: string,
  create: (o: RunOptions) => Promise<Run>,
  lanes = 1,
): Promise<TimeScaleChoice> {
  if (m.calibration === false) throw new RunOptionError('timeScale "auto" needs a calibration point');
  const c = m.calibration;
  const calls = AUTO_PROBE_FACTOR * c.calls;
  const spec = {
    name: `${m.name}-auto`,
    configs: ['no hedge'],
    loads: [c.load],
    cancellation: [m.cancellation[0]],
    seeds: Array.from({ length: lanes }, (_, i) => m.seeds[0] + i),
    calls,
    warmupFraction: m.warmupFraction,
    // The calibration's model: an errorProbs sweep fails nothing there (model/error-probs.ts).
    model: pointModel(m.model, undefined),
    calibration: false,
    fidelity: m.fidelity,
    timeScale: [AUTO_PROBE_SCALE],
    ...(m.transport?.[0] === 'grpc' ? { transport: ['grpc'] } : {}),
    ...(m.target === undefined ? {} : { target: m.target }),
  };
  const stderr = o.stderr ?? process.stderr;
  stderr.write(
    `hedgebench: time scale auto: measuring this machine's harness delays at time scale ${AUTO_PROBE_SCALE} (no hedge at load ${formatLoad(c.load)}, ${calls} calls${lanes > 1 ? `, on ${lanes} lanes at once, as the run's lanes will load the machine` : ''})\n`,
  );
  const probes: Probe[] = [];
  for (let i = 0; i < AUTO_PROBE_TRIES; i++) {
    const p = await probeOnce(spec, o, cwd, create, lanes);
    probes.push(p);
    if (p.stealShare < STEAL_NOTE_SHARE) break;
    if (i + 1 < AUTO_PROBE_TRIES) {
      stderr.write(
        `hedgebench: time scale auto: this machine's hypervisor took ${stealPercent(p.stealShare)} of its CPU time during the probe (steal), which delays the harness whatever k is; measuring it again\n`,
      );
    }
  }
  // The probe the hypervisor took least from: the harness's own delays, not the host's.
  const best = probes.reduce((a, b) => (b.stealShare < a.stealShare ? b : a));
  const choice = chooseTimeScale(best.delays, m.fidelity, lanes);
  const stolen =
    probes.length > 1
      ? `; measured ${probes.length} times, the hypervisor taking ${probes.map((p) => stealPercent(p.stealShare)).join(', ')} of the CPU (steal): this is the least`
      : '';
  return { ...choice, stealShare: best.stealShare, reason: `${choice.reason}${stolen}` };
}

/** One probe: the worst of its lanes' harness delays (wall ms) and the share of the CPU the hypervisor took. */
interface Probe {
  delays: HarnessDelays;
  stealShare: number;
}

async function probeOnce(
  spec: Record<string, unknown>,
  o: RunOptions,
  cwd: string,
  create: (o: RunOptions) => Promise<Run>,
  lanes: number,
): Promise<Probe> {
  const dir = mkdtempSync(join(tmpdir(), 'hedgebench-auto-'));
  try {
    const file = join(dir, 'matrix.json');
    writeFileSync(file, JSON.stringify(spec));
    const run = await create({
      ...o,
      matrixFile: file,
      calls: undefined,
      seeds: undefined,
      timeScale: undefined,
      out: join(dir, 'probe'),
      resume: undefined,
      failOn: undefined,
      analyse: false,
      lanes: o.hostsFile === undefined ? lanes : undefined,
      cwd,
      stdout: { write: () => true },
    });
    const outcome = await run.execute();
    const manifest = new RunFolder(run.runDir).readManifest();
    const { points } = manifest;
    const failed = points.find((p) => p.state !== 'done');
    if (outcome.exitCode !== 0 || failed !== undefined || points.length === 0) {
      throw new RunOptionError(
        `time scale auto: the probe point did not finish (${failed?.reason ?? `exit ${outcome.exitCode}`}); give a time scale instead, e.g. --time-scale 10 (the quick preset's, chosen on a 2-core machine)`,
      );
    }
    const probeMatrix = parseMatrix(spec, 'the auto probe');
    const delays = points.map((p) =>
      harnessDelays(readRealPoint(run.runDir, p as ManifestPoint, probeMatrix), AUTO_PROBE_SCALE),
    );
    return { delays: worstDelays(delays), stealShare: manifest.cpu?.stealShare ?? 0 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
