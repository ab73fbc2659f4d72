// manifest.json of a run folder: what was run, where, with which versions, and the state of every point.
// One schema for every reader: the orchestrator writes the full form below and reads it back for
// --resume; the analysis reads folders of any age, so fields older runs lacked are optional here, and
// whoever needs one of them (--resume needs `sources`) checks for it.

import { z } from 'zod';
import { DIMENSIONS, type PointDims } from '../model/index.ts';
import { rowKey } from './point-key.ts';

/** State of one point: pending (not measured yet, or interrupted), done, or failed (reason says why). */
type PointState = 'pending' | 'done' | 'failed';

/** One point of the run as the manifest lists it. `config` is the configuration's name. */
export interface PointEntry {
  key: string;
  slug: string;
  config: string;
  load: number;
  cancellation: 'ignore' | 'propagate';
  seed: number;
  /** The extra dimensions off their default (model/dimensions.ts); absent when there are none. */
  dims?: PointDims;
  calls: number;
  /** The low-load `no hedge` point that measures the harness's own overhead. */
  calibration: boolean;
  state: PointState;
  reason?: string;
  startedAt?: string;
  endedAt?: string;
  /** A point measured by several load generators (`clients: K`): each one's figures; absent with one. */
  clients?: ClientFigures[];
  /** The lane that measured it (0-based), in a run of several lanes; absent with one. */
  lane?: number;
  /**
   * The share (0..1) of the orchestrator machine's CPU time its hypervisor took (steal, /proc/stat) while the
   * point was measured: the lanes' machine when they run on it. Absent off Linux and in older manifests.
   */
  stealShare?: number;
}

/** One load generator's share of a point (`clients: K`): its calls' rates and its own self-check. */
export interface ClientFigures {
  /** Its index: it sent the calls i with i mod K = client. */
  client: number;
  /** Measured calls it completed (any outcome). */
  measuredCalls: number;
  requestsPerCall: number | null;
  hedgeRate: number | null;
  /** Latency p99 of its ok calls, ms. */
  p99Ms: number | null;
  /** Its self-check: send-lag p99 of its own sends, ms, and whether every check passed (null = no status). */
  sendLagP99Ms: number | null;
  selfCheckPassed: boolean | null;
  reasons: string[];
}

/** Facts about the machine the orchestrator ran on. */
export interface MachineFacts {
  cpus: number;
  memGiB: number;
  os: string;
  hostname: string;
}

/** The whole manifest.json as hedgebench writes it. `matrix` is the matrix actually run (after --calls / --seed). */
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
  /** Lanes the run measures on (points in parallel, one per lane), when more than one. */
  lanes?: number;
  /** What `timeScale: "auto"` chose before the points, and the harness delays it measured (wall ms). */
  timeScaleChoice?: {
    k: number;
    reason: string;
    quiet: boolean;
    /** The smaller k the probe's reading alone allowed, below the drift-proof k chosen (absent when the same). */
    readingK?: number;
    /** Older manifests: the larger k a reading AUTO_HOST_DRIFT times higher would have taken. */
    repeatK?: number;
    delays: Record<string, number | null>;
    /** Lanes the probe measured at once (absent in older manifests: one). */
    lanes?: number;
    /** The share of the CPU the hypervisor took during the deciding probe (absent in older manifests). */
    stealShare?: number;
  };
  /**
   * Set at the end: the CPU of the machine the orchestrator ran on over the last session's points, busy cores
   * on average out of `cores` (everything on it counts: lanes, Redis, and anything else running), and the
   * share of its CPU time its hypervisor took (steal; absent in older manifests).
   */
  cpu?: { cores: number; busyCores: number; seconds: number; stealShare?: number };
  /** Set at the end: 0 = every point done; 1 = some failed; 130/143 = interrupted. */
  exitCode?: number;
  points: PointEntry[];
}

