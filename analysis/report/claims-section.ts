// The report's claims section: the study's conclusions, one line each, with the verdict per source. It
// sits at the top of the report; the claims and their verdicts come from claims/.

import type { ClaimResult } from '../claims/claim-row.ts';
import { claimRowsOfRun, sourcesOf } from '../claims/claims-input.ts';
import { seedLine, verdictCell } from '../claims/claims-table.ts';
import { CLAIMS, evaluateClaims } from '../claims/evaluate.ts';
import type { RunAnalysis } from '../judge/run-analysis.ts';
import type { Block } from './report-doc.ts';

/**
 * The claims section of a run's report: sim and real from the analysis, real with its intervals, and the
 * sim+net rows the analysis computed (the ones points.csv holds once the comparison is written).
 */
export function claimsBlocks(a: RunAnalysis): Block[] {
  const { rows } = claimRowsOfRun(a, a.simNet.rows);
  const sources = sourcesOf(rows);
  const results = evaluateClaims(rows, sources);
  const heading: Block = { kind: 'heading', level: 2, text: "The study's claims" };
  if (sources.length === 0)
    return [heading, { kind: 'paragraph', text: 'No rows yet: no claim can be judged.' }];
  // A matrix that decides nothing says so in one sentence, with what it does show of a claim it decides in
  // part, instead of a table of `inconclusive`.
  const decidable = CLAIMS.filter((d) => !lacksPoints(results.filter((r) => r.claim === d.claim)));
  if (decidable.length === 0) {
    const partial = partialLines(results);
    return [
      heading,
      {
        kind: 'paragraph',
        text: `This matrix can decide none of the study's seven claims: experiments/confirm.json has the points for claims 1–6 and experiments/delay-sweep.json for claim 7 (\`hedgebench claims\` judges a run of either).${partial.length > 0 ? ' What its points do show:' : ''}`,
      },
      ...(partial.length > 0 ? [{ kind: 'list', items: partial } as Block] : []),
    ];
  }
  const cell = (claim: number, s: string) => {
    const r = results.find((x) => x.claim === claim && x.source === s);
    return r ? verdictCell(r) : '—';
  };
  return [
    heading,
    {
      kind: 'paragraph',
      text: 'Each conclusion of the simulated study, checked on every source of this run: `holds`, `fails`, or `inconclusive` (a needed point is missing, invalid, its collapse undecided, or the intervals straddle the claim\'s boundary). The rules and the evidence: `hedgebench claims` and claims.csv; results/README.md says what "better" and "same result" mean.',
    },
    {
      kind: 'table',
      head: ['claim', 'the study says', ...sources],
      rows: decidable.map((d) => [
        `${d.claim} ${d.title}`,
        d.statement,
        ...sources.map((s) => cell(d.claim, s)),
      ]),
    },
    { kind: 'list', items: claimLines(results) },
    { kind: 'paragraph', text: seedLine(results) },
  ];
}

/** Whether every source of a claim is inconclusive for want of points (the matrix has none of its points). */
function lacksPoints(mine: readonly ClaimResult[]): boolean {
  return mine.length > 0 && mine.every((r) => r.verdict === 'inconclusive' && LACKS_POINTS.test(r.summary));
}

/** For each claim the matrix decides only in part, the checks it could decide, per source. */
function partialLines(results: readonly ClaimResult[]): string[] {
  const out: string[] = [];
  for (const d of CLAIMS) {
    for (const r of results.filter((x) => x.claim === d.claim)) {
      const shown = [...new Set(r.perSeed.flatMap((s) => s.decided))];
      if (shown.length > 0) out.push(`claim ${d.claim} (${d.title}), ${r.source}: ${shown.join('; ')}`);
    }
  }
  return out;
}

/** The preset whose points decide a claim (experiments/). */
function presetOf(claim: number): string {
  return claim === 7 ? 'experiments/delay-sweep.json' : 'experiments/confirm.json';
}

/**
 * One line per claim and source, except a claim this matrix has no points for on any source: one line
 * naming the preset that decides it, instead of a line per missing point.
 */
function claimLines(results: readonly ClaimResult[]): string[] {
  const out: string[] = [];
  for (const d of CLAIMS) {
    const mine = results.filter((r) => r.claim === d.claim);
    if (lacksPoints(mine)) {
      out.push(`claim ${d.claim}: this matrix lacks the points it needs; ${presetOf(d.claim)} decides it`);
      continue;
    }
    out.push(...mine.map((r) => `claim ${r.claim}, ${r.source}: ${r.summary}`));
  }
  return out;
}

// What claim-points.ts and claim 7 say of a point the matrix does not have.
const LACKS_POINTS = /missing point|no delay sweep/;
