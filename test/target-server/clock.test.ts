// GET /clock and the injected clock skew: the target tells the clock its records use, and the offset
// estimated from another process equals the true offset (known on one machine from both timeOrigins)
// within the estimate's own uncertainty.
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureClockOffset } from '../../runtime/index.ts';
import { readClockSkew, TargetOptionsError } from '../../target-server/index.ts';
import { useFixtures } from './fixtures.ts';
import { call } from './http.ts';
import { startTargetProcess, type TargetProcess } from './target-process.ts';

const fx = useFixtures();
const SKEW_MS = 1234.5;

describe('GET /clock', () => {
  it("answers the target clock's now() (skew included) and its timeOrigin; 404s list the route", async () => {
    await fx.withServer({ clock: { offsetMs: SKEW_MS } }, async (s) => {
      const before = s.clock.now();
      const r = await call(fx.agent, `${s.url}/clock`);
      const after = s.clock.now();
      expect(r.status).toBe(200);
      expect(r.body.nowMs).toBeGreaterThanOrEqual(before);
      expect(r.body.nowMs).toBeLessThanOrEqual(after);
      // The skew, bracketed by two reads of the process clock (a single pair of reads can be preempted);
      // 1 ns of slack for the rounding of adding and removing it.
      const p0 = performance.now();
      const skewed = s.clock.now();
      const p1 = performance.now();
      expect(skewed - SKEW_MS).toBeGreaterThanOrEqual(p0 - 1e-6);
      expect(skewed - SKEW_MS).toBeLessThanOrEqual(p1 + 1e-6);
      expect(r.body.timeOriginMs).toBe(performance.timeOrigin);
      const nf = await call(fx.agent, `${s.url}/nope`);
      expect(nf.body.error.message).toMatch(/GET \/clock/);
    });
  });

  it('HEDGEBENCH_CLOCK_SKEW_MS: unset = none, a number = that skew, anything else = a clear error', () => {
    expect(readClockSkew({})).toBeUndefined();
    expect(readClockSkew({ HEDGEBENCH_CLOCK_SKEW_MS: ' -12.25 ' })).toBe(-12.25);
    expect(() => readClockSkew({ HEDGEBENCH_CLOCK_SKEW_MS: '12ms' })).toThrow(TargetOptionsError);
  });
});

describe('offset to a target server in another process', () => {
  let target: TargetProcess;
  beforeAll(async () => {
    target = await startTargetProcess([], { HEDGEBENCH_CLOCK_SKEW_MS: String(SKEW_MS) });
  }, 40_000);
  afterAll(async () => {
    await target?.stop();
  });

  it('equals our timeOrigin − target.timeOrigin + skew within its uncertainty + 0.1 ms', async () => {
    const r = await call(fx.agent, `${target.url}/clock`);
    // performance.now() counts from each process's timeOrigin (wall clock at start): at one instant T,
    // target − ours = (T − its origin + skew) − (T − our origin) = our origin − its origin + skew.
    const truth = performance.timeOrigin - r.body.timeOriginMs + SKEW_MS;
    const est = await measureClockOffset({ target: target.url });
    expect(est.samples).toBe(32);
    expect(est.uncertaintyMs).toBe(est.rttMs / 2);
    expect(Math.abs(est.offsetMs - truth)).toBeLessThanOrEqual(est.uncertaintyMs + 0.1);
  });
});
