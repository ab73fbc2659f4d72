// The target server over real HTTP on 127.0.0.1 with a real redis-server: FIFO order, exactly `workers` in
// service, the model's service times, and both cancellation modes (checked from counters and records).
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL, serviceTimeMs } from '../../model/index.ts';
import { POOL_MODES, type TargetServer } from '../../target-server/index.ts';
import { constant, useFixtures } from './fixtures.ts';
import { call, until } from './http.ts';

const fx = useFixtures();

describe.each(POOL_MODES)('pool %s', (pool) => {
  const withServer = fx.inPoolMode(pool);

  describe('target server: queueing', () => {
    it('serves attempts in FIFO order', async () => {
      await withServer(
        { workers: 1, model: constant(15), redisUrl: fx.redisUrl(), record: { run: 't', slug: 'fifo' } },
        async (s) => {
          const replies: Promise<{ k: number; at: number }>[] = [];
          for (let k = 0; k < 6; k++) {
            replies.push(call(fx.agent, `${s.url}/work?call=${k}&attempt=1`).then((r) => ({ k, at: r.at })));
            // Make the arrival order certain before sending the next one.
            await until(() => s.stats().submitted === k + 1, `attempt ${k} to arrive`);
          }
          const done = await Promise.all(replies);
          expect(done.sort((a, b) => a.at - b.at).map((d) => d.k)).toEqual([0, 1, 2, 3, 4, 5]);
          expect((await fx.stopRecording(s)).written).toBe(6);
          const rows = (await fx.records('t', 'fifo')).sort((a, b) => a.start - b.start);
          expect(rows.map((r) => r.call)).toEqual([0, 1, 2, 3, 4, 5]);
          for (let i = 1; i < rows.length; i++)
            expect(rows[i]!.start).toBeGreaterThanOrEqual(rows[i - 1]!.end);
        },
      );
    });

    it('keeps exactly `workers` attempts in service at once', async () => {
      await withServer(
        { workers: 3, model: constant(100), redisUrl: fx.redisUrl(), record: { run: 't', slug: 'workers' } },
        async (s) => {
          let maxBusy = 0;
          const sampler = setInterval(() => {
            maxBusy = Math.max(maxBusy, s.stats().busyWorkers);
          }, 1);
          const replies = await Promise.all(
            Array.from({ length: 9 }, (_, k) => call(fx.agent, `${s.url}/work?call=${k}&attempt=1`)),
          );
          clearInterval(sampler);
          expect(replies.map((r) => r.status)).toEqual(Array(9).fill(200));
          expect(maxBusy).toBe(3);
          expect(new Set(replies.map((r) => r.body.worker))).toEqual(new Set([0, 1, 2]));
          await fx.stopRecording(s);
          const rows = await fx.records('t', 'workers');
          expect(rows).toHaveLength(9);
          // At every start, count the attempts in service: never more than 3, and a worker serves one at a time.
          let maxOverlap = 0;
          for (const r of rows) {
            const running = rows.filter((o) => o.start <= r.start && r.start < o.end);
            maxOverlap = Math.max(maxOverlap, running.length);
            expect(new Set(running.map((o) => o.worker)).size).toBe(running.length);
          }
          expect(maxOverlap).toBe(3);
        },
      );
    });

    it("gives each attempt the model's service time for (seed, call, attempt), held at least that long", async () => {
      await withServer(
        { seed: 7, redisUrl: fx.redisUrl(), record: { run: 't', slug: 'draws' } },
        async (s) => {
          const pairs = Array.from({ length: 24 }, (_, i) => ({ c: 1000 + i * 7, a: 1 + (i % 3) }));
          const replies = await Promise.all(
            pairs.map((p) => call(fx.agent, `${s.url}/work?call=${p.c}&attempt=${p.a}`)),
          );
          for (let i = 0; i < pairs.length; i++) {
            const want = serviceTimeMs(DEFAULT_MODEL, 7, pairs[i]!.c, pairs[i]!.a);
            expect(replies[i]!.body.intendedMs).toBe(want);
            expect(replies[i]!.body.serviceMs).toBeGreaterThanOrEqual(want);
          }
          await fx.stopRecording(s);
          const rows = await fx.records('t', 'draws');
          for (const r of rows) {
            expect(r.service).toBeCloseTo(serviceTimeMs(DEFAULT_MODEL, 7, r.call, r.attempt), 3);
            expect(r.end - r.start).toBeGreaterThanOrEqual(r.service - 0.002);
          }
          expect(s.stats().holdErrorMs).toMatchObject({ count: 24, early: 0 });
        },
      );
    });
  });

  describe('target server: cancellation (client aborts the request)', () => {
    // Worker 1 busy with A (400 ms); B queued behind it; abort B, then abort A; then send C.
    async function scenario(s: TargetServer) {
      const a = new AbortController();
      const b = new AbortController();
      const aDone = call(fx.agent, `${s.url}/work?call=0&attempt=1`, { signal: a.signal }).catch((e) => e);
      await until(() => s.stats().busyWorkers === 1, 'A in service');
      const bDone = call(fx.agent, `${s.url}/work?call=1&attempt=1`, { signal: b.signal }).catch((e) => e);
      await until(() => s.stats().queueLength === 1, 'B queued');
      b.abort();
      await until(() => s.stats().cancelRequests === 1, 'the server to see B close');
      const abortAt = performance.now();
      a.abort();
      await until(() => s.stats().cancelRequests === 2, 'the server to see A close');
      const c = await call(fx.agent, `${s.url}/work?call=2&attempt=1`);
      expect(c.status).toBe(200);
      expect((await aDone).name).toBe('AbortError');
      expect((await bDone).name).toBe('AbortError');
      await until(() => s.stats().inFlight === 0, 'the pool to drain');
      await fx.stopRecording(s);
      return { abortAt, c };
    }

    it('propagate: a queued attempt leaves the queue, an attempt in service frees its worker at once', async () => {
      const opts = { workers: 1, model: constant(400), cancellation: 'propagate' as const };
      await withServer(
        { ...opts, redisUrl: fx.redisUrl(), record: { run: 't', slug: 'prop' } },
        async (s) => {
          const { abortAt, c } = await scenario(s);
          const st = s.stats();
          expect(st).toMatchObject({
            cancelRequests: 2,
            cancelledQueued: 1,
            cancelledInService: 1,
            served: 1,
          });
          const rows = await fx.records('t', 'prop');
          const [A, B, C] = [0, 1, 2].map((k) => rows.find((r) => r.call === k)!);
          expect(B).toMatchObject({ ended: 'cancelled-queued', worker: -1 });
          expect(B!.start).toBeNaN();
          // Nobody was answered for a cancelled attempt.
          expect(B!.responded).toBeNaN();
          expect(A!.responded).toBeNaN();
          expect(A!.ended).toBe('cancelled-in-service');
          // Freed before the 400 ms it was asked to hold, after the abort; C took the worker A freed. C waited
          // at most the rest of A's hold (< 400 ms): under ignore it waits for B's whole 400 ms as well.
          // No bound on how soon after the abort: that is the machine's scheduling. (The pool thread's clock
          // is shifted onto this one's, a few µs off at most.)
          expect(A!.end - A!.start).toBeLessThan(400);
          expect(A!.end).toBeGreaterThanOrEqual(abortAt - 0.05);
          expect(C!.ended).toBe('served');
          expect(C!.start).toBeGreaterThanOrEqual(A!.end);
          expect(c.body.queueMs).toBeLessThan(400);
        },
      );
    });

    it('ignore: aborted attempts keep their place and their worker until their service ends', async () => {
      const opts = { workers: 1, model: constant(400), cancellation: 'ignore' as const };
      await withServer({ ...opts, redisUrl: fx.redisUrl(), record: { run: 't', slug: 'ign' } }, async (s) => {
        const { c } = await scenario(s);
        expect(s.stats()).toMatchObject({
          cancelRequests: 2,
          cancelledQueued: 0,
          cancelledInService: 0,
          served: 3,
        });
        const rows = await fx.records('t', 'ign');
        const [A, B, C] = [0, 1, 2].map((k) => rows.find((r) => r.call === k)!);
        for (const r of [A, B, C]) expect(r!.ended).toBe('served');
        expect(A!.end - A!.start).toBeGreaterThanOrEqual(400);
        expect(B!.start).toBeGreaterThanOrEqual(A!.end);
        expect(C!.start).toBeGreaterThanOrEqual(B!.end);
        expect(c.body.queueMs).toBeGreaterThanOrEqual(400);
      });
    });
  });
});
