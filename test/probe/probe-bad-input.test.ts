// Bad input and services the model does not describe, each against a real server on loopback: a clear
// error (a ProbeError with a stable code) carrying what was measured so far, and never a model.json.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createProbe,
  PROBE_FILES,
  ProbeError,
  ProbeOptionsError,
  writePartialProbe,
} from '../../probe/index.ts';

const servers: Server[] = [];
const outs: string[] = [];

/** A node:http server on 127.0.0.1:0 answering with `handle`; closed in afterAll. */
async function serve(
  handle: (res: import('node:http').ServerResponse, inflight: number) => void,
): Promise<string> {
  let inflight = 0;
  const s = createServer((req, res) => {
    inflight++;
    res.on('close', () => inflight--);
    req.resume();
    handle(res, inflight);
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}/x`;
}

async function probeError(o: Parameters<typeof createProbe>[0]): Promise<ProbeError> {
  try {
    await createProbe(o).run();
  } catch (err) {
    expect(err).toBeInstanceOf(ProbeError);
    return err as ProbeError;
  }
  throw new Error('the probe completed; an error was expected');
}

afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  for (const o of outs) rmSync(o, { recursive: true, force: true });
});

describe('probe: bad input', () => {
  it('refuses bad options before sending anything', () => {
    expect(() => createProbe({ target: 'ftp://127.0.0.1/x' })).toThrow(ProbeOptionsError);
    expect(() => createProbe({ target: 'not a url' })).toThrow(/--target/);
    expect(() => createProbe({ target: 'http://127.0.0.1:1/x', maxRate: 0 })).toThrow(/--max-rate/);
    expect(() => createProbe({ target: 'http://127.0.0.1:1/x', floorUrl: 'http://127.0.0.2:1/' })).toThrow(
      /--floor-url/,
    );
  });

  it('an unreachable URL: HB_PROBE_UNREACHABLE', async () => {
    const url = await serve((res) => res.end());
    const port = new URL(url).port;
    const s = servers.pop() as Server;
    await new Promise((r) => s.close(r));
    const err = await probeError({ target: `http://127.0.0.1:${port}/x`, maxSeconds: 10 });
    expect(err.code).toBe('HB_PROBE_UNREACHABLE');
    expect(err.message).toContain(`127.0.0.1:${port}`);
  });

  it('a URL that answers only errors: HB_PROBE_ERRORS with the statuses counted, and no model.json', async () => {
    const url = await serve((res) => {
      res.statusCode = 503;
      res.end('busy');
    });
    const err = await probeError({ target: url, maxSeconds: 10 });
    expect(err.code).toBe('HB_PROBE_ERRORS');
    expect(err.message).toMatch(/HTTP 503 ×\d+/);
    expect(err.partial.measured.some((l) => l.startsWith('low load'))).toBe(true);
    const out = mkdtempSync(join(tmpdir(), 'hb-probe-bad-'));
    outs.push(out);
    writePartialProbe(out, url, err);
    expect(existsSync(join(out, PROBE_FILES.model))).toBe(false);
    expect(readFileSync(join(out, PROBE_FILES.report), 'utf8')).toContain('INCOMPLETE');
  });

  it('a service at the network floor: HB_PROBE_TOO_FAST', async () => {
    const url = await serve((res) => res.end('ok'));
    const err = await probeError({ target: url, lowLoadRequests: 300, maxSeconds: 20 });
    expect(err.code).toBe('HB_PROBE_TOO_FAST');
    expect(err.message).toMatch(/network floor/);
  });

  it('a service slower than the timeout: HB_PROBE_TOO_SLOW', async () => {
    const url = await serve((res) => {
      setTimeout(() => res.end('late'), 3000).unref();
    });
    const err = await probeError({
      target: url,
      timeoutMs: 100,
      lowLoadRequests: 20,
      minSamples: 10,
      maxSeconds: 10,
    });
    expect(err.code).toBe('HB_PROBE_TOO_SLOW');
    // undici's timers are coarse (about 1 s), so the bound is generous; the phase still ends in time.
    expect(err.message).toMatch(/timeout|raise --max-seconds/);
  });

  it('--max-rate too low to find the knee: HB_PROBE_NO_KNEE with the steps measured, no model.json', async () => {
    // Constant 8 ms whatever the concurrency: no queue, so no knee at any rate (not a worker pool).
    const url = await serve((res) => {
      setTimeout(() => res.end('ok'), 8).unref();
    });
    const err = await probeError({
      target: url,
      lowLoadRequests: 300,
      stepSeconds: 2,
      maxRate: 10,
      maxSeconds: 40,
    });
    expect(err.code).toBe('HB_PROBE_NO_KNEE');
    expect(err.message).toMatch(/--max-rate 10/);
    expect(err.message).toMatch(/not a worker pool/);
    const steps = (err.partial.data as { steps: { rate: number }[] }).steps;
    expect(steps.length).toBeGreaterThan(0);
    expect(Math.max(...steps.map((s) => s.rate))).toBeLessThanOrEqual(10);
    const out = mkdtempSync(join(tmpdir(), 'hb-probe-bad-'));
    outs.push(out);
    writePartialProbe(out, url, err);
    expect(existsSync(join(out, PROBE_FILES.model))).toBe(false);
    expect(readFileSync(join(out, PROBE_FILES.steps), 'utf8').trim().split('\n')).toHaveLength(
      steps.length + 1,
    );
  });

  it('stops at once when aborted (Ctrl-C): HB_PROBE_INTERRUPTED', async () => {
    const url = await serve((res) => {
      setTimeout(() => res.end('ok'), 5).unref();
    });
    const ac = new AbortController();
    const run = createProbe({ target: url, maxSeconds: 60 }).run(ac.signal);
    setTimeout(() => ac.abort(), 300);
    const t0 = performance.now();
    const err = await run.catch((e) => e);
    expect(err.code).toBe('HB_PROBE_INTERRUPTED');
    // Not a speed assertion: the low-load phase alone would run for tens of seconds.
    expect(performance.now() - t0).toBeLessThan(5_000);
  });
});
