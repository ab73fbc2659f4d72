// `hedgebench claims` as a function: a folder in, claims.csv written there, the printed text returned.

import { join } from 'node:path';
import { formatClaimsCsv, RUN_FILES } from '../../contract/index.ts';
import { writeFileAtomicSync } from '../../runtime/index.ts';
import type { ClaimResult } from './claim-row.ts';
import { readClaimsInput } from './claims-input.ts';
import { formatClaimsTable } from './claims-table.ts';
import { CLAIMS, evaluateClaims } from './evaluate.ts';

/** What `claims` produced. */
interface ClaimsOutcome {
  results: ClaimResult[];
  sources: string[];
  /** The table, reasons and seed line, as printed. */
  text: string;
  notes: string[];
  file: string;
}

/** Evaluates every claim on the folder's rows and writes `<dir>/claims.csv` (throws RunFolderError on a non-run). */
export function writeClaims(dir: string): ClaimsOutcome {
  const input = readClaimsInput(dir);
  const results = evaluateClaims(input.rows, input.sources);
  const file = join(dir, RUN_FILES.claims);
  writeFileAtomicSync(file, formatClaimsCsv(results));
  const text = formatClaimsTable(CLAIMS, results, input.sources);
  return { results, sources: input.sources, text, notes: input.notes, file };
}
