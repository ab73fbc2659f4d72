// results/README.md is the user's reference for what a run writes: every column the writers put in
// points.csv (with every dimension's column), the raw files, comparison.csv and comparison-net.csv,
// attribution.csv and claims.csv must be documented in its file's section, and a points.csv or claims.csv
// table must name no column the writers do not write, so the page cannot drift from the code. The columns
// are read from the code (the writers' headers, DIMENSIONS), so a new one fails here until it is documented.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ATTEMPT_REPLICA_FIELD,
  attemptFields,
  CALL_FIELDS,
  EXTRA_POINT_COLUMNS,
  formatAttributionCsv,
  formatClaimsCsv,
  formatComparisonCsv,
  formatPointsCsv,
} from '../../contract/index.ts';
import { DIMENSIONS } from '../../model/index.ts';

const doc = readFileSync(new URL('../../results/README.md', import.meta.url), 'utf8');

/** The text of the section headed `## <title>`, up to the next `## ` heading. */
function section(title: string): string {
  const lines = doc.split('\n');
  const start = lines.indexOf(`## ${title}`);
  expect(start, `a section "## ${title}" in results/README.md`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** Every `name` in backticks of a text (a column name: lower case, digits, underscores). */
function named(text: string): Set<string> {
  return new Set([...text.matchAll(/`([a-z][a-z0-9_]*)`/g)].map((m) => m[1]));
}

/** The first-column names of every table of `text` whose header starts with `| column`. */
function tableColumns(text: string): string[] {
  const out: string[] = [];
  let inTable = false;
  for (const l of text.split('\n')) {
    if (l.startsWith('| column')) inTable = true;
    else if (!l.startsWith('|')) inTable = false;
    else if (inTable && !l.startsWith('| ---'))
      out.push(...[...l.split('|')[1].matchAll(/`([a-z][a-z0-9_]*)`/g)].map((m) => m[1]));
  }
  return out.sort();
}

/** The header line of a CSV text, as a list of columns. */
const headerOf = (csv: string): string[] => csv.split('\n')[0].split(',');

const dimensionColumns = DIMENSIONS.map((d) => d.column);

const undocumented = (columns: readonly string[], text: string) => {
  const seen = named(text);
  return columns.filter((c) => !seen.has(c));
};

describe('results/README.md documents every column a run writes', () => {
  it('points.csv: its tables name exactly the base columns, every dimension column and the extra columns', () => {
    const base = headerOf(formatPointsCsv([]));
    expect(tableColumns(section('points.csv'))).toEqual(
      [...base, ...dimensionColumns, ...EXTRA_POINT_COLUMNS].sort(),
    );
  });

  it('raw calls.csv and attempts.csv: every field, and the replica column', () => {
    const text = section('raw/<slug>.calls.csv and raw/<slug>.attempts.csv');
    expect(undocumented(CALL_FIELDS, text)).toEqual([]);
    expect(undocumented([...attemptFields(2)], text)).toEqual([]);
    expect(attemptFields(2)).toContain(ATTEMPT_REPLICA_FIELD);
  });

  it('comparison.csv (and comparison-net.csv, the same writer): the exact header, each column in the table', () => {
    const text = section('comparison.csv');
    const header = headerOf(formatComparisonCsv([]));
    expect(text).toContain(`Columns, exactly: \`${header.join(',')}\`.`);
    expect(tableColumns(text)).toEqual([...header].sort());
    expect(text).toMatch(/`comparison-net\.csv` has the same columns/);
    // The dimension columns follow, as in points.csv, whose section lists them (checked above).
    expect(text).toMatch(/Dimension columns/);
  });

  it('attribution.csv: every column, and that the dimension columns follow', () => {
    const text = section('attribution.csv');
    expect(undocumented(headerOf(formatAttributionCsv([])), text)).toEqual([]);
    expect(text).toMatch(/dimension columns/);
  });

  it('claims.csv: its table names exactly the columns', () => {
    expect(tableColumns(section('claims.csv'))).toEqual(headerOf(formatClaimsCsv([])).sort());
  });
});
