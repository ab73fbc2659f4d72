// Reads a matrix JSON file for `hedgebench simulate`; every failure names the file and what to fix.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import {
  type Matrix,
  MatrixInvalidError,
  type MatrixOverrides,
  modelSchema,
  overrideMatrix,
  parseMatrix,
} from '../model/index.ts';
import { packageRoot } from './matrix-runner.ts';

/** The matrix used without --matrix (by `run` and `simulate`): experiments/quick.json, in cwd first, then the package. */
export function defaultMatrixPath(cwd = process.cwd()): string {
  const here = resolve(cwd, 'experiments', 'quick.json');
  return existsSync(here) ? here : join(packageRoot(), 'experiments', 'quick.json');
}

/** Reads, validates and applies --calls / --seed overrides. */
export function readMatrixFile(path: string, o: MatrixOverrides = {}): Matrix {
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
  const m = parseMatrix(withModelFile(json, path), `matrix file ${path}`);
  return o.calls === undefined && o.seeds === undefined && o.timeScale === undefined
    ? m
    : overrideMatrix(m, o);
}

/**
 * A matrix whose `model` is a path (a probe's model.json, relative to the matrix file) with that file's
 * model in its place; checked with the matrix's own model schema, each error naming the file and field.
 */
function withModelFile(json: unknown, matrixPath: string): unknown {
  if (typeof json !== 'object' || json === null || !('model' in json) || typeof json.model !== 'string')
    return json;
  const file = resolve(dirname(matrixPath), json.model);
  const fail = (issues: string[], cause?: unknown) => {
    throw new MatrixInvalidError(
      `matrix file ${matrixPath} is not a valid matrix:\n  - ${issues.join('\n  - ')}`,
      issues,
      { cause },
    );
  };
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    fail(
      [
        `model: the model file ${file} cannot be read (${code}); write \`hedgebench probe --target URL --out DIR\` to make one, or give its path relative to the matrix file`,
      ],
      err,
    );
  }
  let model: unknown;
  try {
    model = JSON.parse(text);
  } catch (err) {
    fail(
      [`model: the model file ${file} is not valid JSON (${(err as Error).message}); fix the syntax`],
      err,
    );
  }
  const r = modelSchema.safeParse(model);
  if (!r.success) {
    fail(
      r.error.issues.map((i) => {
        const field = i.path.join('.') || '(top level)';
        const text =
          i.code === 'unrecognized_keys'
            ? `unknown field(s) ${i.keys.map((k) => JSON.stringify(k)).join(', ')}; remove them or check the spelling`
            : i.message;
        return `model: the model file ${file}: ${field}: ${text}`;
      }),
      r.error,
    );
  }
  return { ...json, model: r.data };
}
