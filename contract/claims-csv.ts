// claims.csv: one line per claim and source — claim,source,verdict,evidence,summary. The writer and the
// reader of the file; how a claim is judged stays in analysis/claims/.

import { z } from 'zod';
import { csvBody, csvCell, csvFile } from './csv.ts';
import { ClaimsCsvError } from './errors.ts';

/** Exact column order of claims.csv. */
const CLAIMS_COLUMNS = ['claim', 'source', 'verdict', 'evidence', 'summary'] as const;

/** The header line of claims.csv (no newline). */
export const CLAIMS_HEADER = CLAIMS_COLUMNS.join(',');

/** The three verdicts of a claim. */
const CLAIM_VERDICTS = ['holds', 'fails', 'inconclusive'] as const;
/** One claim's verdict. */
export type ClaimVerdict = (typeof CLAIM_VERDICTS)[number];

/** One line of claims.csv, as read back. */
const claimsCsvRowSchema = z
  .object({
    claim: z.number().int().min(1),
    source: z.string().min(1),
    verdict: z.enum(CLAIM_VERDICTS),
    evidence: z.string(),
    summary: z.string(),
  })
  .strict();
/** One line of claims.csv: a claim judged on one source. */
export type ClaimsCsvRow = z.infer<typeof claimsCsvRowSchema>;

/** One row as a claims.csv line (no newline). */
function formatClaimsRow(r: ClaimsCsvRow): string {
  return [String(r.claim), csvCell(r.source), r.verdict, csvCell(r.evidence), csvCell(r.summary)].join(',');
}

/** A whole claims.csv (header + one line per result, trailing newline). */
export function formatClaimsCsv(results: readonly ClaimsCsvRow[]): string {
  return csvFile(CLAIMS_HEADER, results.map(formatClaimsRow));
}

/** Parses claims.csv back into rows; ClaimsCsvError names the line and the cell that is wrong. */
export function parseClaimsCsv(text: string): ClaimsCsvRow[] {
  const body = csvBody(text, CLAIMS_HEADER);
  if (body === null) throw new ClaimsCsvError(`claims.csv: the header must be exactly "${CLAIMS_HEADER}"`);
  return body.map((c, i) => {
    const line = i + 2;
    if (c.length !== CLAIMS_COLUMNS.length) {
      throw new ClaimsCsvError(
        `claims.csv line ${line}: ${c.length} cells, expected ${CLAIMS_COLUMNS.length} (${CLAIMS_HEADER})`,
      );
    }
    const r = claimsCsvRowSchema.safeParse({
      claim: /^\d+$/.test(c[0]) ? Number(c[0]) : c[0],
      source: c[1],
      verdict: c[2],
      evidence: c[3],
      summary: c[4],
    });
    if (!r.success) {
      const issue = r.error.issues[0]!;
      throw new ClaimsCsvError(`claims.csv line ${line}: ${issue.path.join('.')} ${issue.message}`);
    }
    return r.data;
  });
}
