// The gate: which verdicts fail a run or a comparison (`failOn` in the matrix, `--fail-on` on the command
// line), which comparison lines did, and the machine-readable summary `--json` prints.

import type { ComparisonRow } from '../../contract/index.ts';
import { FAIL_ON_VERDICTS, type FailOnVerdict } from '../../model/index.ts';
import { FailOnError, ThresholdsFailedError } from '../errors.ts';
import type { RunAnalysis } from './run-analysis.ts';
import { sampleMismatches } from './sample-mismatch.ts';

/** The gate applied to a comparison: what it fails on and the judged lines that failed it. */
export interface GateResult {
  failOn: FailOnVerdict[];
  failures: ComparisonRow[];
  passed: boolean;
}

/** Parses `--fail-on diverges,invalid`; undefined when the flag was not given. */
export function parseFailOn(text: string | undefined): FailOnVerdict[] | undefined {
  if (text === undefined) return undefined;
  const items = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const known = new Set<string>(FAIL_ON_VERDICTS);
  const bad = items.filter((s) => !known.has(s));
  if (items.length === 0 || bad.length > 0) {
    throw new FailOnError(
      `--fail-on ${JSON.stringify(text)}: ${bad.length > 0 ? `${bad.map((b) => JSON.stringify(b)).join(', ')} is not a verdict it can fail on` : 'names no verdict'}; use a comma-separated list of ${FAIL_ON_VERDICTS.join(', ')}`,
    );
  }
  return [...new Set(items)] as FailOnVerdict[];
}

/** The gate of a run: `--fail-on` when given, else the matrix's `failOn`, else none (always passes). */
export function applyGate(a: RunAnalysis, flag: FailOnVerdict[] | undefined): GateResult {
  const failOn = flag ?? a.manifest.matrix.failOn ?? [];
  const set = new Set<string>(failOn);
  const failures = a.comparison.filter((r) => set.has(r.verdict));
  return { failOn, failures, passed: failures.length === 0 };
}

/** The error that ends a command whose gate failed (exit 3), or null when it passed. */
export function gateError(g: GateResult): ThresholdsFailedError | null {
  if (g.passed) return null;
  const by = g.failOn
    .map((v) => [v, g.failures.filter((r) => r.verdict === v).length] as const)
    .filter(([, n]) => n > 0)
    .map(([v, n]) => `${v} ${n}`)
    .join(', ');
  const first = g.failures[0];
  return new ThresholdsFailedError(
    `measured, but the thresholds failed: ${g.failures.length} comparison line(s) with a verdict in --fail-on ${g.failOn.join(',')} (${by}); first: ${first.config} at load ${first.load} (${first.cancellation}, seed ${first.seed}) ${first.metric} ${first.verdict}; see comparison.csv`,
  );
}

/** The `--json` summary of a comparison (and of a run, which adds its own fields). */
export function comparisonJson(a: RunAnalysis, g: GateResult): Record<string, unknown> {
  return {
    runDir: a.runDir,
    run: a.manifest.run,
    comparison: {
      points: a.summary.points,
      compared: a.summary.compared,
      metrics: a.summary.metrics,
      verdicts: a.summary.counts,
    },
    gate: {
      failOn: g.failOn,
      passed: g.passed,
      failures: g.failures.map((r) => ({
        config: r.config,
        load: r.load,
        cancellation: r.cancellation,
        seed: r.seed,
        metric: r.metric,
        verdict: r.verdict,
      })),
    },
    warnings: sampleMismatches(a),
    notes: a.notes,
  };
}
