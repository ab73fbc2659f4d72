// The rows of one source and one seed, looked up by point, and the three-valued checks a claim is made of.

import { formatLoad } from '../../contract/index.ts';
import type { ClaimRow, ClaimVerdict } from './claim-row.ts';

/** One finding of a claim: its verdict and the words and figures behind it. */
export interface Check {
  verdict: ClaimVerdict;
  text: string;
}

/** A point of the source and seed at hand (the seed is the set's own). */
export interface PointRef {
  config: string;
  load: number;
  cancellation: 'ignore' | 'propagate';
}

/**
 * A claim's verdict over its checks: `fails` when any check fails (one decisive counter-example is
 * enough), else `inconclusive` when any check is, else `holds`.
 */
export function allOf(checks: readonly Check[]): ClaimVerdict {
  if (checks.some((c) => c.verdict === 'fails')) return 'fails';
  if (checks.some((c) => c.verdict === 'inconclusive')) return 'inconclusive';
  return 'holds';
}

/** The rows of one source and one seed, indexed by (config, load, cancellation). */
export class ClaimPoints {
  private readonly byKey = new Map<string, ClaimRow>();

  constructor(
    readonly source: string,
    readonly seed: number,
    rows: readonly ClaimRow[],
  ) {
    for (const r of rows) {
      if (r.source === source && r.seed === seed) this.byKey.set(keyOf(r), r);
    }
  }

  /** The row of a point, or undefined when the source has none. */
  get(p: PointRef): ClaimRow | undefined {
    return this.byKey.get(keyOf(p));
  }

  /** The loads (ascending) at which any of `configs` has a row with this cancellation mode. */
  loads(configs: readonly string[], cancellation: PointRef['cancellation']): number[] {
    const out = new Set<number>();
    for (const r of this.byKey.values()) {
      if (r.cancellation === cancellation && configs.includes(r.config)) out.add(Number(formatLoad(r.load)));
    }
    return [...out].sort((a, b) => a - b);
  }

  /** How a point is named in evidence: `hedge, no budget` 0.95 ignore. */
  name(p: PointRef): string {
    return `\`${p.config}\` ${formatLoad(p.load)} ${p.cancellation}`;
  }

  /** The inconclusive check of a point this source lacks, naming it with its seed. */
  missing(p: PointRef): Check {
    return { verdict: 'inconclusive', text: `missing point ${this.name(p)} seed ${this.seed}` };
  }
}

function keyOf(p: PointRef): string {
  return `${p.config}|${formatLoad(p.load)}|${p.cancellation}`;
}

/**
 * Why a row's figures are no evidence, or null when they are: a real point that failed its self-check
 * (unless it collapsed: a generator stopped at its collapse cap cannot pass the rate check, and the
 * collapse itself is the finding), or a collapse the criterion could not decide.
 */
export function unusable(pts: ClaimPoints, p: PointRef, row: ClaimRow, forCollapse = true): string | null {
  if (!row.valid && !row.collapsed)
    return `invalid point ${pts.name(p)} seed ${pts.seed} (failed its self-check)`;
  if (forCollapse && row.collapseUndecided)
    return `collapse undecided at ${pts.name(p)} seed ${pts.seed} (${row.collapseUndecided})`;
  return null;
}
