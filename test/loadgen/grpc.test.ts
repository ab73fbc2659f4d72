// The load generator over gRPC against the real target server on 127.0.0.1: hedgebench's own hedging
// (library) over one HTTP/2 connection, grpc-js's hedging from the service config (attempts learned from
// the server), a collapsing point that still holds one connection, and a listener that is not the target.
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallRecord } from '../../contract/index.ts';
import { createGrpcTransport } from '../../loadgen/grpc-transport.ts';
import type { AttemptOutcome } from '../../loadgen/http-transport.ts';
import { createLoadGenerator } from '../../loadgen/load-generator.ts';
import type { LoadGeneratorOptions } from '../../loadgen/loadgen-options.ts';
import { type HedgeConfig, referenceConfig } from '../../model/index.ts';
import { createTargetServer, type TargetServer } from '../../target-server/index.ts';
import { establishedTo } from '../target-server/tcp-connections.ts';
import { until } from './work-server.ts';

let target: TargetServer;
let grpcPort: number;
beforeAll(async () => {
  target = await createTargetServer({
    workers: 16,
    seed: 1,
    cancellation: 'propagate',
    grpcPort: 0,
    log: () => {},
  });
  grpcPort = Number(target.grpcAddress!.split(':')[1]);
});
afterAll(async () => {
  await target.close({ graceMs: 500 });
});

async function settle(): Promise<void> {
  for (let i = 0; i < 200 && target.stats().inFlight > 0; i++) await new Promise((r) => setTimeout(r, 20));
}

async function runPoint(config: HedgeConfig, extra: Partial<LoadGeneratorOptions> = {}) {
  await settle();
  const records: CallRecord[] = [];
  let maxConnections = 0;
  const result = await createLoadGenerator({
    target: target.url,
    transport: 'grpc',
    grpcTarget: target.grpcAddress!,
    config,
    load: 0.3, // ~340 calls/s on the reference model
    calls: 400,
    seed: 1,
    warmupFraction: 0,
    statusIntervalMs: 50,
    onProgress: () => {
      maxConnections = Math.max(maxConnections, establishedTo(grpcPort));
    },
    onCall: (r) => records.push(r),
    ...extra,
  }).run();
  await settle();
  return { result, records, maxConnections };
}

