// What the command line may change in a matrix (--calls, --seed, --time-scale), checked again as a whole.

import { parseMatrix } from './matrix-parse.ts';
import type { Matrix } from './matrix-schema.ts';

/** What the command line may override in a matrix (--calls, --seed, --time-scale). */
export interface MatrixOverrides {
  calls?: number;
  /** The seeds to run instead of the matrix's (`--seed`: model/seed-list.ts). */
  seeds?: readonly number[];
  timeScale?: number | 'auto';
}

/** Replaces the calls, seeds and/or time scale of a matrix (the CLI's --calls / --seed / --time-scale). */
export function overrideMatrix(m: Matrix, o: MatrixOverrides): Matrix {
  const spec = { ...m, description: m.description, calibration: m.calibration };
  if (o.calls !== undefined) spec.calls = o.calls;
  if (o.seeds !== undefined) spec.seeds = [...o.seeds];
  if (o.timeScale !== undefined) spec.timeScale = o.timeScale === 'auto' ? 'auto' : [o.timeScale];
  return parseMatrix(spec, 'matrix with command-line overrides');
}
