// `hedgebench run --plan`: the plan of a new run and its estimate, printed; nothing is started or written.

import { resolve } from 'node:path';
import { overrideMatrix, pointClients, replicaSetupOf, TIME_SCALE_LADDER } from '../../model/index.ts';
import { loadHostsFile } from '../hosts/index.ts';
import { laneCountOf } from '../lanes/lanes.ts';
import { defaultMatrixPath } from '../paths.ts';
import { AUTO_PROBE_SCALE } from '../run/auto-time-scale.ts';
import {
  estimatePlan,
  formatDuration,
  formatPlan,
  loadMatrixFile,
  planPoints,
  planTimeScales,
} from '../run/plan.ts';
import { replicaPlanNotes } from '../run/replica-check.ts';

/** Prints the plan (text, or JSON with `json`) of the matrix with --calls / --seed applied, on its lanes. */
export async function printPlan(o: {
  matrixFile?: string;
  calls?: number;
  seed?: number;
  timeScale?: number | 'auto';
  /** `--lanes`, or the hosts file whose `lanes` the run would use. */
  lanes?: number | 'auto';
  hostsFile?: string;
  json: boolean;
}): Promise<void> {
  const file = resolve(o.matrixFile ?? defaultMatrixPath());
  const matrix = await loadMatrixFile(file, { calls: o.calls, seed: o.seed, timeScale: o.timeScale });
  const hostsFile = o.hostsFile === undefined ? undefined : await loadHostsFile(resolve(o.hostsFile));
  const plan = planPoints(matrix);
  const lanes = laneCountOf({
    option: o.lanes,
    hostsFile,
    resumed: undefined,
    foreign: matrix.target !== undefined,
    timeScale: Math.min(...planTimeScales(plan)),
    points: plan.length,
    replicas: Math.max(1, ...plan.map((p) => replicaSetupOf(p.point.dims).replicas)),
    clients: Math.max(1, ...plan.map((p) => pointClients(p.point))),
    say: (t) => process.stderr.write(`${t}\n`),
  });
  const estimate = estimatePlan(plan, lanes);
  // "auto" is chosen by a measurement at the start of the run: give the estimate at each k it may choose.
  if (matrix.timeScale === 'auto') {
    const at = TIME_SCALE_LADDER.map(
      (k) =>
        `${k}: ${formatDuration(estimatePlan(planPoints(overrideMatrix(matrix, { timeScale: k })), lanes).wallMs)}`,
    );
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
