// The target's gRPC listener over real HTTP/2 on 127.0.0.1 with a real redis-server: a Work call is served
// and recorded like an HTTP one, the attempt comes from the request or from grpc-previous-rpc-attempts,
// a reset stream frees the queue slot / worker in `propagate` and not in `ignore`, and the connection
// survives every cancelled stream.
import { Client, credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MODEL, serviceTimeMs } from '../../model/index.ts';
import { GRPC_WORK_PATH, grpcJson, type WorkReply } from '../../runtime/index.ts';
import type { TargetServer } from '../../target-server/index.ts';
import { constant, useFixtures } from './fixtures.ts';
import { until } from './http.ts';
import { establishedTo } from './tcp-connections.ts';

const fx = useFixtures();

interface Sent {
  done: Promise<{ reply?: WorkReply; error?: ServiceError }>;
  cancel: () => void;
}

function work(client: Client, request: unknown, metadata = new Metadata(), path = GRPC_WORK_PATH): Sent {
  let cancel = (): void => {};
  const done = new Promise<{ reply?: WorkReply; error?: ServiceError }>((resolve) => {
    const c = client.makeUnaryRequest(
      path,
      grpcJson.serialize,
      grpcJson.deserialize,
      request,
      metadata,
      {},
      (error, reply) => resolve(error ? { error } : { reply: reply as WorkReply }),
    );
    cancel = () => c.cancel();
  });
  return { done, cancel };
}

async function withGrpc(
  options: Parameters<typeof fx.withServer>[0],
  body: (s: TargetServer, client: Client, port: number) => Promise<void>,
): Promise<void> {
  await fx.withServer({ grpcPort: 0, ...options }, async (s) => {
    expect(s.grpcAddress).toMatch(/^127\.0\.0\.1:\d+$/);
    const client = new Client(s.grpcAddress!, credentials.createInsecure());
    try {
      await body(s, client, Number(s.grpcAddress!.split(':')[1]));
    } finally {
      client.close();
    }
  });
}

describe('target server: gRPC', () => {
  it('serves Work with the model draw and records it; the attempt comes from the request or the metadata', async () => {
    await withGrpc(
      { workers: 2, seed: 7, redisUrl: fx.redisUrl(), record: { run: 'g', slug: 'work' } },
      async (s, client) => {
        const a = await work(client, { call: 3, attempt: 2 }).done;
        expect(a.error).toBeUndefined();
        expect(a.reply).toMatchObject({ attempt: 2, intendedMs: serviceTimeMs(DEFAULT_MODEL, 7, 3, 2) });
        expect(a.reply!.serviceMs).toBeGreaterThanOrEqual(a.reply!.intendedMs - 1);
        const md = new Metadata();
        md.set('grpc-previous-rpc-attempts', '2');
        const b = await work(client, { call: 4 }, md).done;
        expect(b.reply).toMatchObject({ attempt: 3, intendedMs: serviceTimeMs(DEFAULT_MODEL, 7, 4, 3) });
        const c = await work(client, { call: 5 }).done;
        expect(c.reply?.attempt).toBe(1);
        expect(s.stats()).toMatchObject({ served: 3, clients: { '127.0.0.1': 3 } });
        await fx.stopRecording(s);
        const rows = (await fx.records('g', 'work')).sort((x, y) => x.call - y.call);
        expect(rows.map((r) => [r.call, r.attempt, r.ended])).toEqual([
          [3, 2, 'served'],
          [4, 3, 'served'],
          [5, 1, 'served'],
        ]);
        for (const r of rows) expect(r.responded).toBeGreaterThanOrEqual(r.end);
      },
    );
  });

  it('refuses a bad request with INVALID_ARGUMENT naming the field, and an unknown method with UNIMPLEMENTED', async () => {
    await withGrpc({}, async (s, client) => {
      const bad = await work(client, { attempt: 1 }).done;
      expect(bad.error?.code).toBe(status.INVALID_ARGUMENT);
      expect(bad.error?.details).toMatch(/HB_BAD_PARAMETER: WorkRequest\.call must be a whole number/);
      const md = new Metadata();
      md.set('grpc-previous-rpc-attempts', 'x');
      const badMd = await work(client, { call: 1 }, md).done;
      expect(badMd.error?.details).toMatch(/grpc-previous-rpc-attempts must be a whole number/);
      const wrong = await work(client, { call: 1 }, new Metadata(), '/other.Service/Work').done;
      expect(wrong.error?.code).toBe(status.UNIMPLEMENTED);
      expect(s.stats().badRequests).toBe(2);
    });
  });

  it('propagate: a reset stream leaves the queue or frees its worker at once, on the same connection', async () => {
    const opts = { workers: 1, model: constant(400), cancellation: 'propagate' as const };
    await withGrpc(
      { ...opts, redisUrl: fx.redisUrl(), record: { run: 'g', slug: 'prop' } },
      async (s, client, port) => {
        const a = work(client, { call: 0, attempt: 1 });
        await until(() => s.stats().busyWorkers === 1, 'A in service');
        const b = work(client, { call: 1, attempt: 1 });
        await until(() => s.stats().queueLength === 1, 'B queued');
        b.cancel();
        await until(() => s.stats().cancelRequests === 1, 'the server to see B reset');
        const abortAt = s.clock.now();
        a.cancel();
        await until(() => s.stats().cancelRequests === 2, 'the server to see A reset');
        const c = await work(client, { call: 2, attempt: 1 }).done;
        // C waited at most the rest of A's 400 ms hold (under ignore, B's whole hold as well).
        expect(c.reply!.queueMs).toBeLessThan(400);
        expect((await a.done).error?.code).toBe(status.CANCELLED);
        expect((await b.done).error?.code).toBe(status.CANCELLED);
        expect(s.stats()).toMatchObject({ cancelledQueued: 1, cancelledInService: 1, served: 1 });
        // Three calls and two resets, one HTTP/2 connection.
        expect(establishedTo(port)).toBe(1);
        await fx.stopRecording(s);
        const rows = await fx.records('g', 'prop');
        const [A, B] = [0, 1].map((k) => rows.find((r) => r.call === k)!);
        expect(B).toMatchObject({ ended: 'cancelled-queued', worker: -1 });
        expect(A!.ended).toBe('cancelled-in-service');
        // Freed before the 400 ms it was asked to hold, after the reset (how soon is the machine's scheduling).
        expect(A!.end - A!.start).toBeLessThan(400);
        expect(A!.end).toBeGreaterThanOrEqual(abortAt - 0.05);
        expect(A!.responded).toBeNaN();
      },
    );
  });

  it('ignore: a reset stream keeps its place and its worker until its service ends', async () => {
    const opts = { workers: 1, model: constant(300), cancellation: 'ignore' as const };
    await withGrpc(
      { ...opts, redisUrl: fx.redisUrl(), record: { run: 'g', slug: 'ign' } },
      async (s, client) => {
        const a = work(client, { call: 0, attempt: 1 });
        await until(() => s.stats().busyWorkers === 1, 'A in service');
        a.cancel();
        await until(() => s.stats().cancelRequests === 1, 'the server to see A reset');
        const c = await work(client, { call: 1, attempt: 1 }).done;
        expect(c.reply!.queueMs).toBeGreaterThan(150);
        expect(s.stats()).toMatchObject({ cancelledInService: 0, served: 2 });
        await fx.stopRecording(s);
        const A = (await fx.records('g', 'ign')).find((r) => r.call === 0)!;
        expect(A.ended).toBe('served');
        expect(A.responded).toBeNaN();
      },
    );
  });
});
