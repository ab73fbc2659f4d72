// A tied point's figures from its raw files (analysis/read/tied-figures.ts): attempts.csv with the peer-cancel
// columns read back (and files without them still read), the extra work as the simulator counts it, the peer
// cancels of measured calls, their transit in model ms (attribution.csv's `tie_cancel`), and the report's
// section, present only when the run has a tied configuration.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMPONENTS } from '../../analysis/judge/attribution.ts';
import type { PointAnalysis } from '../../analysis/judge/point-analysis.ts';
import type { RunAnalysis } from '../../analysis/judge/run-analysis.ts';
import { type RawCalls, readAttemptsCsv } from '../../analysis/read/raw-files.ts';
import { extraServiceShare, tiedFigures } from '../../analysis/read/tied-figures.ts';
import { toMarkdown } from '../../analysis/report/report-doc.ts';
import { tiedBlocks } from '../../analysis/report/tied-report.ts';
import { attributionRows } from '../../analysis/write/attribution-rows.ts';
import {
  type AttemptEnd,
  attemptFields,
  attemptLine,
  type PeerCancelFate,
  type PointRow,
  tiedAttemptCells,
} from '../../contract/index.ts';

const T0 = 1_700_000_000_000;

/** One attempt line of a tied point (times on its server's clock; the cancels' on the shared epoch clock). */
function line(
  call: number,
  attempt: number,
  replica: number,
  a: {
    start?: number;
    end: number;
    ended: AttemptEnd;
    service: number;
    sent?: number;
    arrived?: number;
    fate?: PeerCancelFate;
    decided?: number;
  },
): string {
  const start = a.start ?? Number.NaN;
  const arrivedMs = a.arrived ?? Number.NaN;
  const cells = tiedAttemptCells({
    sentMs: a.sent ?? Number.NaN,
    arrivedMs,
    fate: a.fate,
    decidedMs: a.decided ?? arrivedMs,
  });
  return attemptLine(
    call,
    attempt,
    0,
    start,
    a.end,
    a.ended,
    Number.isNaN(start) ? -1 : 0,
    a.service,
    Number.NaN,
    replica,
    cells,
  );
}

function calls(winners: [number, number][]): RawCalls {
  const n = winners.length;
  const f = (xs: number[]) => Float64Array.from(xs);
  return {
    n,
    call: f(winners.map(([c]) => c)),
    intendedMs: new Float64Array(n),
    sendLagMs: new Float64Array(n),
    latencyMs: new Float64Array(n).fill(10),
    outcome: new Uint8Array(n),
    attempts: new Float64Array(n).fill(2),
    skipped: new Float64Array(n),
    winner: f(winners.map(([, w]) => w)),
    winnerWrittenMs: new Float64Array(n),
  };
}

function writeAttempts(lines: string[], tied = true): string {
  const path = join(mkdtempSync(join(tmpdir(), 'hb-tied-')), 'p.attempts.csv');
  writeFileSync(path, `${[attemptFields(2, tied).join(','), ...lines].join('\n')}\n`);
  return path;
}

// Call 0: copy 1 started on replica 0 and removed copy 2 from replica 1's queue (0.4 ms later there).
// Call 1: copy 2 was dropped on arrival at replica 1. Call 2: both started, copy 2 second (too late, 0.6 ms);
// it was cut short after 4 ms (propagate). Call 3: the warm-up's, not measured.
const LINES = [
  line(0, 1, 0, { start: 1, end: 11, ended: 'served', service: 10, sent: T0 + 1 }),
  line(0, 2, 1, {
    end: 2,
    ended: 'cancelled-queued',
    service: 12,
    arrived: T0 + 1.4,
    fate: 'removed',
    decided: T0 + 1.45,
  }),
  line(1, 1, 0, { start: 20, end: 30, ended: 'served', service: 10, sent: T0 + 20 }),
  line(1, 2, 1, { end: 21, ended: 'cancelled-queued', service: 9, arrived: T0 + 20.5, fate: 'dropped' }),
  line(2, 1, 0, {
    start: 40,
    end: 50,
    ended: 'served',
    service: 10,
    sent: T0 + 40,
    arrived: T0 + 40.7,
    fate: 'too-late',
  }),
  line(2, 2, 1, {
    start: 40.1,
    end: 44.1,
    ended: 'cancelled-in-service',
    service: 11,
    sent: T0 + 40.1,
    arrived: T0 + 40.6,
    fate: 'too-late',
  }),
  line(3, 1, 0, { start: 60, end: 70, ended: 'served', service: 10, sent: T0 + 60 }),
];

