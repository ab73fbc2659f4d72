// The undici transport against real HTTP servers on 127.0.0.1: what the server receives, how failures
// read, that a cancel reaches the server as a closed request, and that a dead target fails fast.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionPool, type PooledHandler } from '../../loadgen/connection-pool.ts';
import { AttemptFailedError, TargetUnreachableError } from '../../loadgen/errors.ts';
import { type AttemptOutcome, createTransport } from '../../loadgen/http-transport.ts';
import { freePort } from '../runtime/redis-process.ts';

type Handler = (req: IncomingMessage, res: ServerResponse, url: URL) => void;

let server: Server;
let target: string;
let handler: Handler = (_q, res) => res.end('{}');
const closedEarly: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    // An abort from the client: the response closes before it finished.
    res.on('close', () => {
      if (!res.writableFinished) closedEarly.push(url.search);
    });
    handler(req, res, url);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

function once(send: (done: (o: AttemptOutcome) => void) => void): Promise<AttemptOutcome> {
  return new Promise((resolve) => send(resolve));
}

describe('createTransport', () => {
  it('sends GET /work?call=i&attempt=k, reports the write, and parses the server time when asked', async () => {
    const seen: string[] = [];
    handler = (req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ queueMs: 1.5, serviceMs: 10.25, worker: 3 }));
    };
    const written: Array<[number, number, number]> = [];
    const t = createTransport({
      target,
      serverTiming: true,
      onWritten: (c, a, at) => written.push([c, a, at]),
    });
    const before = performance.now();
    const out = await once((d) => t.send(7, 2, d));
    expect(seen).toEqual(['GET /work?call=7&attempt=2']);
    expect(out).toEqual({ ok: true, value: 11.75 });
    expect(written.length).toBe(1);
    expect(written[0].slice(0, 2)).toEqual([7, 2]);
    expect(written[0][2]).toBeGreaterThanOrEqual(before);
    expect(t.inflight).toBe(0);
    await t.destroy();
  });

  it('turns a non-2xx status into a failed attempt with the status as the reason', async () => {
    handler = (_q, res) => {
      res.statusCode = 503;
      res.end('busy');
    };
    const reasons: string[] = [];
    const t = createTransport({ target, onFailed: (r) => reasons.push(r) });
    const out = await once((d) => t.send(1, 1, d));
    expect(out.ok).toBe(false);
    if (!out.ok) {
      expect(out.error).toBeInstanceOf(AttemptFailedError);
      expect(out.error.reason).toBe('HTTP 503');
      expect(out.error.code).toBe('HB_ATTEMPT_FAILED');
    }
    expect(reasons).toEqual(['HTTP 503']);
    await t.destroy();
  });

  it('a cancel aborts the request: the server sees the request close, done is never called', async () => {
    let arrived!: () => void;
    const arrival = new Promise<void>((r) => {
      arrived = r;
    });
    handler = () => arrived(); // never answers
    closedEarly.length = 0;
    const t = createTransport({ target });
    let called = false;
    const cancel = t.send(42, 1, () => {
      called = true;
    });
    await arrival;
    expect(t.inflight).toBe(1);
    cancel();
    expect(t.inflight).toBe(0);
    for (let i = 0; i < 200 && closedEarly.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(closedEarly).toEqual(['?call=42&attempt=1']);
    expect(called).toBe(false);
    await t.destroy();
  });

  it('a cancel before the write means the request is never written', async () => {
    const seen: string[] = [];
    handler = (req, res) => {
      seen.push(req.url ?? '');
      res.end('{}');
    };
    const t = createTransport({ target });
    let called = false;
    // dispatch() on a fresh pool must first connect, so the write happens later than send() returns.
    const cancel = t.send(5, 1, () => {
      called = true;
    });
    cancel();
    const out = await once((d) => t.send(6, 1, d));
    expect(out.ok).toBe(true);
    expect(seen).toEqual(['/work?call=6&attempt=1']);
    expect(called).toBe(false);
    await t.destroy();
  });

  it('a dead target fails fast: probe rejects with HB_TARGET_UNREACHABLE, an attempt fails with ECONNREFUSED', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const t = createTransport({ target: dead, connectTimeoutMs: 1000 });
    await expect(t.probe()).rejects.toBeInstanceOf(TargetUnreachableError);
    await expect(t.probe()).rejects.toMatchObject({ code: 'HB_TARGET_UNREACHABLE' });
    const out = await once((d) => t.send(1, 1, d));
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.error.reason).toBe('ECONNREFUSED');
    await t.destroy();
  });

  it('a failed connect whose handlers send again at once fails each attempt, never the process', async () => {
    // One connection, two attempts: the second waits in the pool, and each failure sends the next at once.
    // Handing the connection on from inside undici's connect-error loop made undici assert and throw
    // (seen as a load generator dying in a collapsing point).
    const dead = `http://127.0.0.1:${await freePort()}`;
    const t = createTransport({ target: dead, connections: 1, connectTimeoutMs: 1000 });
    const reasons: string[] = [];
    await new Promise<void>((resolve) => {
      let open = 2;
      const next = (k: number): void => {
        t.send(k, 1, (o) => {
          reasons.push(o.ok ? 'ok' : o.error.reason);
          if (k % 100 < 9) next(k + 1);
          else if (--open === 0) resolve();
        });
      };
      next(0);
      next(100);
    });
    expect(reasons).toEqual(Array.from({ length: 20 }, () => 'ECONNREFUSED'));
    await t.destroy();
  });
});

describe('ConnectionPool', () => {
  it('opens one connection per request in flight, but only maxConnecting at a time; the rest wait in order', async () => {
    const held: ServerResponse[] = [];
    const order: string[] = [];
    handler = (_req, res, url) => {
      order.push(url.searchParams.get('i') ?? '');
      held.push(res);
    };
    const pool = new ConnectionPool({ origin: target, maxConnecting: 2 });
    const ended: number[] = [];
    const handlers = Array.from({ length: 10 }, (_, i) => {
      const h: PooledHandler = {
        conn: null,
        ended: false,
        opts: { origin: target, path: `/x?i=${i}`, method: 'GET' },
        onConnect: () => {},
        onHeaders: () => true,
        onData: () => true,
        onComplete: () => {
          pool.release(h);
          ended.push(i);
        },
        onError: () => {
          pool.release(h);
        },
      };
      return h;
    });
    for (const h of handlers) pool.dispatch(h);
    expect(pool.connections).toBe(2);
    expect(pool.queued).toBe(8);
    for (let i = 0; i < 300 && held.length < 10; i++) await new Promise((r) => setTimeout(r, 10));
    expect(held.length).toBe(10);
    expect(pool.connections).toBe(10);
    expect(pool.queued).toBe(0);
    expect(order).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    // Freed connections are reused: ten more requests open nothing new.
    for (const res of held.splice(0)) res.end('{}');
    for (let i = 0; i < 300 && ended.length < 10; i++) await new Promise((r) => setTimeout(r, 10));
    handler = (_req, res) => res.end('{}');
    let done = 0;
    for (let i = 0; i < 10; i++) {
      const h: PooledHandler = {
        conn: null,
        ended: false,
        opts: { origin: target, path: '/y', method: 'GET' },
        onConnect: () => {},
        onHeaders: () => true,
        onData: () => true,
        onComplete: () => {
          pool.release(h);
          done++;
        },
        onError: () => pool.release(h),
      };
      pool.dispatch(h);
    }
    for (let i = 0; i < 300 && done < 10; i++) await new Promise((r) => setTimeout(r, 10));
    expect(done).toBe(10);
    expect(pool.connections).toBe(10);
    await pool.destroy();
  });
});
