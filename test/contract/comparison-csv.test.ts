// comparison.csv (contract/comparison-csv.ts): rows written then read give the same values and bytes; a
// file with the wrong header or an unknown verdict gets a ComparisonCsvError naming it.
import { describe, expect, it } from 'vitest';
import {
  COMPARISON_HEADER,
  ComparisonCsvError,
  type ComparisonRow,
  formatComparisonCsv,
  formatComparisonRow,
  parseComparisonCsv,
} from '../../contract/index.ts';

const base = { config: 'hedge, default budget', load: 0.5, cancellation: 'ignore', seed: 1 } as const;
const rows: ComparisonRow[] = [
  {
    ...base,
    metric: 'p99',
    sim: 41.5,
    real: 40,
    realCiLow: 38.25,
    realCiHigh: null,
    allowance: -2.5,
    diff: 1.5,
    diffCiLow: -0.25,
    diffCiHigh: null,
    margin: 1.245,
    verdict: 'agrees',
  },
  {
    ...base,
    metric: 'rejected_rate',
    sim: 0,
    real: 0.01,
    realCiLow: null,
    realCiHigh: null,
    allowance: null,
    diff: -0.01,
    diffCiLow: -0.012,
    diffCiHigh: -0.008,
    margin: 0.005,
    verdict: 'diverges',
  },
  {
    ...base,
    metric: 'collapse',
    sim: 1,
    real: 0,
    realCiLow: null,
    realCiHigh: null,
    allowance: null,
    diff: null,
    diffCiLow: null,
    diffCiHigh: null,
    margin: null,
    verdict: 'collapse-mismatch',
  },
];

describe('comparison.csv', () => {
  it('writes fixed decimals per metric and reads back the same rows and bytes', () => {
    const text = formatComparisonCsv(rows);
    expect(text.split('\n')[0]).toBe(COMPARISON_HEADER);
    expect(formatComparisonRow(rows[0])).toBe(
      '"hedge, default budget",0.50,ignore,1,p99,41.500,40.000,38.250,,-2.500,1.500,-0.250,,1.245,agrees',
    );
    expect(text.split('\n')[3]).toBe(
      '"hedge, default budget",0.50,ignore,1,collapse,true,false,,,,,,,,collapse-mismatch',
    );
    expect(parseComparisonCsv(text)).toEqual(rows);
    expect(formatComparisonCsv(parseComparisonCsv(text))).toBe(text);
  });

  it('a wrong header or an unknown verdict gets a ComparisonCsvError naming it', () => {
    expect(() => parseComparisonCsv('config,load\n')).toThrow(ComparisonCsvError);
    expect(() => parseComparisonCsv('config,load\n')).toThrow(/header must be exactly/);
    const bad = formatComparisonCsv(rows).replace(',agrees\n', ',agreed\n');
    expect(() => parseComparisonCsv(bad)).toThrow(/unknown verdict "agreed"/);
  });
});
