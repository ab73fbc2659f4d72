// The probe's noise flag: when its own process runs late — here the test blocks the probe's event loop
// for 30 ms every 100 ms, as a busy machine would — its steps carry the probe's delay, not the service's,
// and the result, the report and steps.csv must say so. The flag is asserted, never a timing bound.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProbe, PROBE_FILES, ProbeError, type ProbeResult, writeProbe } from '../../probe/index.ts';
import { noiseLimitMs, noiseVerdict, stepNoise } from '../../probe/noise.ts';

let server: Server;
const out = mkdtempSync(join(tmpdir(), 'hb-probe-noise-'));

beforeAll(async () => {
  // Two workers behind one FIFO queue, 10 ms each.
  let busy = 0;
  const queue: (() => void)[] = [];
  server = createServer((req, res) => {
    req.resume();
    const serve = () => {
      busy++;
      setTimeout(() => {
        busy--;
        queue.shift()?.();
        res.end('ok');
      }, 10).unref();
    };
    if (busy < 2) serve();
    else queue.push(serve);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
  rmSync(out, { recursive: true, force: true });
});

describe('the probe flags its own delays', () => {
  it('marks steps noisy and says the fit rests on them when its event loop is blocked', async () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    const probe = createProbe({
      target: url,
      lowLoadRequests: 200,
      stepSeconds: 1,
      stepGrowth: 1.5,
      maxRate: 2000,
      maxSeconds: 90,
      simCalls: 2000,
    });
    const blocker = setInterval(() => {
      const until = performance.now() + 30;
      while (performance.now() < until) {}
    }, 100);
    let result: ProbeResult | null = null;
    let stopped: ProbeError | null = null;
    try {
      result = await probe.run();
    } catch (err) {
      if (!(err instanceof ProbeError)) throw err;
      stopped = err;
    } finally {
      clearInterval(blocker);
    }
    process.stderr.write(
      `probe with a blocked event loop: ${result ? `noise: ${result.noise}` : `stopped (${stopped?.code}): ${stopped?.partial.measured.join(' | ')}`}\n`,
    );
    if (result === null) {
      // Stopped before a fit (the noise may even hide the knee): the steps it reported still say noisy.
      expect(stopped!.partial.measured.some((l) => l.includes('— noisy: send lag p99'))).toBe(true);
      return;
    }
    expect(result.steps.some((s) => s.noisy !== null)).toBe(true);
    expect(result.noise).toMatch(
      /^the probe's own delays were [\d.]+ ms at step \d+ .* rerun on a quieter machine$/,
    );
    await writeProbe(out, result);
    const report = readFileSync(join(out, PROBE_FILES.report), 'utf8');
    expect(report).toContain("**Noisy probe** — the probe's own delays were");
    const csv = readFileSync(join(out, PROBE_FILES.steps), 'utf8').trim().split('\n');
    expect(csv[0].endsWith(',send_lag_p99_ms,loop_delay_p99_ms,noisy')).toBe(true);
    expect(csv.slice(1).some((l) => l.includes('send lag p99'))).toBe(true);
  }, 120_000);

  it('calls a step noisy only above the limit, and names the worst step', () => {
    expect(noiseLimitMs(2)).toBe(3);
    expect(noiseLimitMs(40)).toBe(10);
    expect(stepNoise({ sendLagP99Ms: 1, loopDelayP99Ms: 2.9 }, 3)).toBeNull();
    expect(stepNoise({ sendLagP99Ms: 0.5, loopDelayP99Ms: 12 }, 3)).toBe(
      'send lag p99 0.5 ms, event-loop delay p99 12.0 ms (over 3.0 ms)',
    );
    const quiet = { sendLagP99Ms: 0.2, loopDelayP99Ms: 0.4, noisy: null };
    expect(noiseVerdict([quiet, quiet])).toBeNull();
    const loud = (ms: number) => ({ sendLagP99Ms: ms, loopDelayP99Ms: 1, noisy: `lag ${ms}` });
    expect(noiseVerdict([quiet, loud(8), loud(20), quiet])).toBe(
      "the probe's own delays were 20.0 ms at step 3 (2 of 4 steps noisy: lag 20); the fit rests on latencies the probe itself added — rerun on a quieter machine",
    );
  });
});
