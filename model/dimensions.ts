// Point dimensions beyond config × load × cancellation × seed: the hedge delay, replicas, clients, the time
// scale, fast failures, and whatever a study sweeps next. A dimension left at its default is invisible —
// absent from the point key, the slug, the manifest and the CSV columns — so results made before it existed,
// and runs that do not use it, stay byte-identical. Adding a dimension = one field below, one entry in DIMENSIONS, and its effect on a point.

import type { BalancerName, HedgeTarget } from '../library/index.ts';

/** A point's values of the extra dimensions; an absent field is that dimension's default. */
export interface PointDims {
  /**
   * Hedge delay, ms, replacing the configuration's own (matrix `delaysMs`), or a percentile such as "p95"
   * (model/delay-sweep.ts); absent for unhedged configs.
   */
  delayMs?: number | string;
  /** R replicas behind the client's balancer (matrix `replicas`; model/replicas.ts); absent = 1. */
  replicas?: number;
  /** How the client picks a replica (matrix `balancer`); absent = random, or one replica. */
  balancer?: BalancerName;
  /** Where a hedge goes (matrix `hedgeTo`); absent = other, or one replica, or an unhedged config. */
  hedgeTo?: HedgeTarget;
  /** Probability that a call's attempts share attempt 1's straggler draw (matrix `correlation`); absent = 0. */
  correlation?: number;
  /** Factor on replica 0's service times (matrix `slowReplica`); absent = 1, no degraded replica. */
  slowReplica?: number;
  /** How attempts travel (matrix `transport`): absent = HTTP/1.1, 'grpc' = gRPC unary calls over HTTP/2. */
  transport?: 'grpc';
  /** Who hedges (from the configuration): absent = hedgebench's library, 'grpc-js' = grpc-js's hedgingPolicy. */
  hedger?: 'grpc-js';
  /** Independent clients the point's arrivals are split across, call i → client i mod K (matrix `clients`); absent = 1. */
  clients?: number;
  /** The dilated clock's factor k (matrix `timeScale`, model/time-scale.ts); absent = 1, the undilated clock. */
  timeScale?: number;
  /** The real side made deliberately wrong (matrix `perturb`, model/perturb.ts), as its text; absent = none. */
  perturb?: string;
  /** The point's `model.errorProb` (matrix `errorProbs`, model/error-probs.ts); absent = 0, nothing fails. */
  errorProb?: number;
}

/** The field of a dimension and the names it goes by in a CSV column and in keys and slugs. */
interface DimensionSpec {
  readonly field: keyof PointDims;
  /** Its column in points.csv and comparison.csv (after the base columns, in DIMENSIONS order). */
  readonly column: string;
  /** Short tag in keys (`|d=10`) and slugs (`_d10`). */
  readonly tag: string;
  /** How its CSV cell reads back: `number-or-string` = a number when it reads as one (`delay_ms`: 20 or p95). */
  readonly kind: 'number' | 'string' | 'number-or-string';
  /** Its value in words, for tables and charts (e.g. `delay 10 ms`). */
  readonly words: (v: number | string) => string;
}

/** Every dimension, in column order. */
export const DIMENSIONS = [
  {
    field: 'delayMs',
    column: 'delay_ms',
    tag: 'd',
    kind: 'number-or-string',
    words: (v) => (typeof v === 'number' ? `delay ${v} ms` : `delay ${v}`),
  },
  { field: 'replicas', column: 'replicas', tag: 'r', kind: 'number', words: (v) => `${v} replicas` },
  { field: 'balancer', column: 'balancer', tag: 'b', kind: 'string', words: (v) => `${v}` },
  { field: 'hedgeTo', column: 'hedge_to', tag: 'h', kind: 'string', words: (v) => `hedge to ${v}` },
  { field: 'correlation', column: 'correlation', tag: 'c', kind: 'number', words: (v) => `correlation ${v}` },
  {
    field: 'slowReplica',
    column: 'slow_replica',
    tag: 's',
    kind: 'number',
    words: (v) => `slow replica ×${v}`,
  },
  {
    field: 'transport',
    column: 'transport',
    tag: 't',
    kind: 'string',
    words: (v) => `over ${v === 'grpc' ? 'gRPC' : v}`,
  },
  { field: 'hedger', column: 'hedger', tag: 'g', kind: 'string', words: (v) => `hedged by ${v}` },
  { field: 'clients', column: 'clients', tag: 'k', kind: 'number', words: (v) => `${v} clients` },
  {
    field: 'timeScale',
    column: 'time_scale',
    tag: 'x',
    kind: 'number',
    words: (v) => `time ×${v}`,
  },
  { field: 'perturb', column: 'perturb', tag: 'p', kind: 'string', words: (v) => `perturbed: ${v}` },
  {
    field: 'errorProb',
    column: 'error_prob',
    tag: 'e',
    kind: 'number',
    // A share in per cent, as people say it (0.01 → "errors 1 %"); toPrecision drops 0.07 × 100's float tail.
    words: (v) => `errors ${Number((Number(v) * 100).toPrecision(12))} %`,
  },
] as const satisfies readonly DimensionSpec[];

/** The CSV column of a dimension. */
export type DimensionColumn = (typeof DIMENSIONS)[number]['column'];

type DimValue = NonNullable<PointDims[keyof PointDims]>;

function present(dims: PointDims | undefined): [DimensionSpec, DimValue][] {
  if (dims === undefined) return [];
  const out: [DimensionSpec, DimValue][] = [];
  for (const d of DIMENSIONS) {
    const v = dims[d.field];
    if (v !== undefined) out.push([d, v]);
  }
  return out;
}

/** The key suffix of a point's dimensions, e.g. `|d=10`; empty at every default. */
export function dimsKeySuffix(dims: PointDims | undefined): string {
  return present(dims)
    .map(([d, v]) => `|${d.tag}=${v}`)
    .join('');
}

/** The slug suffix, e.g. `_d10` or `_d2p5` (file- and Redis-safe); empty at every default. */
export function dimsSlugSuffix(dims: PointDims | undefined): string {
  return present(dims)
    .map(
      ([d, v]) =>
        `_${d.tag}${String(v)
          // A negative value keeps its sign apart from its name: workersDelta=-1 is not workersDelta=1.
          .replace(/=-/g, '=m')
          .toLowerCase()
          .replace(/\./g, 'p')
          .replace(/[^a-z0-9]+/g, '-')}`,
    )
    .join('');
}

/** A configuration's name with the point's dimensions in words, e.g. `hedge, no budget · delay 10 ms`. */
export function labelWithDims(config: string, dims: PointDims | undefined): string {
  return [config, ...present(dims).map(([d, v]) => d.words(v))].join(' · ');
}

/** How many independent clients share a point's arrivals (1 unless the `clients` dimension says more). */
export function pointClients(p: { dims?: PointDims }): number {
  return p.dims?.clients ?? 1;
}

/** Which of K clients sends call `call`: the split rule the simulator and the real load generators share. */
export function clientOfCall(call: number, clients: number): number {
  return call % clients;
}
