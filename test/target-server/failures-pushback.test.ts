// The target server with the model's failures and pushback, over real HTTP and gRPC on 127.0.0.1 with a
// real redis-server: an attempt the model fails holds its worker errorMs and is answered 503 (JSON error
// body) or UNAVAILABLE, its record ends `failed`; a response that leaves a queue longer than the rule's
// bound carries `hedgebench-pushback-ms` (a header, or trailing metadata); PUT /config carries the fields
// and the target dilates errorMs and the pushback's ms by its time scale.
import { Client, credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { PUSHBACK_HEADER } from '../../contract/index.ts';
import { attemptFails, DEFAULT_MODEL, type ModelParams } from '../../model/index.ts';
import { GRPC_WORK_PATH, grpcJson, type WorkReply } from '../../runtime/index.ts';
import type { TargetServer } from '../../target-server/index.ts';
import { useFixtures } from './fixtures.ts';
import { call } from './http.ts';

const fx = useFixtures();

const FAILING = { errorProb: 0.5, errorMs: 4, service: { kind: 'constant' as const, ms: 2 } };
const model = (over: object): ModelParams => ({ ...DEFAULT_MODEL, ...FAILING, ...over }) as ModelParams;

/** The first call indices ≥ 0 whose attempt 1 the model (seed 1) fails, and that it does not. */
function calls(m: ModelParams, n: number): { failing: number[]; passing: number[] } {
  const failing: number[] = [];
  const passing: number[] = [];
  for (let c = 0; failing.length < n || passing.length < n; c++) {
    (attemptFails(m, 1, c, 1) ? failing : passing).push(c);
  }
  return { failing: failing.slice(0, n), passing: passing.slice(0, n) };
}

async function get(s: TargetServer, c: number, attempt = 1) {
  const res = await request(`${s.url}/work?call=${c}&attempt=${attempt}`, { dispatcher: fx.agent });
  const text = await res.body.text();
  return { status: res.statusCode, body: JSON.parse(text), pushback: res.headers[PUSHBACK_HEADER] };
}

async function configure(s: TargetServer, body: object): Promise<void> {
  const r = await call(fx.agent, `${s.url}/config`, { method: 'PUT', body });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

describe('target server: failures of the model', () => {
  it('answers a failing attempt 503 after errorMs on its worker, records it `failed`, serves the others', async () => {
    await fx.withServer({ workers: 2, seed: 1, redisUrl: fx.redisUrl() }, async (s) => {
      await configure(s, { model: FAILING, run: 'f', slug: 'http' });
      const { failing, passing } = calls(model({}), 3);
      for (const c of failing) {
        const r = await get(s, c);
        expect(r.status).toBe(503);
        expect(r.body.error.code).toBe('HB_MODEL_FAILURE');
        expect(r.body.error.message).toMatch(/model\.errorProb/);
        expect(r.pushback).toBeUndefined();
      }
      for (const c of passing) expect((await get(s, c)).status).toBe(200);
      await fx.stopRecording(s);
      const rows = await fx.records('f', 'http');
      expect(rows).toHaveLength(6);
      for (const r of rows) {
        const fails = failing.includes(r.call);
        expect(r.ended).toBe(fails ? 'failed' : 'served');
        expect(r.service).toBe(fails ? 4 : 2);
        // The worker held it (at least) its intended time: errorMs for a failure.
        expect(r.end - r.start).toBeGreaterThanOrEqual(fails ? 3.9 : 1.9);
        expect(Number.isNaN(r.responded)).toBe(false);
      }
      expect(s.stats().served).toBe(6);
    });
  });

  it('dilates errorMs by its time scale', async () => {
    await fx.withServer({ workers: 1, seed: 1, redisUrl: fx.redisUrl() }, async (s) => {
      await configure(s, { model: FAILING, timeScale: 3, run: 'f', slug: 'x3' });
      const [c] = calls(model({}), 1).failing;
      expect((await get(s, c)).status).toBe(503);
      await fx.stopRecording(s);
      const [row] = await fx.records('f', 'x3');
      expect(row).toMatchObject({ ended: 'failed', service: 12 });
      expect(s.stats().config.model).toMatchObject({ errorProb: 0.5, errorMs: 4 });
    });
  });

  it('refuses a bad errorProb in PUT /config, naming the field', async () => {
    await fx.withServer({}, async (s) => {
      const r = await call(fx.agent, `${s.url}/config`, { method: 'PUT', body: { model: { errorProb: 1 } } });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(/model\.errorProb must be in \[0, 1\)/);
    });
  });
});

describe('target server: pushback', () => {
  // One worker, 30 ms per attempt: of three at once, the first answer leaves one waiting (the freed worker
  // took the second: the queue is read as the answer leaves, after that), the other two none.
  const pushModel = { service: { kind: 'constant', ms: 30 }, pushback: { queueAbove: 0, ms: 50 } };

  it('sends the header while the queue is longer than the bound, dilated by the time scale', async () => {
    await fx.withServer({ workers: 1, seed: 1 }, async (s) => {
      await configure(s, { model: pushModel, timeScale: 2 });
      const replies = await Promise.all([0, 1, 2].map((c) => get(s, c)));
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
      // The first answer left an attempt waiting (wall ms: 50 model ms at time scale 2); the others none.
      expect(replies.map((r) => r.pushback ?? 'none').sort()).toEqual(['100', 'none', 'none']);
    });
  });

  it('over gRPC: trailing metadata on a reply and on UNAVAILABLE', async () => {
    await fx.withServer({ workers: 1, seed: 1, grpcPort: 0 }, async (s) => {
      await configure(s, { model: { ...pushModel, errorProb: 0.5, errorMs: 30 } });
      const client = new Client(s.grpcAddress!, credentials.createInsecure());
      try {
        const m = model({ service: { kind: 'constant', ms: 30 }, errorMs: 30 });
        const { failing, passing } = calls(m, 3);
        // The failing attempt first: it holds the worker while the other two queue behind it.
        const first = grpcWork(client, failing[0]);
        await new Promise((r) => setTimeout(r, 5));
        const rest = await Promise.all(passing.map((c) => grpcWork(client, c)));
        const failed = await first;
        expect(failed.error?.code).toBe(status.UNAVAILABLE);
        expect(failed.error?.metadata.get('hedgebench-error-code')).toEqual(['HB_MODEL_FAILURE']);
        expect(failed.pushback).toEqual(['50']);
        expect(rest.map((r) => r.reply?.attempt)).toEqual([1, 1, 1]);
        // The failure left two waiting, the next reply one, the last two none.
        expect(rest.map((r) => r.pushback.join()).sort()).toEqual(['', '', '50']);
      } finally {
        client.close();
      }
    });
  });
});

// One Work call, with the trailing metadata it ended with (an error's own, or the 'status' event's).
function grpcWork(
  client: Client,
  c: number,
): Promise<{ reply?: WorkReply; error?: ServiceError; pushback: unknown[] }> {
  return new Promise((resolve) => {
    let result: { reply?: WorkReply; error?: ServiceError } = {};
    const call = client.makeUnaryRequest(
      GRPC_WORK_PATH,
      grpcJson.serialize,
      grpcJson.deserialize,
      { call: c, attempt: 1 },
      new Metadata(),
      {},
      (error, reply) => {
        result = error ? { error } : { reply: reply as WorkReply };
      },
    );
    call.on('status', (st: { metadata: Metadata }) =>
      resolve({ ...result, pushback: st.metadata.get(PUSHBACK_HEADER) }),
    );
  });
}
