// claims.csv (contract/claims-csv.ts): rows written then read give the same values; a malformed line gets a
// ClaimsCsvError naming the line and the cell.
import { describe, expect, it } from 'vitest';
import {
  CLAIMS_HEADER,
  ClaimsCsvError,
  type ClaimsCsvRow,
  formatClaimsCsv,
  parseClaimsCsv,
} from '../../contract/index.ts';

const rows: ClaimsCsvRow[] = [
  { claim: 1, source: 'sim', verdict: 'holds', evidence: 'p99 40.0 < 80.0; rpc 1.02', summary: 'holds.' },
  {
    claim: 5,
    source: 'sim+net',
    verdict: 'inconclusive',
    evidence: '',
    summary: 'inconclusive: missing point `hedge, default budget, adaptive limit` 0.95, "quoted"',
  },
];

describe('claims.csv', () => {
  it('writes one line per result under the header and reads back the same rows', () => {
    const text = formatClaimsCsv(rows);
    expect(text.split('\n')[0]).toBe(CLAIMS_HEADER);
    expect(text.split('\n')[1]).toBe('1,sim,holds,p99 40.0 < 80.0; rpc 1.02,holds.');
    expect(parseClaimsCsv(text)).toEqual(rows);
    expect(formatClaimsCsv(parseClaimsCsv(text))).toBe(text);
    // Extra fields of a claim result (its per-seed verdicts) are not columns.
    expect(formatClaimsCsv([{ ...rows[0], perSeed: [] } as ClaimsCsvRow])).toBe(formatClaimsCsv([rows[0]]));
  });

  it('a malformed file gets a ClaimsCsvError naming the problem', () => {
    expect(() => parseClaimsCsv('claim,source\n')).toThrow(ClaimsCsvError);
    expect(() => parseClaimsCsv('claim,source\n')).toThrow(/header must be exactly/);
    expect(() => parseClaimsCsv(`${CLAIMS_HEADER}\n1,sim,maybe,,\n`)).toThrow(/line 2: verdict/);
    expect(() => parseClaimsCsv(`${CLAIMS_HEADER}\nx,sim,holds,,\n`)).toThrow(/line 2: claim/);
    expect(() => parseClaimsCsv(`${CLAIMS_HEADER}\n1,sim,holds\n`)).toThrow(/line 2: 3 cells, expected 5/);
  });
});
