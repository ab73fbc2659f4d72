// A claim of the study as a check over rows: its definition (statement and rule), and its evaluation on
// one source, seed by seed, with the seeds combined into one verdict that says when the seed matters.

import { allOf, type Check, ClaimPoints } from './claim-points.ts';
import type { ClaimResult, ClaimRow, ClaimVerdict } from './claim-row.ts';

/** One of the study's conclusions, made checkable. */
export interface ClaimDefinition {
  /** Its number in the study's order (1–7). */
  claim: number;
  /** A few words for tables. */
  title: string;
  /** What the study says. */
  statement: string;
  /** What `holds` means here: points, percentile, tolerance, bounds. */
  rule: string;
  /** The checks on one source and seed; the claim holds when all hold (see allOf). */
  checks(pts: ClaimPoints): Check[];
  /** Figures worth reporting that the verdict does not depend on. */
  notes?(pts: ClaimPoints): string[];
}

/** A claim's verdict on one seed of one source. */
interface SeedJudgement {
  seed: number;
  verdict: ClaimVerdict;
  checks: Check[];
  notes: string[];
}

/** Evaluates a claim on one seed. */
function judgeSeed(
  def: ClaimDefinition,
  rows: readonly ClaimRow[],
  source: string,
  seed: number,
): SeedJudgement {
  const pts = new ClaimPoints(source, seed, rows);
  const checks = def.checks(pts);
  return { seed, verdict: allOf(checks), checks, notes: def.notes?.(pts) ?? [] };
}

/** A seed's evidence: every check's text, then the notes. */
function evidenceOf(j: SeedJudgement): string {
  return [...j.checks.map((c) => c.text), ...j.notes].join('; ');
}

function uniq(xs: readonly string[]): string[] {
  return [...new Set(xs)];
}

/** Why one seed's verdict is what it is, in one clause. */
function reason(j: SeedJudgement): string {
  if (j.verdict === 'holds') return `${j.checks.length} of ${j.checks.length} checks hold`;
  const which = j.checks.filter((c) => c.verdict === j.verdict).map((c) => c.text);
  return uniq(which).join('; ');
}

function seedList(js: readonly SeedJudgement[], v: ClaimVerdict): string {
  const s = js.filter((j) => j.verdict === v).map((j) => j.seed);
  return s.length === 1 ? `seed ${s[0]}` : `seeds ${s.join(', ')}`;
}

/**
 * Evaluates a claim on every seed `source` has rows for. One seed: its verdict. Several: the verdict of a
 * strict majority of seeds, else `inconclusive`; when the seeds disagree the summary says
 * `depends on the seed` and which seed gave what.
 */
export function evaluateClaim(def: ClaimDefinition, rows: readonly ClaimRow[], source: string): ClaimResult {
  const seeds = [...new Set(rows.filter((r) => r.source === source).map((r) => r.seed))].sort(
    (a, b) => a - b,
  );
  const js = seeds.map((s) => judgeSeed(def, rows, source, s));
  const base = {
    claim: def.claim,
    source,
    perSeed: js.map((j) => ({
      seed: j.seed,
      verdict: j.verdict,
      notes: j.notes,
      decided: j.checks.filter((c) => c.verdict !== 'inconclusive').map((c) => `${c.verdict}: ${c.text}`),
    })),
  };
  if (seeds.length === 0) {
    const why = `no row of source ${source}`;
    return { ...base, verdict: 'inconclusive', evidence: why, summary: `inconclusive: ${why}` };
  }
  if (js.length === 1) {
    const j = js[0];
    const evidence = evidenceOf(j);
    return { ...base, verdict: j.verdict, evidence, summary: `${j.verdict}: ${reason(j)}` };
  }
  const evidence = js.map((j) => `seed ${j.seed}: ${evidenceOf(j)}`).join(' | ');
  const verdicts = uniq(js.map((j) => j.verdict)) as ClaimVerdict[];
  if (verdicts.length === 1) {
    const v = verdicts[0];
    const why = v === 'holds' ? `in every seed (${seeds.join(', ')})` : reason(js[0]);
    return { ...base, verdict: v, evidence, summary: `${v}: ${why}` };
  }
  const counts = verdicts.map((v) => ({ v, n: js.filter((j) => j.verdict === v).length }));
  const top = counts.find((c) => c.n * 2 > js.length);
  const verdict: ClaimVerdict = top ? top.v : 'inconclusive';
  const split = verdicts.map((v) => `${v} in ${seedList(js, v)}`).join(', ');
  const minority = js.filter((j) => j.verdict !== verdict).map((j) => `seed ${j.seed}: ${reason(j)}`);
  return {
    ...base,
    verdict,
    evidence,
    summary: `${verdict}: depends on the seed — ${split} (${minority.join('; ')})`,
  };
}

/** The notes that differ between seeds, each with the seeds that gave it: `note … (seeds 2, 3)`. */
export function seedDependentNotes(r: ClaimResult): string[] {
  if (r.perSeed.length < 2) return [];
  const all = [...new Set(r.perSeed.flatMap((s) => s.notes))];
  return all
    .map((n) => ({ n, seeds: r.perSeed.filter((s) => s.notes.includes(n)).map((s) => s.seed) }))
    .filter((x) => x.seeds.length < r.perSeed.length)
    .map((x) => `${x.n} (seed${x.seeds.length > 1 ? 's' : ''} ${x.seeds.join(', ')})`);
}

/** Whether a result's verdict differs between seeds. */
export function dependsOnSeed(r: ClaimResult): boolean {
  return new Set(r.perSeed.map((s) => s.verdict)).size > 1;
}
