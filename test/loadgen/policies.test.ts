// Issue 40's policies on the real clock: the load generator against the real target server on 127.0.0.1.
// The model's failures are answered 503 (gRPC: UNAVAILABLE) and first-success outwaits them — the call
// succeeds through the hedge — while 'hedge-now' hedges at once and counts it in the call records; the
// target's pushback reaches the library (a header, or trailing metadata) and a budget that honours it
// sends fewer hedges than one that does not. A few seconds of load each.
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../contract/index.ts';
import type { HedgeBudgetShape } from '../../library/index.ts';
import { createGrpcTransport } from '../../loadgen/grpc-transport.ts';
import { type AttemptOutcome, createTransport, type Transport } from '../../loadgen/http-transport.ts';
import { createLoadGenerator } from '../../loadgen/load-generator.ts';
import type { LoadGeneratorOptions } from '../../loadgen/loadgen-options.ts';
import { attemptFails, DEFAULT_MODEL, type HedgeConfig, type ModelParams } from '../../model/index.ts';
import { createTargetServer, type TargetServer } from '../../target-server/index.ts';

let target: TargetServer;
beforeAll(async () => {
  target = await createTargetServer({
    workers: 4,
    seed: 1,
    cancellation: 'propagate',
    grpcPort: 0,
    log: () => {},
  });
});
afterAll(async () => {
  await target.close({ graceMs: 500 });
});

