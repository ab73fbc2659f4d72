// claims.csv: one line per claim and source — claim,source,verdict,evidence,summary.

import { csvCell, csvFile } from '../../contract/index.ts';
import type { ClaimResult } from './claim-row.ts';

/** Exact column order of claims.csv. */
export const CLAIMS_COLUMNS = ['claim', 'source', 'verdict', 'evidence', 'summary'] as const;

/** The header line of claims.csv (no newline). */
export const CLAIMS_HEADER = CLAIMS_COLUMNS.join(',');

/** A whole claims.csv (header + one line per result, trailing newline). */
export function formatClaimsCsv(results: readonly ClaimResult[]): string {
  return csvFile(
    CLAIMS_HEADER,
    results.map((r) =>
      [String(r.claim), csvCell(r.source), r.verdict, csvCell(r.evidence), csvCell(r.summary)].join(','),
    ),
  );
}
