// A target server as one replica of several (PUT /config replica, correlation, slowReplica): the service time
// it holds for an attempt is model/replicas.ts's draw for that replica, the very one the simulator uses; the
// defaults keep today's draw; bad values get a 400 naming the field. Real HTTP on loopback.
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL, replicaServiceMs, SINGLE_REPLICA, serviceTimeMs } from '../../model/index.ts';
import { useFixtures } from './fixtures.ts';
import { call } from './http.ts';

const fx = useFixtures();
// Short times (stragglers 5–10 ms, every other attempt) keep the test fast and the shared draws frequent.
const model = { medianMs: 1, sigma: 0.25, stragglerProb: 0.5, stragglerMinMs: 5, stragglerMaxMs: 10 };
const params = { ...DEFAULT_MODEL, ...model, workers: 4 };
const token = 'tok-replica';

async function intended(url: string, callIndex: number, attempt: number): Promise<number> {
  const r = await call(fx.agent, `${url}/work?call=${callIndex}&attempt=${attempt}`);
  expect(r.status).toBe(200);
  return r.body.intendedMs as number;
}

describe('target server as a replica', () => {
  it('draws the replica model’s service time: shared stragglers, the slow replica’s factor', async () => {
    await fx.withServer({ workers: 4, model, token }, async (s) => {
      // Defaults: today's draw.
      for (let c = 0; c < 5; c++) expect(await intended(s.url, c, 2)).toBe(serviceTimeMs(params, 1, c, 2));
      const put = async (body: object) =>
        expect((await call(fx.agent, `${s.url}/config`, { method: 'PUT', body, token })).status).toBe(200);
      await put({ seed: 3, replica: 0, correlation: 1, slowReplica: 1.5 });
      const setup = { ...SINGLE_REPLICA, replicas: 2, correlation: 1, slowReplica: 1.5 };
      let shared = 0;
      for (let c = 0; c < 12; c++) {
        const got = await intended(s.url, c, 2);
        expect(got).toBe(replicaServiceMs(params, setup, 3, c, 2, 0));
        if (got !== serviceTimeMs(params, 3, c, 2) * 1.5) shared++;
      }
      // Some hedges took attempt 1's straggler instead of their own draw.
      expect(shared).toBeGreaterThan(0);
      await put({ replica: 1 });
      for (let c = 0; c < 5; c++) {
        expect(await intended(s.url, c, 2)).toBe(replicaServiceMs(params, setup, 3, c, 2, 1));
      }
      expect(s.stats().config).toMatchObject({ replica: 1, correlation: 1, slowReplica: 1.5 });
    });
  });

  it('refuses a correlation outside [0, 1] and a slowReplica below 1, naming the field', async () => {
    await fx.withServer({ workers: 1, model, token }, async (s) => {
      for (const [body, field] of [
        [{ correlation: 2 }, 'correlation'],
        [{ slowReplica: 0.5 }, 'slowReplica'],
        [{ replica: -1 }, 'replica'],
        [{ replicas: 0 }, 'replicas'],
        [{ replica: 2, replicas: 2 }, 'replica 2 is not one of replicas 0..1'],
      ] as const) {
        const r = await call(fx.agent, `${s.url}/config`, { method: 'PUT', body, token });
        expect(r.status).toBe(400);
        expect(r.body.error.message).toContain(field);
      }
    });
  });
});