describe('a tied point’s raw figures', () => {
  it('reads attempts.csv with the peer-cancel columns, and without them as before', () => {
    const a = readAttemptsCsv(writeAttempts(LINES));
    expect(a.n).toBe(7);
    expect(Array.from(a.replica!)).toEqual([0, 1, 0, 1, 0, 1, 0]);
    expect(Array.from(a.tied!.fate)).toEqual([0, 1, 0, 2, 3, 3, 0]);
    expect(a.tied!.sentMs[0]).toBe(T0 + 1);
    expect(Number.isNaN(a.tied!.arrivedMs[0])).toBe(true);
    expect(a.tied!.decidedMs[1]).toBe(T0 + 1.45);
    expect(Number.isNaN(a.tied!.decidedMs[0])).toBe(true);
    const plain = LINES.map((l) => l.split(',').slice(0, 10).join(','));
    expect(readAttemptsCsv(writeAttempts(plain, false)).tied).toBeUndefined();
  });

  it('reads a tied file written before the decision was stamped: decided reads NaN', () => {
    const path = writeAttempts([]);
    const header = attemptFields(2, true).filter((f) => f !== 'peer_cancel_decided_ms');
    writeFileSync(
      path,
      `${[header.join(','), ...LINES.map((l) => l.slice(0, l.lastIndexOf(',')))].join('\n')}\n`,
    );
    const a = readAttemptsCsv(path);
    expect(Array.from(a.tied!.fate)).toEqual([0, 1, 0, 2, 3, 3, 0]);
    expect(a.tied!.arrivedMs[1]).toBe(T0 + 1.4);
    expect(Array.from(a.tied!.decidedMs).every(Number.isNaN)).toBe(true);
  });

  it('the extra work: the losers’ service over all service of measured calls', () => {
    const a = readAttemptsCsv(writeAttempts(LINES));
    const c = calls([
      [0, 1],
      [1, 1],
      [2, 1],
    ]);
    // Winners 10 + 10 + 10; losers 0 (removed) + 0 (dropped) + 4 (cut short): 4 / 34.
    expect(extraServiceShare(c, a)).toBeCloseTo(4 / 34, 12);
    // An untied loser served in full counts its whole draw.
    expect(extraServiceShare(calls([[2, 2]]), a)).toBeCloseTo(10 / 14, 12);
  });

  it('counts the measured calls’ peer cancels as the simulator does, and their transit in model ms', () => {
    const a = readAttemptsCsv(writeAttempts(LINES));
    const c = calls([
      [0, 1],
      [1, 1],
      [2, 1],
    ]);
    const status = { target_check: { peerCancel: { failed: 2 } } } as never;
    const f = tiedFigures(c, a, status, 2, 2)!;
    expect(f.counts).toEqual({
      sent: 4,
      removed: 1,
      droppedOnArrival: 1,
      tooLate: 1,
      callsBothRan: 1,
      failed: 2,
    });
    // (arrived − the sibling's sent) ÷ k = 2: call 0 0.4, call 1 0.5, call 2 0.6 and 0.6 (ms wall) → model ms.
    expect(Array.from(f.transitMs).map((x) => +x.toFixed(3))).toEqual([0.2, 0.25, 0.3, 0.3]);
    expect(
      tiedFigures(
        c,
        readAttemptsCsv(
          writeAttempts(
            LINES.map((l) => l.split(',').slice(0, 10).join(',')),
            false,
          ),
        ),
        null,
        2,
        1,
      ),
    ).toBeNull();
    const rows = attributionRows(
      { config: 't', load: '0.50', cancellation: 'ignore', seed: 1 },
      {
        parts: Object.fromEntries(COMPONENTS.map((c) => [c, new Float64Array()])),
        latency: new Float64Array(),
        transit: new Float64Array(),
        withoutHarness: new Float64Array(),
      } as never,
      undefined,
      f.transitMs,
    );
    // Epoch ms keep µs (1.7e12 ms in a double: ~0.2 µs apart).
    expect(rows.at(-1)).toMatchObject({ part: 'tie_cancel', n: 4 });
    expect(rows.at(-1)!.max).toBeCloseTo(0.3, 3);
  });

  it('the report’s section: only with a tied configuration; sim and real p99.9 and extra work side by side', () => {
    const row = (source: 'sim' | 'real', p999: number, extra: number): PointRow =>
      ({ p999_ms: p999, p99_ms: p999, collapsed: false, extra_service_share: extra, source }) as PointRow;
    const point = (config: string, tied: PointAnalysis['tied']): PointAnalysis =>
      ({
        id: { config, load: 0.5, cancellation: 'ignore', seed: 1, replicas: 2 },
        entry: { state: 'done' },
        sim: row('sim', 289, 0),
        real: row('real', 291, 0.001),
        rows: [],
        tied,
      }) as unknown as PointAnalysis;
    const f = tiedFigures(calls([[0, 1]]), readAttemptsCsv(writeAttempts(LINES)), null, 2, 1)!;
    const matrix = (configs: object[]) => ({ configs, loads: [0.5], cancellation: ['ignore'], seeds: [1] });
    const analysis = (configs: object[], points: PointAnalysis[]) =>
      ({ manifest: { matrix: matrix(configs) }, points, calibrations: [] }) as unknown as RunAnalysis;
    expect(tiedBlocks(analysis([{ name: 'no hedge' }], [point('no hedge', null)]))).toEqual([]);
    const md = toMarkdown(
      tiedBlocks(
        analysis(
          [{ name: 'no hedge' }, { name: 'tied', tied: { gapMs: 1 } }],
          [point('no hedge', null), point('tied', f)],
        ),
      ),
    );
    expect(md).toMatch(/## Tied requests/);
    expect(md).toMatch(/\| tied · 2 replicas \| 289\.0 · 0\.0 % \| 291\.0 · 0\.1 % \|/);
    expect(md).toMatch(/\| tied · 2 replicas \| 0\.50 \| ignore \| 1 \| 1 \| 1 \| 0 \| 0 \| 0 \| — \|/);
  });
});
