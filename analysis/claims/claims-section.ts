// The report's claims section: the study's conclusions, one line each, with the verdict per source. It
// sits at the top of the report; report.ts calls claimsBlocks and nothing else of this folder.

import type { Block } from '../report-doc.ts';
import type { RunAnalysis } from '../run-analysis.ts';
import { readPointsCsv } from '../run-folder.ts';
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
    { kind: 'list', items: results.map((r) => `claim ${r.claim}, ${r.source}: ${r.summary}`) },
    { kind: 'paragraph', text: seedLine(results) },
  ];
}
