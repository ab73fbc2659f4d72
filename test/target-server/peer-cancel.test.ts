// Tied requests between two real target servers on loopback (real Redis, both pool modes): the server that
// starts a copy cancels its sibling on the other server over POST /peer-cancel, which removes it from its queue
// (answered 410, recorded with the cancel's arrival and fate); a cancel that comes before its copy drops the
// copy on arrival; the route wants the run's token; a peer that is down costs a counted, failed cancel and
// nothing else; bad tied settings are refused naming the field.

import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ATTEMPT_TIED_FIELDS, attemptFields, redisKeys } from '../../contract/index.ts';
import type { TargetServer } from '../../target-server/index.ts';
import { constant, useFixtures } from './fixtures.ts';
import { call, until } from './http.ts';

const fx = useFixtures();
const token = 'tok-tied';

/** One tied attempt record, the columns this test reads. */
interface TiedRow {
  call: number;
  attempt: number;
  start: number;
  end: number;
  ended: string;
  worker: number;
  replica: number;
  sent: number;
  arrived: number;
  fate: string;
  decided: number;
}

async function tiedRecords(slug: string): Promise<TiedRow[]> {
  const entries = await fx.redis().xrange(redisKeys('t', slug).attempts, '-', '+');
  const n = attemptFields(2, true).length;
  return entries.map(([, f]) => {
    const c = f[1]!.split(',');
    expect(c).toHaveLength(n);
    const num = (s: string) => (s === '' ? Number.NaN : Number(s));
    return {
      call: num(c[0]!),
      attempt: num(c[1]!),
      start: num(c[3]!),
      end: num(c[4]!),
      ended: c[5]!,
      worker: num(c[6]!),
      replica: num(c[9]!),
      sent: num(c[10]!),
      arrived: num(c[11]!),
      fate: c[12]!,
      decided: num(c[13]!),
    };
  });
}

/** Sets server `s` as replica `replica` of a tied point whose replicas are at `peers`. */
async function tie(s: TargetServer, replica: number, peers: string[], slug: string): Promise<void> {
  const body = { replica, replicas: peers.length, tiedCopies: 2, peers, seed: 1, run: 't', slug };
  const r = await call(fx.agent, `${s.url}/config`, { method: 'PUT', body, token });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
}

/** Ends recording (which flushes the point's records to Redis). */
async function stopRecording(s: TargetServer): Promise<void> {
  const body = { run: null, slug: null };
  expect((await call(fx.agent, `${s.url}/config`, { method: 'PUT', body, token })).status).toBe(200);
}

/** A URL where nothing listens (a port just freed). */
async function deadUrl(): Promise<string> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return `http://127.0.0.1:${port}`;
}

const options = (pool: 'loop' | 'thread') => ({
  pool,
  workers: 1,
  model: constant(60),
  token,
  redisUrl: fx.redisUrl(),
});

