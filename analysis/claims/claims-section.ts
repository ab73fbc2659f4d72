// The report's claims section: the study's conclusions, one line each, with the verdict per source. It
// sits at the top of the report; report.ts calls claimsBlocks and nothing else of this folder.

import type { RunAnalysis } from '../judge/run-analysis.ts';
import { readPointsCsv } from '../read/run-folder-reader.ts';
import type { Block } from '../report/report-doc.ts';
import type { ClaimResult } from './claim-row.ts';
import { claimRowsOfRun, sourcesOf } from './claims-input.ts';
import { seedLine, verdictCell } from './claims-table.ts';
import { CLAIMS, evaluateClaims } from './evaluate.ts';

/**
 * The claims section of a run's report. Reads the run's points.csv for the sources the analysis does not
 * carry (e.g. sim+net); sim and real come from the analysis itself, real with its intervals.
 */
export function claimsBlocks(a: RunAnalysis): Block[] {
  const { rows } = claimRowsOfRun(a, readPointsCsv(a.runDir));
  const sources = sourcesOf(rows);
  const results = evaluateClaims(rows, sources);
  const cell = (claim: number, s: string) => {
    const r = results.find((x) => x.claim === claim && x.source === s);
    return r ? verdictCell(r) : '—';
  };
  return [
    { kind: 'heading', level: 2, text: "The study's claims" },
    {
      kind: 'paragraph',
      text: 'Each conclusion of the simulated study, checked on every source of this run: `holds`, `fails`, or `inconclusive` (a needed point is missing, invalid, its collapse undecided, or the intervals straddle the claim\'s boundary). The rules and the evidence: `hedgebench claims` and claims.csv; results/README.md says what "better" and "same result" mean.',
    },
    sources.length === 0
      ? { kind: 'paragraph', text: 'No rows yet: no claim can be judged.' }
      : {
          kind: 'table',
          head: ['claim', 'the study says', ...sources],
          rows: CLAIMS.map((d) => [
            `${d.claim} ${d.title}`,
            d.statement,
            ...sources.map((s) => cell(d.claim, s)),
          ]),
        },
    { kind: 'list', items: claimLines(results) },
    { kind: 'paragraph', text: seedLine(results) },
  ];
}

/** The preset whose points decide a claim (experiments/). */
function presetOf(claim: number): string {
  return claim === 7 ? 'experiments/delay-sweep.json' : 'experiments/confirm.json';
}

/**
 * One line per claim and source, except a claim this matrix has no points for on any source: one line
 * naming the preset that decides it, instead of a line per missing point.
 */
export function claimLines(results: readonly ClaimResult[]): string[] {
  const out: string[] = [];
  for (const d of CLAIMS) {
    const mine = results.filter((r) => r.claim === d.claim);
    const undecidable =
      mine.length > 0 && mine.every((r) => r.verdict === 'inconclusive' && LACKS_POINTS.test(r.summary));
    if (undecidable) {
      out.push(`claim ${d.claim}: this matrix lacks the points it needs; ${presetOf(d.claim)} decides it`);
      continue;
    }
    out.push(...mine.map((r) => `claim ${r.claim}, ${r.source}: ${r.summary}`));
  }
  return out;
}

// What claim-points.ts and claim 7 say of a point the matrix does not have.
const LACKS_POINTS = /missing point|no delay sweep/;
