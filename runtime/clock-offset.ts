// Clock offset between this process and a target server: offset = targetClock − ourClock, with a bound.
// Both sides time everything with performance.now() since their own start (SystemClock), so a server-side
// time is put on our timeline as `serverTime − offset`.
//
// Why min-RTT and why uncertainty = rtt/2 (NTP's reasoning, nothing added or taken away): in one exchange
// we read t0 right before the request is written and t1 when the reply's headers arrive, and the server
// read its clock (ts) somewhere in between. So ts − offset lies in [t0, t1], i.e. offset lies in
// [ts − t1, ts − t0]: the midpoint ts − (t0 + t1)/2 is wrong by at most rtt/2, whatever the split between
// request transit, server work and reply transit. That needs only monotonic clocks and no drift within
// one exchange (≪ 1 ms). Nothing is subtracted for the server's own time: it reports one instant, so its
// processing cannot be told from transit. The sample with the smallest rtt gives the tightest bound;
// intersecting every sample's interval would be tighter still but assumes no drift across the whole
// series, which is what the start/end measurements of a point check instead.

import { performance } from 'node:perf_hooks';
import { Client } from 'undici';
import { ClockUnavailableError } from './errors.ts';

/** One exchange: t0 = request written, t1 = reply received (our clock), ts = the server's clock, ms. */
interface ClockSample {
  t0: number;
  ts: number;
  t1: number;
}

/** An estimate of targetClock − ourClock: true offset ∈ [offsetMs − uncertaintyMs, offsetMs + uncertaintyMs]. */
export interface ClockOffset {
  offsetMs: number;
  uncertaintyMs: number;
  /** Round trip of the sample used. */
  rttMs: number;
  /** Usable samples the estimate chose from. */
  samples: number;
}

/** Options of measureClockOffset. */
interface MeasureClockOffsetOptions {
  /** Target origin, `http://host:port`. */
  target: string;
  /** The clock route (default `/clock`, answering `{ nowMs }`). */
  path?: string;
  /** Exchanges, one after another (default 32, 1..1000). */
  samples?: number;
  /** Everything ends within this, ms (default 2 000); the samples got by then are used. */
  timeoutMs?: number;
  /** Our clock (default performance.now); pass the SystemClock whose times the offset must map. */
  now?: () => number;
}

/** Default exchanges per measurement. */
export const CLOCK_SAMPLES = 32;
/** Default time bound of one measurement, ms. */
export const CLOCK_TIMEOUT_MS = 2_000;

/** The min-RTT estimate over `samples` (unusable ones, t1 < t0 or not finite, are skipped); see the header. */
export function estimateClockOffset(samples: readonly ClockSample[]): ClockOffset {
  let best: ClockSample | null = null;
  let n = 0;
  for (const s of samples) {
    if (!(Number.isFinite(s.t0) && Number.isFinite(s.ts) && Number.isFinite(s.t1) && s.t1 >= s.t0)) continue;
    n++;
    if (best === null || s.t1 - s.t0 < best.t1 - best.t0) best = s;
  }
  if (best === null) {
    throw new RangeError(
      `estimateClockOffset: none of ${samples.length} samples is usable; each needs finite t0 <= t1 and ts`,
    );
  }
  const rtt = best.t1 - best.t0;
  return { offsetMs: best.ts - (best.t0 + best.t1) / 2, uncertaintyMs: rtt / 2, rttMs: rtt, samples: n };
}

/**
 * Measures targetClock − ourClock with sequential `GET /clock` exchanges over one keep-alive undici Client
 * (pipelining 1, like the load's connections). Throws ClockUnavailableError when not one exchange succeeds.
 */
export async function measureClockOffset(o: MeasureClockOffsetOptions): Promise<ClockOffset> {
  const n = o.samples ?? CLOCK_SAMPLES;
  const timeoutMs = o.timeoutMs ?? CLOCK_TIMEOUT_MS;
  if (!Number.isInteger(n) || n < 1 || n > 1000) {
    throw new RangeError(`measureClockOffset: samples must be a whole number in 1..1000, got ${n}`);
  }
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RangeError(`measureClockOffset: timeoutMs must be a number > 0, got ${timeoutMs}`);
  }
  const path = o.path ?? '/clock';
  const now = o.now ?? (() => performance.now());
  const origin = new URL(o.target).origin;
  const client = new Client(origin, {
    pipelining: 1,
    connectTimeout: timeoutMs,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  // One bound for the whole series: when it passes, the exchange in flight fails and the series stops.
  const timer = setTimeout(() => {
    client.destroy(new Error(`no answer within ${timeoutMs} ms`)).catch(() => {});
  }, timeoutMs);
  const got: ClockSample[] = [];
  let failure: Error | null = null;
  try {
    while (got.length < n) {
      try {
        got.push(await exchange(client, origin, path, now));
      } catch (err) {
        failure = err as Error;
        break;
      }
    }
  } finally {
    clearTimeout(timer);
    await client.destroy().catch(() => {});
  }
  if (got.length === 0) {
    throw new ClockUnavailableError(
      `target ${origin} did not tell its clock (GET ${path}: ${failure?.message ?? 'no answer'}); run a target server that answers GET ${path} with { nowMs }`,
      { cause: failure },
    );
  }
  return estimateClockOffset(got);
}

// One GET; t0 is taken in onConnect, which undici calls right before writing the request (as in
// loadgen/http-transport.ts), and t1 when the reply's headers are parsed — both as close to the wire as we get.
function exchange(client: Client, origin: string, path: string, now: () => number): Promise<ClockSample> {
  return new Promise((resolve, reject) => {
    let t0 = Number.NaN;
    let t1 = Number.NaN;
    let status = 0;
    const chunks: Buffer[] = [];
    client.dispatch(
      { origin, path, method: 'GET' },
      {
        onConnect: () => {
          t0 = now();
        },
        onHeaders: (statusCode: number) => {
          t1 = now();
          status = statusCode;
          return true;
        },
        onData: (chunk: Buffer) => {
          chunks.push(chunk);
          return true;
        },
        onComplete: () => {
          if (status !== 200) {
            reject(new Error(`HTTP ${status}`));
            return;
          }
          const ts = serverNow(Buffer.concat(chunks).toString('utf8'));
          if (ts === null) reject(new Error('the reply has no numeric nowMs'));
          else resolve({ t0, ts, t1 });
        },
        onError: (err: Error) => reject(err),
      },
    );
  });
}

function serverNow(text: string): number | null {
  try {
    const v = (JSON.parse(text) as { nowMs?: unknown }).nowMs;
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  } catch {
    return null;
  }
}
