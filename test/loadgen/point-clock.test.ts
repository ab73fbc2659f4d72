// The point's clock offset: measured at both ends of a real point over HTTP, and a target that cannot
// tell its clock makes the point invalid with the reason while the point still returns its data.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../contract/index.ts';
import { createLoadGenerator } from '../../loadgen/load-generator.ts';
import { pointClock } from '../../loadgen/point-clock.ts';
import { type ModelParams, referenceConfig } from '../../model/index.ts';
import { startWorkServer, type WorkServer } from './work-server.ts';

// 200 calls/s at load 1 (see load-generator.test.ts): 100 calls take ~0.5 s.
const MODEL: Partial<ModelParams> = { workers: 2, service: { kind: 'constant', ms: 10 } };

async function runPoint(target: string) {
  const records: CallRecord[] = [];
  const g = createLoadGenerator({
    target,
    config: referenceConfig('no hedge')!,
    load: 1,
    calls: 100,
    seed: 1,
    warmupFraction: 0,
    model: MODEL,
    warmRequests: 50,
    onCall: (r) => records.push(r),
  });
  return { result: await g.run(), records };
}

describe('pointClock', () => {
  const est = (offsetMs: number, uncertaintyMs: number) => ({
    estimate: { offsetMs, uncertaintyMs, rttMs: 2 * uncertaintyMs, samples: 32 },
    error: null,
  });

  it('allows the drift bound plus both uncertainties, and names what exceeds it', () => {
    const ok = pointClock(est(10, 0.2), est(11.25, 0.1), 500, 1);
    expect(ok.reasons).toEqual([]);
    expect(ok.clock.driftMs).toBe(1.25);
    expect(ok.clock.t0AbsMs).toBe(500);
    const bad = pointClock(est(10, 0.2), est(8.6, 0.1), 500, 1);
    expect(bad.reasons).toEqual([
      'clock drift -1.400 ms over the point exceeds 1 ms + the uncertainties 0.200 + 0.100 ms (--clock-drift-ms)',
    ]);
  });

  it('a missing measurement is a reason; a stopped point has no end and no drift', () => {
    const r = pointClock({ estimate: null, error: 'HB_CLOCK_UNAVAILABLE: x' }, est(1, 0.1), 0, 1);
    expect(r.reasons).toEqual(['clock offset at the start not measured: HB_CLOCK_UNAVAILABLE: x']);
    expect(r.clock).toMatchObject({ start: null, driftMs: null });
    expect(pointClock(est(1, 0.1), null, 0, 1)).toMatchObject({
      reasons: [],
      clock: { end: null, driftMs: null },
    });
  });
});

describe('a point over HTTP', () => {
  let srv: WorkServer;
  let noClock: Server;
  let noClockUrl = '';
  beforeAll(async () => {
    srv = await startWorkServer();
    // Answers the work and the warm-up, 404s everything else (/clock among it).
    noClock = createServer((req, res) => {
      if (req.url?.startsWith('/work') || req.url === '/health') res.end('{}');
      else res.writeHead(404).end('no such route');
    });
    await new Promise<void>((r) => noClock.listen(0, '127.0.0.1', () => r()));
    noClockUrl = `http://127.0.0.1:${(noClock.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await srv.close();
    noClock.closeAllConnections();
    await new Promise((r) => noClock.close(r));
  });

  it('records the offset at the start and the end; in one process it is 0 within its uncertainty', async () => {
    const { result, records } = await runPoint(srv.url);
    expect(result.state).toBe('done');
    expect(records).toHaveLength(100);
    const c = result.clock!;
    expect(c.t0AbsMs).toBeGreaterThan(0);
    for (const e of [c.start!, c.end!]) {
      expect(e.samples).toBe(32);
      expect(Math.abs(e.offsetMs)).toBeLessThanOrEqual(e.uncertaintyMs + 1e-6);
    }
    expect(c.driftMs).toBe(c.end!.offsetMs - c.start!.offsetMs);
    expect(result.reasons.filter((r) => r.includes('clock'))).toEqual([]);
  });

  it('a target without GET /clock: the point is invalid with HB_CLOCK_UNAVAILABLE and keeps its data', async () => {
    const { result, records } = await runPoint(noClockUrl);
    expect(result.state).toBe('done');
    expect(result.valid).toBe(false);
    expect(result.reasons).toContainEqual(
      expect.stringMatching(/^clock offset at the start not measured: HB_CLOCK_UNAVAILABLE: .*HTTP 404/),
    );
    expect(result.reasons).toContainEqual(
      expect.stringMatching(/^clock offset at the end not measured: HB_CLOCK_UNAVAILABLE/),
    );
    expect(result.clock).toMatchObject({ start: null, end: null, driftMs: null });
    expect(result.measured.ok).toBe(100);
    expect(records).toHaveLength(100);
  });
});
