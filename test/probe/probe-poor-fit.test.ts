// A service that is not a worker pool — its service time grows with the number of requests in it, and
// nothing ever queues — must get a fit that says it is poor, with the evidence, not a confident model.
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
  it('fits, and says the worker-pool fit is poor, naming the steps that miss', async () => {
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
    }).run();
    process.stderr.write(
      `concurrency-scaling service: ${JSON.stringify(r.model)}; ${r.workers.evidence.join(' | ')}\n`,
    );
    expect(r.workers.poor || r.service.poor).toBe(true);
    expect(r.workers.evidence.length + (r.service.poor ? 1 : 0)).toBeGreaterThan(0);
  }, 120_000);
});
