// `hedgebench run --plan`: the plan of a new run and its estimate, printed; nothing is started or written.

import { resolve } from 'node:path';
import type { PointRow } from '../../contract/index.ts';
import { overrideMatrix, TIME_SCALE_LADDER } from '../../model/index.ts';
import { loadHostsFile } from '../hosts/index.ts';
import { laneCountOf } from '../lanes/lanes.ts';
import { defaultMatrixPath } from '../paths.ts';
import { formatDuration, laneDemand, loadMatrixFile, type PlannedPoint, planPoints } from '../plan/plan.ts';
import { estimatePlan, formatPlan } from '../plan/plan-estimate.ts';
import { collapseDrains, collapsingKeys, simulatePlan } from '../plan/plan-simulation.ts';
import { AUTO_PROBE_SCALE } from '../run/auto-time-scale.ts';
import { replicaPlanNotes, throwIssues, tiedRunIssues } from '../run/replica-check.ts';

/** Prints the plan (text, or JSON with `json`) of the matrix with --calls / --seed applied, on its lanes. */
export async function printPlan(o: {
  matrixFile?: string;
  calls?: number;
  seeds?: readonly number[];
  timeScale?: number | 'auto';
  /** `--lanes`, or the hosts file whose `lanes` the run would use. */
  lanes?: number | 'auto';
  hostsFile?: string;
  json: boolean;
}): Promise<void> {
  const file = resolve(o.matrixFile ?? defaultMatrixPath());
  const matrix = await loadMatrixFile(file, { calls: o.calls, seeds: o.seeds, timeScale: o.timeScale });
  const hostsFile = o.hostsFile === undefined ? undefined : await loadHostsFile(resolve(o.hostsFile));
  // What the run would refuse before starting, the plan refuses too (the hosts' part: checkReplicasRunnable).
  throwIssues(tiedRunIssues(matrix));
  const plan = planPoints(matrix);
  const lanes = laneCountOf({
    option: o.lanes,
    hostsFile,
    resumed: undefined,
    foreign: matrix.target !== undefined,
    ...laneDemand(plan),
    say: (t) => process.stderr.write(`${t}\n`),
  });
  // The plan simulates to find the points predicted to collapse: each lasts past its schedule while its
  // backlog drains, and lanes on this machine measure the heavy ones alone (lane-scheduler.ts). Lanes of a
  // hosts file are taken to be machines of their own (the run asks them).
  const sim = await simulatePlan(plan);
  // The same points collapse at every time scale (the model has no unit of time): a plan at another k takes
  // the simulated rows by position.
  const estimateOf = (p: PlannedPoint[]) => {
    const rows = new Map<string, PointRow>();
    p.forEach((pp, i) => {
      const r = sim.get(plan[i].key);
      if (r) rows.set(pp.key, r);
    });
    const alone = lanes > 1 && hostsFile === undefined ? collapsingKeys(p, rows) : new Set<string>();
    return estimatePlan(p, lanes, alone, collapseDrains(p, rows), matrix.target !== undefined);
  };
  const estimate = estimateOf(plan);
  // "auto" is chosen by a measurement at the start of the run: give the estimate at each k it may choose.
  if (matrix.timeScale === 'auto') {
    const at = TIME_SCALE_LADDER.map((k) => {
      const atK = planPoints(overrideMatrix(matrix, { timeScale: k }));
      return `${k}: ${formatDuration(estimateOf(atK).wallMs)}`;
    });
    process.stderr.write(
      `hedgebench: time scale auto: the run first measures one calibration point at time scale ${AUTO_PROBE_SCALE} and takes the smallest k of ${TIME_SCALE_LADDER.join(', ')} at which this machine's harness delays fit the fidelity thresholds; the estimate below is at k = 1, and at each k: ${at.join(', ')}\n`,
    );
  }
  // Settings that change nothing are allowed; the plan says so, as the run does (stderr: stdout is the plan).
  for (const note of replicaPlanNotes(matrix)) process.stderr.write(`hedgebench: ${note}\n`);
  if (o.json) {
    process.stdout.write(
      `${JSON.stringify({ matrix: matrix.name, matrixFile: file, ...estimate }, null, 2)}\n`,
    );
  } else {
    process.stdout.write(formatPlan(`${matrix.name} (${file})`, estimate));
  }
}
