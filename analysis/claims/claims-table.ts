// What `hedgebench claims` prints: a table of claims × sources, each verdict's reason, and which claims
// depend on the seed. A pure function: results in, text out.

import { type ClaimDefinition, dependsOnSeed, seedDependentNotes } from './claim.ts';
import type { ClaimResult } from './claim-row.ts';

/**
 * The verdict as a table cell: `holds`, or `holds (2 of 3 seeds)` when the seeds disagree, or
 * `inconclusive (no majority of 12 seeds: 6 fails, 6 holds)` when no verdict has a strict majority.
 */
export function verdictCell(r: ClaimResult): string {
  if (!dependsOnSeed(r)) return r.verdict;
  const count = (v: string) => r.perSeed.filter((s) => s.verdict === v).length;
  const n = count(r.verdict);
  if (n * 2 > r.perSeed.length) return `${r.verdict} (${n} of ${r.perSeed.length} seeds)`;
  const split = [...new Set(r.perSeed.map((s) => s.verdict))].map((v) => `${count(v)} ${v}`);
  return `${r.verdict} (no majority of ${r.perSeed.length} seeds: ${split.join(', ')})`;
}

function pad(s: string, w: number): string {
  return s + ' '.repeat(Math.max(0, w - s.length));
}

/** Which seed gave which verdict: `holds in seeds 1, 2; fails in seed 3`. */
function seedSplit(r: ClaimResult): string {
  const verdicts = [...new Set(r.perSeed.map((s) => s.verdict))];
  return verdicts
    .map((v) => {
      const seeds = r.perSeed.filter((s) => s.verdict === v).map((s) => s.seed);
      return `${v} in seed${seeds.length > 1 ? 's' : ''} ${seeds.join(', ')}`;
    })
    .join('; ');
}

/** The printed table, reasons and seed dependence. */
export function formatClaimsTable(
  defs: readonly ClaimDefinition[],
  results: readonly ClaimResult[],
  sources: readonly string[],
): string {
  const head = ['claim', ...sources];
  const body = defs.map((d) => [
    `${d.claim} ${d.title}`,
    ...sources.map((s) => {
      const r = results.find((x) => x.claim === d.claim && x.source === s);
      return r ? verdictCell(r) : '–';
    }),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => pad(c, widths[i]))
      .join('  ')
      .trimEnd();
  const out = [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line), ''];
  for (const r of results) out.push(`${r.claim} ${r.source}: ${r.summary}`);
  out.push('', seedLine(results));
  return `${out.join('\n')}\n`;
}

/**
 * What depends on the seed: the claims whose verdict differs between seeds, then the reported figures
 * (notes) that differ — or that one seed cannot tell.
 */
export function seedLine(results: readonly ClaimResult[]): string {
  if (results.every((r) => r.perSeed.length <= 1))
    return 'depends on the seed: unknown, the rows have one seed';
  const seedy = results.filter(dependsOnSeed);
  const verdicts =
    seedy.length === 0
      ? 'no verdict (every seed gave the same verdict)'
      : seedy.map((r) => `claim ${r.claim} ${r.source} (${seedSplit(r)})`).join(', ');
  const notes = results.flatMap((r) => seedDependentNotes(r).map((n) => `claim ${r.claim} ${r.source} ${n}`));
  return `depends on the seed: ${verdicts}${notes.length > 0 ? `; figures: ${notes.join(', ')}` : ''}`;
}
