// The rows of one source and one seed, looked up by point, and the three-valued checks a claim is made of.

import { formatLoad } from '../../contract/index.ts';
import { referenceConfig } from '../../model/index.ts';
import type { ClaimRow, ClaimVerdict } from './claim-row.ts';

/** One finding of a claim: its verdict and the words and figures behind it. */
export interface Check {
  verdict: ClaimVerdict;
  text: string;
}

/**
 * A point of the source and seed at hand (the seed is the set's own). `delayMs` absent = the
 * configuration's own hedge delay (a row without `delay_ms`, or one whose `delay_ms` is that delay).
 */
export interface PointRef {
  config: string;
  load: number;
  cancellation: 'ignore' | 'propagate';
  delayMs?: number;
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

/** The rows of one source and one seed, indexed by (config, load, cancellation, hedge delay). */
export class ClaimPoints {
  private readonly byKey = new Map<string, ClaimRow>();
  private readonly mine: ClaimRow[] = [];

  constructor(
    readonly source: string,
    readonly seed: number,
    rows: readonly ClaimRow[],
  ) {
    for (const r of rows) {
      if (r.source !== source || r.seed !== seed) continue;
      // A percentile delay (`delay_ms` = p95) is a policy no claim of the study is about.
      if (r.delay_ms != null && !Number.isFinite(Number(r.delay_ms))) continue;
      this.mine.push(r);
      const key = keyOf({ ...r, delayMs: r.delay_ms == null ? undefined : Number(r.delay_ms) });
      // The configuration's own delay written out (`delay_ms` = 20) is the same point as its default;
      // the row without the column wins.
      if (!this.byKey.has(key) || r.delay_ms == null) this.byKey.set(key, r);
    }
  }

  /** The row of a point, or undefined when the source has none. */
  get(p: PointRef): ClaimRow | undefined {
    return this.byKey.get(keyOf(p));
  }

  /**
   * The hedge delays (ascending, ms) the source has for a configuration at a load and mode: every
   * `delay_ms`, and a reference configuration's own delay for its row without one.
   */
  delays(config: string, load: number, cancellation: PointRef['cancellation']): number[] {
    const own = referenceConfig(config)?.hedge?.delayMs;
    const out: number[] = [];
    for (const r of this.mine) {
      if (r.config !== config || r.cancellation !== cancellation) continue;
      if (formatLoad(r.load) !== formatLoad(load)) continue;
      const d = r.delay_ms == null ? own : Number(r.delay_ms);
      if (d !== undefined) out.push(d);
    }
    return [...new Set(out)].sort((a, b) => a - b);
  }

  /** The loads (ascending) at which any of `configs` has a row with this cancellation mode. */
  loads(configs: readonly string[], cancellation: PointRef['cancellation']): number[] {
    const out = new Set<number>();
    for (const r of this.byKey.values()) {
      if (r.cancellation === cancellation && configs.includes(r.config)) out.add(Number(formatLoad(r.load)));
    }
    return [...out].sort((a, b) => a - b);
  }

  /** How a point is named in evidence: `hedge, no budget` 0.95 ignore (delay 10 ms). */
  name(p: PointRef): string {
    const delay = p.delayMs === undefined ? '' : ` delay ${p.delayMs} ms`;
    return `\`${p.config}\`${delay} ${formatLoad(p.load)} ${p.cancellation}`;
  }

  /** The inconclusive check of a point this source lacks, naming it with its seed. */
  missing(p: PointRef): Check {
    return { verdict: 'inconclusive', text: `missing point ${this.name(p)} seed ${this.seed}` };
  }
}

/** The delay a key carries: none for the configuration's own (a reference configuration's, e.g. 20 ms). */
function keyDelay(p: PointRef): string {
  if (p.delayMs === undefined) return '';
  return p.delayMs === referenceConfig(p.config)?.hedge?.delayMs ? '' : `|d=${p.delayMs}`;
}

function keyOf(p: PointRef): string {
  return `${p.config}|${formatLoad(p.load)}|${p.cancellation}${keyDelay(p)}`;
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
