// A perturbation of the verdict's self-test (model/perturb.ts): PUT /config responseDelayMs makes the target
// wait that long (× its time scale) after releasing a worker before it answers. The worker is free at once
// (the next attempt starts without waiting), the wait shows in the record as responded − end, and while an
// answer is held back the server counts it in flight, so a point cannot end before it is written.
// Real HTTP on loopback, real Redis.
import { describe, expect, it } from 'vitest';
import { constant, useFixtures } from './fixtures.ts';
import { call } from './http.ts';

const fx = useFixtures();

describe('a target that waits before it answers', () => {
  it('holds the answer, not the worker; the record shows the wait; the point waits for it', async () => {
    await fx.withServer({ workers: 1, model: constant(5), redisUrl: fx.redisUrl() }, async (s) => {
      const put = await call(fx.agent, `${s.url}/config`, {
        method: 'PUT',
        body: { run: 'run-d', slug: 'p_d', responseDelayMs: 20, timeScale: 2 },
      });
      expect(put.status).toBe(200);
      expect(s.stats().config).toMatchObject({ responseDelayMs: 20, timeScale: 2 });
      const first = call(fx.agent, `${s.url}/work?call=1&attempt=1`);
      const second = call(fx.agent, `${s.url}/work?call=2&attempt=1`);
      // The first attempt's 10 ms of service (5 × 2) is over and its answer is held: it is still in flight.
      await new Promise((r) => setTimeout(r, 30));
      expect(s.stats().inFlight).toBeGreaterThan(0);
      expect((await call(fx.agent, `${s.url}/reset`, { method: 'POST' })).status).toBe(409);
      await Promise.all([first, second]);
      expect(await fx.stopRecording(s)).toMatchObject({ written: 2, dropped: 0 });
      const rows = (await fx.records('run-d', 'p_d')).sort((a, b) => a.call - b.call);
      for (const r of rows) {
        // 20 model-ms at time scale 2: 40 wall-ms between the worker's release and the answer.
        expect(r.responded - r.end).toBeGreaterThanOrEqual(39);
      }
      // One worker: the second attempt started when the first's service ended, not when it was answered.
      expect(rows[1].start - rows[0].end).toBeLessThan(20);
    });
  });

  it('refuses a negative delay, naming the field', async () => {
    await fx.withServer({ workers: 1 }, async (s) => {
      const r = await call(fx.agent, `${s.url}/config`, { method: 'PUT', body: { responseDelayMs: -1 } });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toContain('responseDelayMs');
    });
  });
});