describe('tied copies across two target servers', () => {
  for (const pool of ['loop', 'thread'] as const) {
    it(`the server that starts a copy removes its queued sibling on the other server (${pool} pool)`, async () => {
      await fx.redis().flushdb();
      await fx.withServer(options(pool), async (a) => {
        await fx.withServer(options(pool), async (b) => {
          const peers = [a.url, b.url];
          await tie(a, 0, peers, 'rm-a');
          await tie(b, 1, peers, 'rm-b');
          // Replica 1's one worker is busy with call 9, so call 0's copy waits there; replica 0 is idle.
          const busy = call(fx.agent, `${b.url}/work?call=9&attempt=1&peers=0`);
          await until(() => b.stats().busyWorkers === 1, 'replica 1 to be busy');
          const queued = call(fx.agent, `${b.url}/work?call=0&attempt=2&peers=0`);
          await until(() => b.stats().queueLength === 1, 'the copy to queue on replica 1');
          const runs = call(fx.agent, `${a.url}/work?call=0&attempt=1&peers=1`);
          const removed = await queued;
          expect(removed.status).toBe(410);
          expect(removed.body.error.code).toBe('HB_PEER_CANCELLED');
          expect((await runs).status).toBe(200);
          expect((await busy).status).toBe(200);
          expect(b.stats().peerCancel).toMatchObject({ received: 1, removed: 1, sent: 1 });
          // Call 9's start cancelled a copy replica 0 never got: remembered there (it would drop it on arrival).
          await until(() => a.stats().peerCancel.received === 1, "call 9's cancel to reach replica 0");
          expect(a.stats().peerCancel).toMatchObject({ sent: 1, failed: 0, remembered: 1 });
          await stopRecording(a);
          await stopRecording(b);
          // The counters outlive the end of the recording (the orchestrator reads them after it), until a reset.
          expect(b.stats().peerCancel).toMatchObject({ received: 1, removed: 1, sent: 1 });
          const [ranRow] = await tiedRecords('rm-a');
          const rows = await tiedRecords('rm-b');
          const gone = rows.find((r) => r.call === 0)!;
          expect(ranRow).toMatchObject({ call: 0, attempt: 1, ended: 'served', replica: 0, fate: '' });
          expect(gone).toMatchObject({
            attempt: 2,
            ended: 'cancelled-queued',
            worker: -1,
            replica: 1,
            fate: 'removed',
          });
          expect(Number.isNaN(gone.start) && Number.isNaN(gone.sent)).toBe(true);
          // Sent and arrived on the one clock both processes share: the cancel's transit.
          const transit = gone.arrived - ranRow!.sent;
          expect(transit).toBeGreaterThan(0);
          expect(transit).toBeLessThan(1_000);
          // Decided when the pool removed it, on the same epoch clock: its end on its server's clock + the origin
          // the server reports (µs cells).
          expect(gone.decided).toBeGreaterThanOrEqual(gone.arrived);
          expect(gone.decided - gone.arrived).toBeLessThan(1_000);
          expect(gone.decided - (gone.end + b.stats().clockEpochMs)).toBeCloseTo(0, 2);
          expect(rows.find((r) => r.call === 9)).toMatchObject({ ended: 'served', fate: '' });
          expect(ATTEMPT_TIED_FIELDS).toEqual([
            'peer_cancel_sent_ms',
            'peer_cancel_arrived_ms',
            'peer_cancel',
            'peer_cancel_decided_ms',
          ]);
        });
      });
    });
  }

  it('a cancel that comes before its copy drops the copy on arrival', async () => {
    await fx.redis().flushdb();
    await fx.withServer(options('thread'), async (b) => {
      await tie(b, 1, ['http://127.0.0.1:9', b.url], 'drop');
      const c = await call(fx.agent, `${b.url}/peer-cancel?call=5&attempt=1`, { method: 'POST', token });
      expect(c.status).toBe(200);
      expect(c.body).toEqual({ outcome: 'remembered' });
      const w = await call(fx.agent, `${b.url}/work?call=5&attempt=2&peers=0`);
      expect(w.status).toBe(410);
      expect(b.stats()).toMatchObject({ submitted: 0, peerCancel: { droppedOnArrival: 1, remembered: 1 } });
      await stopRecording(b);
      const [row] = await tiedRecords('drop');
      expect(row).toMatchObject({
        call: 5,
        attempt: 2,
        ended: 'cancelled-queued',
        worker: -1,
        fate: 'dropped',
      });
      expect(row!.arrived).toBeGreaterThan(Date.now() - 60_000);
      expect(row!.decided).toBe(row!.arrived);
    });
  });

  it('a peer that is down: the copy here still runs and answers, the failed cancel is counted', async () => {
    await fx.withServer({ ...options('thread'), model: constant(5) }, async (a) => {
      await tie(a, 0, [a.url, await deadUrl()], 'down');
      const r = await call(fx.agent, `${a.url}/work?call=0&attempt=1&peers=1`);
      expect(r.status).toBe(200);
      await until(() => a.stats().peerCancel.failed === 1, 'the cancel to the dead peer to fail');
      expect(a.stats().peerCancel).toMatchObject({ sent: 1, failed: 1 });
      // And the next call too: a dead peer is never fatal.
      expect((await call(fx.agent, `${a.url}/work?call=1&attempt=1&peers=1`)).status).toBe(200);
    });
  });

  it('POST /peer-cancel wants the token, and names a bad parameter', async () => {
    await fx.withServer(options('loop'), async (s) => {
      const none = await call(fx.agent, `${s.url}/peer-cancel?call=1&attempt=1`, { method: 'POST' });
      expect(none.status).toBe(401);
      expect(none.body.error.code).toBe('HB_UNAUTHORIZED');
      const wrong = await call(fx.agent, `${s.url}/peer-cancel?call=1&attempt=1`, {
        method: 'POST',
        token: 'other',
      });
      expect(wrong.status).toBe(401);
      const bad = await call(fx.agent, `${s.url}/peer-cancel?call=x&attempt=1`, { method: 'POST', token });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/query parameter call must be a whole number/);
      // Not tied: nothing to cancel, and nothing counted.
      const stray = await call(fx.agent, `${s.url}/peer-cancel?call=1&attempt=1`, { method: 'POST', token });
      expect(stray.body).toEqual({ outcome: 'ignored' });
      expect(s.stats().peerCancel.received).toBe(0);
    });
  });

  it('refuses bad tied settings and tags, naming the field and the fix', async () => {
    await fx.withServer(options('loop'), async (s) => {
      const put = (body: object) => call(fx.agent, `${s.url}/config`, { method: 'PUT', body, token });
      for (const [body, text] of [
        [{ replicas: 2, tiedCopies: 2 }, /tiedCopies 2 needs .* peers listing every replica's URL/],
        [{ replicas: 2, tiedCopies: 3, peers: [s.url, s.url] }, /give replicas ≥ tiedCopies/],
        [{ replicas: 2, tiedCopies: 1, peers: [s.url, s.url] }, /tiedCopies 1 is a plain call/],
        [
          { replicas: 2, tiedCopies: 2, peers: [s.url, 'http://10.1.2.3:8080'] },
          /peers\.1 .* outside loopback/,
        ],
        [
          { replicas: 2, tiedCopies: 2, peers: [s.url, 'ftp://127.0.0.1:1'] },
          /peers\.1 .* http:\/\/HOST:PORT/,
        ],
      ] as const) {
        const r = await put(body);
        expect(r.status, JSON.stringify(body)).toBe(400);
        expect(r.body.error.message).toMatch(text);
      }
      // An untied server takes no peers; a tied one only other replicas' indices.
      const untied = await call(fx.agent, `${s.url}/work?call=0&attempt=1&peers=1`);
      expect(untied.status).toBe(400);
      expect(untied.body.error.message).toMatch(/peers is for tied points only .* drop peers/);
      expect((await put({ replica: 0, replicas: 2, tiedCopies: 2, peers: [s.url, s.url] })).status).toBe(200);
      for (const q of ['peers=0', 'peers=2', 'peers=1,1', 'peers=x']) {
        const r = await call(fx.agent, `${s.url}/work?call=0&attempt=1&${q}`);
        expect(r.status, q).toBe(400);
        expect(r.body.error.message, q).toMatch(/peers/);
      }
    });
  });
});
