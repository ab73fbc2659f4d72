// The clock-offset estimator on hand-made samples, and measureClockOffset against servers that cannot
// tell their clock: each gives HB_CLOCK_UNAVAILABLE, within the time bound.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { ClockUnavailableError, estimateClockOffset, measureClockOffset } from '../../runtime/index.ts';

describe('estimateClockOffset', () => {
  it('takes the min-RTT sample: offset = ts − (t0 + t1)/2, uncertainty = rtt/2', () => {
    const e = estimateClockOffset([
      { t0: 0, ts: 1005, t1: 4 }, // rtt 4
      { t0: 10, ts: 1011, t1: 11 }, // rtt 1: offset 1011 − 10.5
      { t0: 20, ts: 1020, t1: 22 }, // rtt 2
      { t0: 30, ts: 1031, t1: 31 }, // rtt 1 as well: the first one wins
    ]);
    expect(e).toEqual({ offsetMs: 1000.5, uncertaintyMs: 0.5, rttMs: 1, samples: 4 });
  });

  it('the interval holds the true offset whatever the split between request and reply transit', () => {
    const truth = -250.125;
    for (const up of [0, 0.1, 0.7, 1]) {
      const t0 = 100;
      const t1 = 101;
      const e = estimateClockOffset([{ t0, ts: t0 + up + truth, t1 }]);
      expect(Math.abs(e.offsetMs - truth)).toBeLessThanOrEqual(e.uncertaintyMs + 1e-9);
    }
  });

  it('skips unusable samples and throws when none is left', () => {
    const e = estimateClockOffset([
      { t0: 5, ts: 9, t1: 4 },
      { t0: 0, ts: Number.NaN, t1: 1 },
      { t0: 0, ts: 7, t1: 2 },
    ]);
    expect(e).toEqual({ offsetMs: 6, uncertaintyMs: 1, rttMs: 2, samples: 1 });
    expect(() => estimateClockOffset([])).toThrow(RangeError);
    expect(() => estimateClockOffset([{ t0: 2, ts: 0, t1: 1 }])).toThrow(/none of 1 samples/);
  });
});

describe('measureClockOffset without a clock to read', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) {
      s.closeAllConnections();
      await new Promise((r) => s.close(r));
    }
  });
  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    const s = createServer(handler);
    servers.push(s);
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
    return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  }
  const unavailable = async (target: string, pattern: RegExp, timeoutMs = 2_000): Promise<void> => {
    const err = await measureClockOffset({ target, timeoutMs }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ClockUnavailableError);
    expect((err as ClockUnavailableError).code).toBe('HB_CLOCK_UNAVAILABLE');
    expect((err as Error).message).toMatch(pattern);
  };

  it('a server that 404s /clock', async () => {
    const url = await serve((_q, s) => s.writeHead(404).end('no'));
    await unavailable(url, /GET \/clock: HTTP 404/);
  });

  it('a server whose reply has no nowMs', async () => {
    const url = await serve((_q, s) => s.end('{"now":1}'));
    await unavailable(url, /no numeric nowMs/);
  });

  it('a server that never answers: the error comes at the time bound', async () => {
    const url = await serve(() => {});
    const t = performance.now();
    await unavailable(url, /within 300 ms/, 300);
    expect(performance.now() - t).toBeLessThan(2_000);
  });

  it('nothing listening', async () => {
    const url = await serve(() => {});
    servers[0]!.close();
    await new Promise((r) => setTimeout(r, 10));
    await unavailable(url, /ECONNREFUSED|refused/i);
  });

  it('bounds its options', async () => {
    await expect(measureClockOffset({ target: 'http://127.0.0.1:1', samples: 0 })).rejects.toThrow(
      RangeError,
    );
    await expect(measureClockOffset({ target: 'http://127.0.0.1:1', timeoutMs: 0 })).rejects.toThrow(
      RangeError,
    );
  });
});
