// Reads a matrix JSON file for `hedgebench simulate`; every failure names the file and what to fix.

import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Matrix, MatrixInvalidError, overrideMatrix, parseMatrix } from '../model/index.ts';
import { packageRoot } from './matrix-runner.ts';

/** The matrix used without --matrix (by `run` and `simulate`): experiments/quick.json, in cwd first, then the package. */
export function defaultMatrixPath(cwd = process.cwd()): string {
  const here = resolve(cwd, 'experiments', 'quick.json');
  return existsSync(here) ? here : join(packageRoot(), 'experiments', 'quick.json');
}

/** Reads, validates and applies --calls / --seed overrides. */
export function readMatrixFile(path: string, o: { calls?: number; seed?: number } = {}): Matrix {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new MatrixInvalidError(
      `matrix file ${path} cannot be read (${code}); pass --matrix with the path of a JSON matrix, e.g. experiments/reference.json`,
      ['(file): cannot be read'],
      { cause: err },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new MatrixInvalidError(
      `matrix file ${path} is not valid JSON (${(err as Error).message}); fix the syntax`,
      ['(file): not JSON'],
      { cause: err },
    );
  }
  const m = parseMatrix(json, `matrix file ${path}`);
  return o.calls === undefined && o.seed === undefined ? m : overrideMatrix(m, o);
}
