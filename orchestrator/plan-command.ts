// `hedgebench run --plan`: the plan of a new run and its estimate, printed; nothing is started or written.

import { resolve } from 'node:path';
import { defaultMatrixPath } from './paths.ts';
import { estimatePlan, formatPlan, loadMatrixFile, planPoints } from './plan.ts';
import { replicaPlanNotes } from './replica-check.ts';

/** Prints the plan (text, or JSON with `json`) of the matrix with --calls / --seed applied. */
export async function printPlan(o: {
  matrixFile?: string;
  calls?: number;
  seed?: number;
  json: boolean;
}): Promise<void> {
  const file = resolve(o.matrixFile ?? defaultMatrixPath());
  const matrix = await loadMatrixFile(file, { calls: o.calls, seed: o.seed });
  const estimate = estimatePlan(planPoints(matrix));
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
