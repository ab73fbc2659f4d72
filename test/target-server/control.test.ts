// The target server's validation and control routes over real HTTP: 400/404 on bad input (and it stays
// up), 401/409/413 on /config and /reset, Prometheus metrics, and attempt records in Redis.
import { describe, expect, it } from 'vitest';
import { redisKeys } from '../../contract/index.ts';
import { DEFAULT_MODEL } from '../../model/index.ts';
import { POOL_MODES } from '../../target-server/index.ts';
import { constant, useFixtures } from './fixtures.ts';
import { call, until } from './http.ts';

const fx = useFixtures();

describe.each(POOL_MODES)('pool %s', (pool) => {
  const withServer = fx.inPoolMode(pool);

  describe('target server: validation and control', () => {
    it('answers bad call/attempt with 400 naming the parameter, unknown routes with 404, and stays up', async () => {
      await withServer({ workers: 2, model: constant(1) }, async (s) => {
        const bad: [string, string][] = [
          ['/work', 'call'],
          ['/work?attempt=1', 'call'],
          ['/work?call=-1&attempt=1', 'call'],
          ['/work?call=1.5&attempt=1', 'call'],
          ['/work?call=abc&attempt=1', 'call'],
          ['/work?call=99999999999&attempt=1', 'call'],
          ['/work?call=1&call=2&attempt=1', 'call'],
          ['/work?call=1', 'attempt'],
          ['/work?call=1&attempt=0', 'attempt'],
          ['/work?call=1&attempt=1001', 'attempt'],
          ['/work?call=1&attempt=%00', 'attempt'],
        ];
        for (const [path, param] of bad) {
          const r = await call(fx.agent, `${s.url}${path}`);
          expect(r.status, path).toBe(400);
          expect(r.body.error.code).toBe('HB_BAD_PARAMETER');
          expect(r.body.error.message).toContain(param);
        }
        expect(s.stats().badRequests).toBe(bad.length);
        for (const path of ['/nope', '/work/1', '/']) {
          const r = await call(fx.agent, `${s.url}${path}`);
          expect(r.status).toBe(404);
          expect(r.body.error.code).toBe('HB_NOT_FOUND');
        }
        expect((await call(fx.agent, `${s.url}/work?call=1&attempt=1`, { method: 'POST' })).status).toBe(404);
        expect(await call(fx.agent, `${s.url}/health`)).toMatchObject({ status: 200, body: { ok: true } });
        expect((await call(fx.agent, `${s.url}/work?call=4294967295&attempt=1000`)).status).toBe(200);
      });
    });

    it('guards PUT /config and POST /reset: 401 without the token, 409 while busy, 413 for huge bodies', async () => {
      const token = 'tok-9f2c-secret';
      await withServer({ workers: 1, model: constant(200), token }, async (s) => {
        for (const t of [undefined, 'wrong', `${token}x`]) {
          const r = await call(fx.agent, `${s.url}/config`, {
            method: 'PUT',
            body: { workers: 2 },
            token: t,
          });
          expect(r.status).toBe(401);
          expect(JSON.stringify(r.body)).not.toContain(token);
          expect((await call(fx.agent, `${s.url}/reset`, { method: 'POST', token: t })).status).toBe(401);
        }
        const busy = call(fx.agent, `${s.url}/work?call=0&attempt=1`);
        await until(() => s.stats().inFlight === 1, 'the attempt to arrive');
        const r409 = await call(fx.agent, `${s.url}/config`, { method: 'PUT', body: { workers: 2 }, token });
        expect(r409.status).toBe(409);
        expect(r409.body.error.code).toBe('HB_BUSY');
        expect((await call(fx.agent, `${s.url}/reset`, { method: 'POST', token })).status).toBe(409);
        expect((await busy).status).toBe(200);
        const big = { workers: 2, pad: 'x'.repeat(20_000) };
        expect((await call(fx.agent, `${s.url}/config`, { method: 'PUT', body: big, token })).status).toBe(
          413,
        );
        const notJson = await call(fx.agent, `${s.url}/config`, {
          method: 'PUT',
          body: '{"workers":',
          token,
        });
        expect(notJson.status).toBe(400);
        const unknown = await call(fx.agent, `${s.url}/config`, {
          method: 'PUT',
          body: { wrokers: 2 },
          token,
        });
        expect(unknown.status).toBe(400);
        expect(unknown.body.error.message).toContain('wrokers');
        const badModel = await call(fx.agent, `${s.url}/config`, {
          method: 'PUT',
          body: { model: { sigma: -1 } },
          token,
        });
        expect(badModel.body.error.message).toContain('model.sigma');
        const noRedis = await call(fx.agent, `${s.url}/config`, {
          method: 'PUT',
          body: { run: 'r', slug: 's' },
          token,
        });
        expect(noRedis.status).toBe(400);
        expect(noRedis.body.error.message).toContain('--redis');
        const ok = await call(fx.agent, `${s.url}/config`, {
          method: 'PUT',
          body: { workers: 4, seed: 3, cancellation: 'propagate', model: { medianMs: 5 } },
          token,
        });
        expect(ok.status).toBe(200);
        expect(s.stats().config).toMatchObject({ workers: 4, seed: 3, cancellation: 'propagate' });
        // A given model is taken over the reference model: the earlier constant override does not linger.
        expect(s.stats().config.model).toEqual({ ...DEFAULT_MODEL, workers: 4, medianMs: 5 });
        const keep = await call(fx.agent, `${s.url}/config`, { method: 'PUT', body: { seed: 4 }, token });
        expect(keep.body.config).toMatchObject({ workers: 4, seed: 4, model: { medianMs: 5 } });
        expect(s.stats().served).toBe(1);
        expect((await call(fx.agent, `${s.url}/reset`, { method: 'POST', token })).status).toBe(200);
        expect(s.stats()).toMatchObject({ served: 0, submitted: 0, holdErrorMs: { count: 0 } });
      });
    });

    it('exposes the counters as Prometheus metrics on a private registry', async () => {
      await withServer({ workers: 2, model: constant(2) }, async (s) => {
        await Promise.all([0, 1, 2].map((k) => call(fx.agent, `${s.url}/work?call=${k}&attempt=1`)));
        await call(fx.agent, `${s.url}/work?call=x&attempt=1`);
        const m = await call(fx.agent, `${s.url}/metrics`);
        expect(m.status).toBe(200);
        expect(m.body).toContain('hedgebench_target_attempts_total{ended="served"} 3');
        expect(m.body).toContain('hedgebench_target_bad_requests_total 1');
        expect(m.body).toContain('hedgebench_target_workers 2');
        expect(m.body).toMatch(/hedgebench_target_hold_error_seconds\{quantile="0.99"\} \d/);
      });
    });

    it('writes one attempt record per attempt with the ATTEMPT_FIELDS columns', async () => {
      await withServer({ workers: 2, seed: 5, redisUrl: fx.redisUrl() }, async (s) => {
        const put = await call(fx.agent, `${s.url}/config`, {
          method: 'PUT',
          body: { run: 'run-1', slug: 'p_0.50_ignore_s5' },
        });
        expect(put.status).toBe(200);
        await Promise.all([1, 2, 3, 4, 5].map((k) => call(fx.agent, `${s.url}/work?call=${k}&attempt=2`)));
        expect(await fx.stopRecording(s)).toMatchObject({ written: 5, dropped: 0 });
        const rows = await fx.records('run-1', 'p_0.50_ignore_s5');
        expect(rows.map((r) => r.call).sort()).toEqual([1, 2, 3, 4, 5]);
        for (const r of rows) {
          expect(r.attempt).toBe(2);
          expect(r.ended).toBe('served');
          expect([0, 1]).toContain(r.worker);
          expect(r.enqueue).toBeLessThanOrEqual(r.start);
          expect(r.start).toBeLessThan(r.end);
          // Answered: the response was written after the worker let go, not before.
          expect(r.responded).toBeGreaterThanOrEqual(r.end);
        }
        // Recording stopped: further attempts add nothing.
        await call(fx.agent, `${s.url}/work?call=9&attempt=1`);
        expect(await fx.redis().xlen(redisKeys('run-1', 'p_0.50_ignore_s5').attempts)).toBe(5);
      });
    });
  });
});
