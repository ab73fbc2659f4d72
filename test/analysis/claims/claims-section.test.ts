// The report's claims section: at the top of the report, one row per claim and a column per source.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeRun } from '../../../analysis/index.ts';
import { claimsBlocks } from '../../../analysis/report/claims-section.ts';
import { toMarkdown } from '../../../analysis/report/report-doc.ts';
import { reportBlocks } from '../../../analysis/report/run-report.ts';
import { VERDICT_POINTS, writeFixtureRun } from '../fixture.ts';

let run: string;

beforeAll(() => {
  run = writeFixtureRun(VERDICT_POINTS);
});

afterAll(() => rmSync(run, { recursive: true, force: true }));

describe('the claims section of the report', () => {
  it('has a verdict per claim the matrix has points for and per source, and the reasons', () => {
    const blocks = claimsBlocks(analyzeRun(run));
    expect(blocks[0]).toEqual({ kind: 'heading', level: 2, text: "The study's claims" });
    const table = blocks.find((b) => b.kind === 'table');
    // sim+net: the analysis's own rows, from the transport the calibration point measured (the report is a
    // function of the analysis; points.csv on disk plays no part).
    expect(table?.kind === 'table' && table.head).toEqual([
      'claim',
      'the study says',
      'sim',
      'real',
      'sim+net',
    ]);
    expect(table?.kind === 'table' && table.rows.map((r) => r[0])).toEqual([
      '1 light load: hedging works',
      '2 no budget: collapse at high load',
    ]);
    const list = blocks.find((b) => b.kind === 'list');
    // The fixture's `hedge, no budget` 0.95 point failed its self-check; it has no `3 attempts` point.
    expect(list?.kind === 'list' && list.items.join('\n')).toContain(
      'claim 2, real: inconclusive: invalid point `hedge, no budget` 0.95 ignore seed 1 (failed its self-check); missing point `3 attempts, no budget` 0.95 ignore seed 1',
    );
  });

  it('comes first in report.md, right after the header, before the agreement grid', () => {
    const md = toMarkdown(reportBlocks(analyzeRun(run), []));
    const claims = md.indexOf("## The study's claims");
    expect(claims).toBeGreaterThan(0);
    expect(claims).toBeLessThan(md.indexOf('## Where simulation and measurement agree'));
    expect(claims).toBeLessThan(md.indexOf('## Latency p99 / p99.9'));
  });
});

describe('claims this matrix cannot decide', () => {
  it('when it decides none: one sentence naming the presets that do, no table of inconclusive', () => {
    const plain = writeFixtureRun(VERDICT_POINTS.filter((p) => p.config === 'no hedge'));
    try {
      const blocks = claimsBlocks(analyzeRun(plain));
      expect(blocks.some((b) => b.kind === 'table')).toBe(false);
      const text = blocks.find((b) => b.kind === 'paragraph');
      expect(text?.kind === 'paragraph' && text.text).toBe(
        "This matrix can decide none of the study's seven claims: experiments/confirm.json has the points for claims 1–6 and experiments/delay-sweep.json for claim 7 (`hedgebench claims` judges a run of either).",
      );
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });

  it('get one line naming the preset that decides them, not a line per missing point', () => {
    const list = claimsBlocks(analyzeRun(run)).find((b) => b.kind === 'list');
    const items = list?.kind === 'list' ? list.items : [];
    // The fixture has no delay sweep: claim 7 is decided by the delay-sweep preset, on no source here.
    expect(items).toContain(
      'claim 7: this matrix lacks the points it needs; experiments/delay-sweep.json decides it',
    );
    expect(items.some((i) => i.startsWith('claim 7,'))).toBe(false);
    // A claim with some evidence keeps its lines per source.
    expect(items.some((i) => i.startsWith('claim 2, real:'))).toBe(true);
  });
});
