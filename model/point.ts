// The Point: the unit of work that the simulator predicts and the real harness measures.
// Its key `config|load|cancellation|seed`, defined here (contract/point-key.ts is its public place), names
// its rows in points.csv, its raw files and its Redis keys (results/README.md lists every file).

import { dimsKeySuffix, dimsSlugSuffix, type PointDims } from './dimensions.ts';
import type { HedgeConfig } from './hedge-config.ts';
import type { ModelParams } from './params.ts';

export type Cancellation = 'ignore' | 'propagate';

/** One experiment point. `calls` includes the warm-up; the first `warmupFraction` of calls is not measured. */
export interface Point {
  config: HedgeConfig;
  load: number;
  cancellation: Cancellation;
  seed: number;
  calls: number;
  warmupFraction: number;
  model: ModelParams;
  /** The extra dimensions (model/dimensions.ts); absent = every one at its default. */
  dims?: PointDims;
}

/** What a point's key and slug are made of. */
type PointKeyFields = Pick<Point, 'config' | 'load' | 'cancellation' | 'seed' | 'dims'>;

/** `config|load|cancellation|seed` (then `|d=10`… for dimensions off their default): joins sim and real rows. */
export function pointKey(p: PointKeyFields): string {
  return `${p.config.name}|${formatLoad(p.load)}|${p.cancellation}|${p.seed}${dimsKeySuffix(p.dims)}`;
}

/** A file- and Redis-safe name for a point, e.g. `hedge-no-budget_0.50_ignore_s1`. */
export function pointSlug(p: PointKeyFields): string {
  const name = p.config.name
    .toLowerCase()
    .replace(/%/g, 'pct')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${name}_${formatLoad(p.load)}_${p.cancellation}_s${p.seed}${dimsSlugSuffix(p.dims)}`;
}

/** Loads print with two decimals everywhere (keys, CSV, tables). */
export function formatLoad(load: number): string {
  return load.toFixed(2);
}

/** Number of calls that are measured (after warm-up). Calls with index >= this.warmupCalls are measured. */
export function warmupCalls(p: Pick<Point, 'calls' | 'warmupFraction'>): number {
  return Math.floor(p.calls * p.warmupFraction);
}