/** PUT /config: the target's model for the next point (the orchestrator's way of setting it). */
async function configure(body: object): Promise<void> {
  const res = await request(`${target.url}/config`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  expect(res.statusCode, text).toBe(200);
}

async function settle(): Promise<void> {
  for (let i = 0; i < 200 && target.stats().inFlight > 0; i++) await new Promise((r) => setTimeout(r, 20));
}

/** Sets the target to `model` (PUT /config), then runs one point of `config` against it. */
async function runPoint(
  model: Partial<ModelParams>,
  config: HedgeConfig,
  extra: Partial<LoadGeneratorOptions> = {},
) {
  await settle();
  await configure({ model, workers: 4 });
  const records: CallRecord[] = [];
  const result = await createLoadGenerator({
    target: target.url,
    grpcTarget: target.grpcAddress!,
    config,
    load: 0.6,
    calls: 250,
    seed: 1,
    warmupFraction: 0,
    model: { workers: 4, ...model },
    statusIntervalMs: 50,
    // A short warm-up: these points are small, and the default 2 000 calls would take seconds each.
    warmRequests: 50,
    onCall: (r) => records.push(r),
    ...extra,
  }).run();
  await settle();
  records.sort((a, b) => a.call - b.call);
  return { result, records };
}

describe('failures of the model on the real clock', () => {
  const failing: Partial<ModelParams> = { errorProb: 0.2, errorMs: 1 };
  const m: ModelParams = { ...DEFAULT_MODEL, workers: 4, ...failing };
  // Calls whose first attempt fails and whose hedge does not: first-success must win them with the hedge.
  const rescued = (records: CallRecord[]) =>
    records.filter((r) => attemptFails(m, 1, r.call, 1) && !attemptFails(m, 1, r.call, 2));

  for (const transport of ['http1', 'grpc'] as const) {
    it(`${transport}: first-success outwaits the fast error; the call succeeds through the hedge`, async () => {
      const { result, records } = await runPoint(
        failing,
        { name: 'fs', hedge: { delayMs: 20, budgetPercent: 0 } },
        { transport },
      );
      expect(result.state).toBe('done');
      expect(records).toHaveLength(250);
      const failure = transport === 'grpc' ? 'gRPC UNAVAILABLE' : 'HTTP 503';
      expect(Object.keys(result.attemptFailures)).toEqual([failure]);
      const r = rescued(records);
      expect(r.length).toBeGreaterThan(30);
      for (const c of r) {
        expect(c).toMatchObject({ outcome: 'ok', winner: 2, attempts: 2, hedgedOnError: 0 });
        // The timer sent the hedge: no sooner than 20 ms after the call's intended start.
        expect(c.latencyMs).toBeGreaterThanOrEqual(20);
      }
      // A call fails only when each of its attempts was drawn to fail.
      for (const c of records.filter((x) => x.outcome === 'failed')) {
        expect(attemptFails(m, 1, c.call, 1) && attemptFails(m, 1, c.call, 2)).toBe(true);
      }
    });
  }

  it("'hedge-now' hedges at once on the 503, and the call records count it", async () => {
    // A long timer, so that the failure, not the timer, starts the hedge even through a stall of this
    // shared machine (stalls of 100+ ms were seen here while other tests ran).
    const { result, records } = await runPoint(failing, {
      name: 'now',
      hedge: { delayMs: 250, budgetPercent: 0, loneFailure: 'hedge-now' },
    });
    expect(result.state).toBe('done');
    const r = rescued(records);
    expect(r.length).toBeGreaterThan(30);
    for (const c of r) expect(c).toMatchObject({ outcome: 'ok', winner: 2 });
    // The 503 came back before the timer: the hedge was one on error. Had the timer sent them, every one
    // would end after 250 ms; the median says most did not wait for it, while a stall of this shared
    // machine (CI saw 8 of 44 such calls pass 250 ms with the suite's other files running) may still hold
    // back a few.
    const onError = r.filter((c) => c.hedgedOnError === 1);
    expect(onError.length / r.length).toBeGreaterThan(0.8);
    const sorted = onError.map((c) => c.latencyMs).sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThan(250);
    // And a hedge on error follows a failure, never a slow success.
    for (const c of records.filter((x) => x.hedgedOnError! > 0))
      expect(attemptFails(m, 1, c.call, 1)).toBe(true);
  });
});

describe('pushback on the real clock', () => {
  // Four workers, a hedge 10 ms after each start and a 50 % budget: about half the calls hedge (the
  // simulator: 0.52 of them, 0.22 when the budget honours pushback), the queue is often longer than 1, and a
  // response leaving it so asks for 200 ms without hedges.
  const pushing: Partial<ModelParams> = { pushback: { queueAbove: 1, ms: 200 } };
  const hedge = (budget?: HedgeBudgetShape): HedgeConfig => ({
    name: budget ? 'honours' : 'ignores',
    hedge: { delayMs: 10, budgetPercent: 50, ...(budget ? { budget } : {}) },
  });

  it('a budget that honours it sends fewer hedges than one that does not, and counts the refusals as skipped', async () => {
    const ignores = await runPoint(pushing, hedge(), { calls: 400 });
    const honours = await runPoint(pushing, hedge({ kind: 'ratio', pushback: true }), { calls: 400 });
    for (const r of [ignores, honours]) expect(r.result.state).toBe('done');
    const hedged = (rs: CallRecord[]) => rs.filter((c) => c.attempts > 1).length;
    const skipped = (rs: CallRecord[]) => rs.filter((c) => c.skipped > 0).length;
    expect(hedged(ignores.records)).toBeGreaterThan(100);
    expect(hedged(honours.records)).toBeLessThan(hedged(ignores.records) * 0.75);
    expect(skipped(honours.records)).toBeGreaterThan(skipped(ignores.records));
  });

  for (const kind of ['http1', 'grpc'] as const) {
    it(`${kind} transport: reads the pushback into the outcome only when asked to`, async () => {
      await settle();
      await configure({ model: { service: { kind: 'constant', ms: 30 }, ...pushing }, workers: 1 });
      const make = (readPushback: boolean): Transport =>
        kind === 'grpc'
          ? createGrpcTransport({ address: target.grpcAddress!, readPushback })
          : createTransport({ target: target.url, readPushback });
      for (const read of [true, false]) {
        const t = make(read);
        try {
          // One worker, four at once: only the first answer leaves more than one waiting.
          const outcomes = await Promise.all(
            [0, 1, 2, 3].map((c) => new Promise<AttemptOutcome>((resolve) => t.send(c, 1, resolve))),
          );
          expect(outcomes.every((o) => o.ok)).toBe(true);
          const pushed = outcomes.map((o) => o.pushbackMs ?? 0).sort((a, b) => b - a);
          expect(pushed).toEqual(read ? [200, 0, 0, 0] : [0, 0, 0, 0]);
        } finally {
          await t.destroy();
        }
        await settle();
      }
    });
  }
});
