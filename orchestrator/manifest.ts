// manifest.json of a run folder: what was run, where, with which versions, and the state of every point.
// The analysis part reads it; `--resume` reads it back, so it is validated on the way in.
import { z } from 'zod';

/** State of one point: pending (not measured yet, or interrupted), done, or failed (reason says why). */
export type PointState = 'pending' | 'done' | 'failed';

/** One point of the run as the manifest lists it. `config` is the configuration's name. */
export interface PointEntry {
  key: string;
  slug: string;
  config: string;
  load: number;
  cancellation: 'ignore' | 'propagate';
  seed: number;
  calls: number;
  /** The low-load `no hedge` point that measures the harness's own overhead. */
  calibration: boolean;
  state: PointState;
  reason?: string;
  startedAt?: string;
  endedAt?: string;
}

/** Facts about the machine the orchestrator ran on. */
export interface MachineFacts {
  cpus: number;
  memGiB: number;
  os: string;
  hostname: string;
}

/** The whole manifest.json. `matrix` is the matrix actually run (after --calls / --seed). */
export interface Manifest {
  version: 1;
  run: string;
  createdAt: string;
  finishedAt?: string;
  gitCommit: string | null;
  node: string;
  versions: { hedgebench: string; redisServer: string | null };
  machine: MachineFacts;
  matrix: unknown;
  /** Where the matrix and hosts came from, so `--resume` can find them again (paths, no secrets). */
  sources: { matrixFile: string | null; hostsFile: string | null };
  hosts: object | 'local';
  /** Set at the end: 0 = every point done; 1 = some failed; 130/143 = interrupted. */
  exitCode?: number;
  points: PointEntry[];
}

const pointSchema = z.object({
  key: z.string(),
  slug: z.string().regex(/^[a-z0-9._-]+$/),
  config: z.string(),
  load: z.number(),
  cancellation: z.enum(['ignore', 'propagate']),
  seed: z.number().int(),
  calls: z.number().int().positive(),
  calibration: z.boolean(),
  state: z.enum(['pending', 'done', 'failed']),
  reason: z.string().optional(),
  startedAt: z.string().optional(),
  endedAt: z.string().optional(),
});

const manifestSchema = z.object({
  version: z.literal(1),
  run: z.string().min(1),
  createdAt: z.string(),
  finishedAt: z.string().optional(),
  gitCommit: z.string().nullable(),
  node: z.string(),
  versions: z.object({ hedgebench: z.string(), redisServer: z.string().nullable() }),
  machine: z.object({ cpus: z.number(), memGiB: z.number(), os: z.string(), hostname: z.string() }),
  matrix: z.unknown(),
  sources: z.object({ matrixFile: z.string().nullable(), hostsFile: z.string().nullable() }),
  hosts: z.union([z.literal('local'), z.object({}).passthrough()]),
  exitCode: z.number().int().optional(),
  points: z.array(pointSchema).min(1),
});

/** Validates a parsed manifest; returns the issues as `field: problem` lines instead of throwing. */
export function parseManifest(
  json: unknown,
): { ok: true; manifest: Manifest } | { ok: false; issues: string[] } {
  const r = manifestSchema.safeParse(json);
  if (r.success) return { ok: true, manifest: r.data as Manifest };
  return {
    ok: false,
    issues: r.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`),
  };
}

/** The manifest as written to disk: stable key order, two-space indent, trailing newline. */
export function formatManifest(m: Manifest): string {
  return `${JSON.stringify(m, null, 2)}\n`;
}