// Built from the list of dimensions, so a new dimension is read back without a change here.
const dimsSchema = z
  .object(
    Object.fromEntries(
      DIMENSIONS.map((d) => [
        d.field,
        d.kind === 'number'
          ? z.number().optional()
          : d.kind === 'string'
            ? z.string().optional()
            : z.union([z.number(), z.string()]).optional(),
      ]),
    ),
  )
  .strict() as unknown as z.ZodType<PointDims>;

const entrySchema = z
  .object({
    key: z.string(),
    // The slug names raw files: only the characters pointSlug produces, so no entry can point outside raw/.
    slug: z.string().regex(/^[a-z0-9._-]+$/),
    // Early runs stored the whole configuration object instead of its name.
    config: z.union([z.string(), z.object({ name: z.string() }).passthrough()]),
    load: z.number(),
    cancellation: z.enum(['ignore', 'propagate']),
    seed: z.number().int(),
    dims: dimsSchema.optional(),
    calls: z.number().int().positive(),
    calibration: z.boolean().optional(),
    state: z.enum(['pending', 'done', 'failed']),
    reason: z.string().nullable().optional(),
    startedAt: z.string().nullable().optional(),
    endedAt: z.string().nullable().optional(),
    lane: z.number().int().nonnegative().optional(),
    stealShare: z.number().min(0).max(1).optional(),
  })
  .passthrough();

const manifestSchema = z
  .object({
    version: z.union([z.string(), z.number()]).optional(),
    run: z.string().min(1),
    createdAt: z.string().optional(),
    finishedAt: z.string().nullable().optional(),
    gitCommit: z.string().nullable().optional(),
    node: z.string().optional(),
    versions: z.object({ hedgebench: z.string(), redisServer: z.string().nullable() }).optional(),
    machine: z
      .object({ cpus: z.number(), memGiB: z.number(), os: z.string(), hostname: z.string() })
      .partial()
      .passthrough()
      .optional(),
    // Every reader needs the matrix: it says what each point was.
    matrix: z.custom<unknown>((v) => v !== undefined, { message: 'Required' }),
    sources: z.object({ matrixFile: z.string().nullable(), hostsFile: z.string().nullable() }).optional(),
    hosts: z.union([z.literal('local'), z.object({}).passthrough()]).optional(),
    lanes: z.number().int().positive().optional(),
    cpu: z
      .object({
        cores: z.number(),
        busyCores: z.number(),
        seconds: z.number(),
        stealShare: z.number().optional(),
      })
      .optional(),
    // What a reader says of "auto"'s choice: the k and its evidence (the rest is for the record).
    timeScaleChoice: z.object({ k: z.number(), reason: z.string() }).passthrough().optional(),
    exitCode: z.number().int().optional(),
    points: z.array(entrySchema),
  })
  .passthrough();

/** A manifest as read from any run folder (older ones lack some fields). */
export type ManifestData = z.infer<typeof manifestSchema>;

/** One point entry as read from any run folder. */
export type ManifestPoint = z.infer<typeof entrySchema>;

/** Validates a parsed manifest; returns the issues as `field: problem` lines instead of throwing. */
export function parseManifest(
  json: unknown,
): { ok: true; manifest: ManifestData } | { ok: false; issues: string[] } {
  const r = manifestSchema.safeParse(json);
  if (r.success) return { ok: true, manifest: r.data };
  return {
    ok: false,
    issues: r.error.issues.map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`),
  };
}

/** The manifest as written to disk: stable key order, two-space indent, trailing newline. */
export function formatManifest(m: Manifest): string {
  return `${JSON.stringify(m, null, 2)}\n`;
}

/** The configuration name of a manifest entry (the entry holds either the name or the whole config). */
export function entryConfigName(e: Pick<ManifestPoint, 'config'>): string {
  return typeof e.config === 'string' ? e.config : e.config.name;
}

/** The join key of a manifest entry, computed from its fields (not trusted from `key`). */
export function entryKey(e: ManifestPoint): string {
  return rowKey({ ...e, config: entryConfigName(e) });
}
