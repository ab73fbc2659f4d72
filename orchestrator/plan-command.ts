// `hedgebench run --plan`: the plan of a new run and its estimate, printed; nothing is started or written.

import { resolve } from 'node:path';
import { loadHostsFile } from './hosts/index.ts';
import { laneCountOf } from './lanes.ts';
import { defaultMatrixPath } from './paths.ts';
import { estimatePlan, formatPlan, loadMatrixFile, planPoints } from './plan.ts';
import { replicaPlanNotes } from './replica-check.ts';

/** Prints the plan (text, or JSON with `json`) of the matrix with --calls / --seed applied, on its lanes. */
export async function printPlan(o: {
  matrixFile?: string;
  calls?: number;
  seed?: number;
  /** `--lanes`, or the hosts file whose `lanes` the run would use. */
  lanes?: number;
  hostsFile?: string;
  json: boolean;
}): Promise<void> {
  const file = resolve(o.matrixFile ?? defaultMatrixPath());
  const matrix = await loadMatrixFile(file, { calls: o.calls, seed: o.seed });
  const hostsFile = o.hostsFile === undefined ? undefined : await loadHostsFile(resolve(o.hostsFile));
  const lanes = laneCountOf({
    option: o.lanes,
    hostsFile,
    resumed: undefined,
    foreign: matrix.target !== undefined,
  });
  const estimate = estimatePlan(planPoints(matrix), lanes);
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