describe('load generator over gRPC', () => {
  it('library hedging: every attempt reaches the server, and one connection carries them all', async () => {
    const before = target.stats();
    const { result, records, maxConnections } = await runPoint(referenceConfig('hedge, no budget')!);
    expect(result.state).toBe('done');
    // Together, so that a call that fails names its reason (one CI run read 399 of 400, cause unrecorded).
    const { ok, rejected, failed } = result.measured;
    expect({ ok, rejected, failed, failures: result.attemptFailures }).toEqual({
      ok: 400,
      rejected: 0,
      failed: 0,
      failures: {},
    });
    const attempts = records.reduce((s, r) => s + r.attempts, 0);
    // 2 % of attempts are 100–300 ms stragglers, far above the 20 ms hedge delay.
    expect(records.filter((r) => r.attempts === 2).length).toBeGreaterThan(0);
    const s = target.stats();
    expect(s.submitted - before.submitted).toBe(attempts);
    const ended = (x: typeof s) => x.served + x.cancelledQueued + x.cancelledInService;
    expect(ended(s) - ended(before)).toBe(attempts);
    expect(maxConnections).toBe(1);
  });

  it('cancelling an attempt resets its stream: the server frees the worker, the connection stays', async () => {
    const held = await createTargetServer({
      workers: 1,
      cancellation: 'propagate',
      model: { service: { kind: 'constant', ms: 400 } },
      grpcPort: 0,
      log: () => {},
    });
    const transport = createGrpcTransport({ address: held.grpcAddress! });
    try {
      await transport.probe();
      const outcomes: unknown[] = [];
      const cancel = transport.send(0, 1, (o) => outcomes.push(o));
      await until(() => held.stats().busyWorkers === 1, 5_000);
      cancel();
      await until(() => held.stats().cancelledInService === 1, 5_000);
      expect(transport.inflight).toBe(0);
      const second = await new Promise<AttemptOutcome>((resolve) => transport.send(1, 1, resolve));
      expect(second.ok).toBe(true);
      expect(outcomes).toEqual([]); // a cancelled attempt reports nothing
      expect(establishedTo(Number(held.grpcAddress!.split(':')[1]))).toBe(1);
    } finally {
      await transport.destroy();
      await held.close({ graceMs: 500 });
    }
  });

  it('grpc-js hedging: the channel hedges from its service config; the server numbers the attempts', async () => {
    // Widely spread service times (σ 1.5 around 30 ms): a hedge sent at 20 ms often wins, whatever the
    // machine's own delays, so some calls are won by attempt 2.
    const model = { workers: 16, medianMs: 30, sigma: 1.5, stragglerProb: 0 };
    const spread = await createTargetServer({
      ...model,
      model,
      cancellation: 'propagate',
      grpcPort: 0,
      log: () => {},
    });
    try {
      const config: HedgeConfig = { name: 'grpc-js', grpcHedging: { maxAttempts: 2, hedgingDelayMs: 20 } };
      const records: CallRecord[] = [];
      const result = await createLoadGenerator({
        target: spread.url,
        transport: 'grpc',
        grpcTarget: spread.grpcAddress!,
        config,
        model,
        load: 0.2,
        calls: 200,
        seed: 1,
        warmupFraction: 0,
        onCall: (r) => records.push(r),
      }).run();
      expect(result.state).toBe('done');
      expect(result.measured.ok).toBe(200);
      // The winner and the attempts come from the server's reply (grpc-previous-rpc-attempts + 1).
      const wonBySecond = records.filter((r) => r.winner === 2);
      expect(wonBySecond.length).toBeGreaterThan(0);
      for (const r of records) expect(r.attempts).toBeGreaterThanOrEqual(r.winner);
      for (const r of wonBySecond) expect(r.attempts).toBe(2);
      // grpc-js sent hedges the generator never heard of (losers): the server saw at least what was learned.
      for (let i = 0; i < 100 && spread.stats().inFlight > 0; i++)
        await new Promise((r) => setTimeout(r, 20));
      const learned = records.reduce((s, r) => s + r.attempts, 0);
      expect(spread.stats().submitted).toBeGreaterThanOrEqual(learned);
      expect(spread.stats().submitted).toBeGreaterThan(200);
    } finally {
      await spread.close({ graceMs: 500 });
    }
  });

  it('a collapsing point holds one connection, not one per attempt in flight', async () => {
    const { result, maxConnections } = await runPoint(referenceConfig('hedge, no budget')!, {
      load: 1.6,
      calls: 3000,
      maxInflight: 600,
      maxSeconds: 10,
    });
    expect(result.collapsed).toBe(true);
    expect(result.inflight.max).toBeGreaterThanOrEqual(600);
    expect(maxConnections).toBe(1);
  });
});

describe('load generator over gRPC: bad input', () => {
  it('a listener that is not the target is refused before the point, naming the service expected', async () => {
    const other = new Server();
    const port = await new Promise<number>((res, rej) =>
      other.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))),
    );
    try {
      const g = createLoadGenerator({
        target: target.url,
        transport: 'grpc',
        grpcTarget: `127.0.0.1:${port}`,
        config: referenceConfig('no hedge')!,
        load: 0.3,
        calls: 20,
        seed: 1,
      });
      await expect(g.run()).rejects.toThrow(
        /does not serve hedgebench\.Target \(expected the unary methods \/hedgebench\.Target\/Work/,
      );
    } finally {
      other.forceShutdown();
    }
  });

  it('refuses grpc without --grpc-target, a grpc-js config over HTTP/1.1, and grpc-js beside a hedgebench policy', () => {
    const base = { target: target.url, load: 0.3, calls: 20, seed: 1 };
    expect(() =>
      createLoadGenerator({ ...base, transport: 'grpc', config: referenceConfig('no hedge')! }),
    ).toThrow(/--grpc-target: is required with transport grpc: the target's gRPC listener HOST:PORT/);
    const g = { name: 'g', grpcHedging: { maxAttempts: 2, hedgingDelayMs: 20 } };
    expect(() => createLoadGenerator({ ...base, config: g })).toThrow(
      /hedged by grpc-js \(grpcHedging\), which needs gRPC/,
    );
    expect(() =>
      createLoadGenerator({
        ...base,
        transport: 'grpc',
        grpcTarget: target.grpcAddress!,
        config: { ...g, hedge: { delayMs: 20 } },
      }),
    ).toThrow(/cannot sit beside grpcHedging: grpc-js hedges this configuration/);
    expect(() =>
      createLoadGenerator({
        ...base,
        transport: 'grpc',
        grpcTarget: 'nohost',
        config: referenceConfig('no hedge')!,
      }),
    ).toThrow(/--grpc-target "nohost" is not HOST:PORT/);
  });
});
