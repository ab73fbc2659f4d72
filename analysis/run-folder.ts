// Reading a run folder: manifest.json (what was planned and what happened) and points.csv (the rows).

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { formatLoad, type Matrix, parseMatrix } from '../model/index.ts';
import { RunFolderError } from './errors.ts';
import { parsePointsCsv } from './points-csv.ts';
import type { PointRow } from './row.ts';

const entrySchema = z
  .object({
    key: z.string(),
    slug: z.string(),
    config: z.union([z.string(), z.object({ name: z.string() }).passthrough()]),
    load: z.number(),
    cancellation: z.enum(['ignore', 'propagate']),
    seed: z.number(),
    calls: z.number(),
    calibration: z.boolean().optional(),
    state: z.enum(['pending', 'done', 'failed']),
    reason: z.string().nullable().optional(),
    startedAt: z.string().nullable().optional(),
    endedAt: z.string().nullable().optional(),
  })
  .passthrough();

const manifestSchema = z
  .object({
    version: z.union([z.string(), z.number()]).optional(),
    run: z.string(),
    createdAt: z.string().optional(),
    finishedAt: z.string().nullable().optional(),
    gitCommit: z.string().nullable().optional(),
    node: z.string().optional(),
    machine: z
      .object({ cpus: z.number(), memGiB: z.number(), os: z.string(), hostname: z.string() })
      .partial()
      .passthrough()
      .optional(),
    matrix: z.unknown(),
    hosts: z.unknown().optional(),
    points: z.array(entrySchema),
  })
  .passthrough();

/** One planned point of a run as manifest.json lists it. */
export type ManifestPoint = z.infer<typeof entrySchema>;

/** manifest.json, with its matrix validated and completed (defaults filled). */
export interface RunManifest {
  raw: z.infer<typeof manifestSchema>;
  run: string;
  matrix: Matrix;
  points: ManifestPoint[];
}

/** The configuration name of a manifest entry (the entry holds either the name or the whole config). */
export function entryConfigName(e: Pick<ManifestPoint, 'config'>): string {
  return typeof e.config === 'string' ? e.config : e.config.name;
}

/** The join key `config|load|cancellation|seed` of a points.csv row (same as model's pointKey). */
export function rowKey(r: Pick<PointRow, 'config' | 'load' | 'cancellation' | 'seed'>): string {
  return `${r.config}|${formatLoad(r.load)}|${r.cancellation}|${r.seed}`;
}

/** The join key of a manifest entry, computed from its fields (not trusted from `key`). */
export function entryKey(e: ManifestPoint): string {
  return `${entryConfigName(e)}|${formatLoad(e.load)}|${e.cancellation}|${e.seed}`;
}

/** Reads and validates results/<run>/manifest.json. */
export function readManifest(runDir: string): RunManifest {
  const path = join(runDir, 'manifest.json');
  if (!existsSync(path)) {
    throw new RunFolderError(
      `${path} does not exist; pass a run folder written by \`hedgebench run\` (e.g. results/<run>)`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new RunFolderError(`${path} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  const r = manifestSchema.safeParse(json);
  if (!r.success) {
    const issues = r.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`);
    throw new RunFolderError(`${path} is not a hedgebench manifest:\n  - ${issues.join('\n  - ')}`, {
      cause: r.error,
    });
  }
  let matrix: Matrix;
  try {
    matrix = parseMatrix(r.data.matrix, `${path} (field "matrix")`);
  } catch (err) {
    throw new RunFolderError((err as Error).message, { cause: err });
  }
  return { raw: r.data, run: r.data.run, matrix, points: r.data.points };
}

/** Reads results/<run>/points.csv; an empty list when the file does not exist yet. */
export function readPointsCsv(runDir: string): PointRow[] {
  const path = join(runDir, 'points.csv');
  if (!existsSync(path)) return [];
  try {
    return parsePointsCsv(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new RunFolderError(`${path}: ${(err as Error).message}`, { cause: err });
  }
}
