// The raw-file scanner reads numbers exactly as Number() does, and refuses lines with a missing or an extra
// field, naming the file and the line.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RawFileError } from '../../analysis/errors.ts';
import { CsvScanner } from '../../analysis/read/csv-scan.ts';

function scan(body: string, fields: number): number[][] {
  const sc = new CsvScanner(`a,b\n${body}`, 'x.csv');
  sc.header('a,b');
  const n = sc.countRecords();
  const out: number[][] = [];
  for (let i = 0; i < n; i++) {
    const row: number[] = [];
    for (let k = 0; k < fields; k++) row.push(sc.num(fields));
    sc.endRecord(fields);
    out.push(row);
  }
  return out;
}

describe('CsvScanner', () => {
  it('parses decimals to the same double as Number()', () => {
    fc.assert(
      fc.property(fc.double({ min: -1e9, max: 1e9, noNaN: true }), fc.integer({ min: 0, max: 6 }), (x, d) => {
        const cell = x.toFixed(d);
        expect(Object.is(scan(`${cell},1\n`, 2)[0][0], Number(cell))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads empty fields as NaN, exponents and long numbers through Number(), CRLF and no final newline', () => {
    expect(scan(',1.5e3\r\n12345678901234567890,-0.25', 2)).toEqual([
      [Number.NaN, 1500],
      [Number('12345678901234567890'), -0.25],
    ]);
  });

  it('refuses a line with a missing or an extra field, or a non-number', () => {
    expect(() => scan('1\n', 2)).toThrow(/x\.csv line 2: "1" has 1 fields, expected 2/);
    expect(() => scan('1,2,3\n', 2)).toThrow(/line 2: "1,2,3" has more than 2 fields/);
    expect(() => scan('1,2\n1,abc\n', 2)).toThrow(RawFileError);
    expect(() => scan('1,2\n1,abc\n', 2)).toThrow(/line 3: "1,abc" "abc" is not a number/);
  });

  it('refuses a wrong header with HB_RAW_FILE_INVALID', () => {
    const sc = new CsvScanner('b,a\n1,2\n', 'y.csv');
    expect(() => sc.header('a,b')).toThrow(/y\.csv: the header is "b,a" but must be exactly "a,b"/);
  });
});
