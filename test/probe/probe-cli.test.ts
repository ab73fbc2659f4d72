// `hedgebench probe` and `hedgebench recommend` as a user runs them (the built CLI, a real child process):
// the plan is the first line, a probe that cannot finish writes its INCOMPLETE report and no model.json and
// exits 1 with its code, bad options exit 2 before anything is sent, and recommend reads a model.json.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, rmTemp, runCli, tempDir } from '../orchestrator/fixture.ts';

let server: Server;
let url: string;
const dir = tempDir('hb-probe-cli-');

beforeAll(async () => {
  requireBuild();
  server = createServer((req, res) => {
    req.resume();
    res.statusCode = 500;
    res.end('no');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmTemp(dir);
});

describe('hedgebench probe / recommend (CLI)', () => {
  it('says what it will send first; an errors-only URL exits 1 with HB_PROBE_ERRORS and no model.json', async () => {
    const out = join(dir, 'errors');
    const r = await runCli([
      'probe',
      '--target',
      url,
      '--out',
      out,
      '--max-seconds',
      '20',
      '--max-rate',
      '50',
    ]);
    expect(String(r.stdout).split('\n')[0]).toMatch(
      /^probe: GET http:\/\/127\.0\.0\.1:\d+\/x .* at most 50 req\/s.* at most 20 s/,
    );
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('HB_PROBE_ERRORS');
    expect(r.stderr).toMatch(/HTTP 500 ×\d+/);
    expect(existsSync(join(out, 'model.json'))).toBe(false);
    expect(readFileSync(join(out, 'probe.md'), 'utf8')).toContain('INCOMPLETE');
  });

  it('refuses bad options with exit 2, before sending anything', async () => {
    const r = await runCli(['probe', '--target', url, '--max-rate', '-3', '--out', join(dir, 'bad')]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('HB_PROBE_OPTIONS');
    expect(r.stderr).toContain('--max-rate');
    expect(r.stdout).toBe('');
    expect(existsSync(join(dir, 'bad'))).toBe(false);
    const noLoad = await runCli(['probe', '--target', url, '--recommend']);
    expect(noLoad.exitCode).toBe(2);
    expect(noLoad.stderr).toContain('--recommend needs --load');
  });

  it('recommend reads a model.json and names a configuration within the limit', async () => {
    const model = join(dir, 'model.json');
    writeFileSync(
      model,
      JSON.stringify({
        workers: 4,
        medianMs: 10,
        sigma: 0.25,
        stragglerProb: 0.02,
        stragglerMinMs: 100,
        stragglerMaxMs: 300,
      }),
    );
    const r = await runCli(['recommend', '--model', model, '--load', '0.5', '--calls', '10000']);
    expect(r.exitCode).toBe(0);
    // Any policy of the search may win (a fixed or percentile delay, a budget shape): each names its hedge.
    expect(r.stdout).toMatch(/\*\*Recommended at load 0\.5: hedge [^*]+\*\*/);
    expect(r.stdout).toContain('As a matrix configuration: `{"name":"hedge');
    writeFileSync(model, JSON.stringify({ workers: 4 }));
    const bad = await runCli(['recommend', '--model', model, '--load', '0.5']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('HB_PROBE_OPTIONS');
  });
});
