// A service that is not a worker pool — its service time grows with the number of requests in it, and
// nothing ever queues — must get a fit that says it is poor, with the evidence, not a confident model.
//
// The evidence is the one a worker pool cannot give: its fastest answers (p10) slow down with load. That
// shows only once the service holds many requests at once. With the default knee (p50 up 25 %, p90 up 50 %)
// the ramp stopped at about 3 in flight, where an arrival often finds the service nearly empty, and whether
// the verdict came out poor rested on timer noise (a noisy step's p90, stragglers fitted from the noise).
// Run at nice 19 on a shared machine, this process's p90 also jumps 5× when it is descheduled. So the ramp
// here runs until p50 doubles (about 11 in flight: p10 about 16 ms against a pool's 10.5; noise only adds
// to it) and p90 cannot stop it (101 × the low-load p90).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createProbe } from '../../probe/index.ts';

let server: Server;

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

describe('probe of a concurrency-scaling service', () => {
  it('fits, and says the worker-pool fit is poor because even its fastest answers slow down', async () => {
    let inflight = 0;
    server = createServer((req, res) => {
      // 10 ms, plus 10 % for every other request in the service: everything slows together.
      const ms = 10 * (1 + inflight / 10);
      inflight++;
      req.resume();
      setTimeout(() => {
        inflight--;
        res.end('ok');
      }, ms).unref();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    const r = await createProbe({
      target: url,
      lowLoadRequests: 400,
      stepSeconds: 2,
      maxRate: 2000,
      maxSeconds: 90,
      kneeP50Rise: 1,
      kneeP90Rise: 100,
    }).run();
    process.stderr.write(
      `concurrency-scaling service: ${JSON.stringify(r.model)}; knee ${r.knee}; steps ${r.steps.map((s) => `${s.rate.toFixed(0)}/s p10 ${s.p10Ms.toFixed(1)} p50 ${s.p50Ms.toFixed(1)} p90 ${s.p90Ms.toFixed(1)} failed ${s.failed}`).join(', ')}; ${r.workers.evidence.join(' | ')}\n`,
    );
    // The ramp reached the load the knee was set at: the last step's median at least doubled.
    expect(r.steps.at(-1)!.p50Ms).toBeGreaterThan(2 * r.lowLoad.p50Ms);
    expect(r.workers.poor).toBe(true);
    expect(r.workers.evidence.some((e) => /even the fastest answers slowed/.test(e))).toBe(true);
  }, 180_000);
});
