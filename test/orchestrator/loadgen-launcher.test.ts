// How the embedded load generator is launched: real-time priority where the machine allows it, else plain
// node; and its command line, the point as one --spec.
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePointSpec } from '../../contract/index.ts';
import { DEFAULT_MODEL } from '../../model/index.ts';
import { loadgenArgv, loadgenLauncher, loadgenSpec } from '../../orchestrator/agents/loadgen-agent.ts';
import { createLocalHost, type Host, shellQuote } from '../../orchestrator/hosts/index.ts';
import { rmTemp, tempDir } from './fixture.ts';

let dir: string;
let host: Host;
beforeAll(() => {
  dir = tempDir();
  host = createLocalHost({ name: 'loadgen', workDir: join(dir, 'work') });
});
afterAll(() => rmTemp(dir));

describe('loadgenLauncher', () => {
  it('leaves a remote load generator at normal priority', async () => {
    const how = await loadgenLauncher(host, false);
    expect(how.launcher).toEqual([]);
    expect(how.note).toMatch(/normal priority/);
  });

  it('on this machine: chrt -f when it has ≥ 2 cores and chrt works, else a no-op that says why', async () => {
    const how = await loadgenLauncher(host, true);
    if (how.launcher.length > 0) {
      expect(availableParallelism()).toBeGreaterThanOrEqual(2);
      expect(how.launcher).toEqual(['chrt', '-f', '10']);
      // The launcher must really start a program.
      const r = await host
        .exec([...how.launcher, 'node', '-e', 'process.exit(7)'], { timeoutMs: 10_000 })
        .catch((err: { exitCode?: number }) => ({ exitCode: err.exitCode }));
      expect(r.exitCode).toBe(7);
    } else {
      expect(how.note).toMatch(/normal priority/);
    }
  });
});

describe('loadgenArgv', () => {
  const base = {
    targetUrl: 'http://127.0.0.1:1',
    point: {
      config: { name: 'no hedge' },
      load: 0.5,
      cancellation: 'ignore',
      seed: 1,
      calls: 10,
      warmupFraction: 0.1,
      model: DEFAULT_MODEL,
    },
    redisUrl: 'redis://127.0.0.1:1',
    run: 'r',
    slug: 's',
    maxSeconds: 5,
  } as unknown as Parameters<typeof loadgenArgv>[0];

  it('puts the launcher before node, and nothing when there is none', () => {
    const deployed = { node: '/usr/bin/node', bundle: 'loadgen.mjs', nodeVersion: 'v20' };
    expect(loadgenArgv({ ...base, deployed }).slice(0, 2)).toEqual(['/usr/bin/node', 'loadgen.mjs']);
    const rt = loadgenArgv({ ...base, deployed: { ...deployed, launcher: ['chrt', '-f', '10'] } });
    expect(rt.slice(0, 5)).toEqual(['chrt', '-f', '10', '/usr/bin/node', 'loadgen.mjs']);
  });

  it('passes the point as one --spec the loadgen reads back, and a shell keeps it one word', async () => {
    const deployed = { node: '/usr/bin/node', bundle: 'loadgen.mjs', nodeVersion: 'v20' };
    const argv = loadgenArgv({ ...base, deployed });
    expect(argv.slice(2, 3)).toEqual(['--spec']);
    expect(argv.slice(4)).toEqual(['--quiet']);
    const spec = parsePointSpec(argv[3]);
    expect(spec).toEqual(loadgenSpec({ ...base, deployed }));
    expect(spec).toMatchObject({
      target: 'http://127.0.0.1:1',
      config: { name: 'no hedge' },
      run: 'r',
      slug: 's',
    });
    // Over SSH the start script joins argv with shellQuote: the spec must come out of sh unchanged.
    const r = await host.exec(['sh', '-c', `printf %s ${shellQuote(argv[3])}`], { timeoutMs: 10_000 });
    expect(r.stdout).toBe(argv[3]);
  });

  it('for a foreign service: its route, no warm-up, no clock exchange, and allowAnyTarget only when given', () => {
    const deployed = { node: '/usr/bin/node', bundle: 'loadgen.mjs', nodeVersion: 'v20' };
    const own = loadgenSpec({ ...base, deployed });
    for (const field of ['path', 'warmRequests', 'clockSamples', 'allowAnyTarget'])
      expect(own).not.toHaveProperty(field);
    const foreign = (allowAnyTarget: boolean) =>
      loadgenSpec({ ...base, deployed, foreign: { path: '/api/x?t=1', allowAnyTarget } });
    expect(foreign(false)).toMatchObject({
      path: '/api/x?t=1',
      warmRequests: 0,
      clockSamples: 0,
      allowAnyTarget: false,
    });
    expect(foreign(true).allowAnyTarget).toBe(true);
  });

  it('a perturbed point hedges late on purpose: hedgeDelayFactor reaches the spec, the model does not move', () => {
    const deployed = { node: '/usr/bin/node', bundle: 'loadgen.mjs', nodeVersion: 'v20' };
    const hedged = {
      ...base.point,
      config: { name: 'hedge, default budget', hedge: { delayMs: 20 } },
      dims: { perturb: 'hedgeDelayFactor=1.25+serviceFactor=1.03' },
    };
    const spec = loadgenSpec({ ...base, deployed, point: hedged } as typeof base & {
      deployed: typeof deployed;
    });
    expect(spec.config.hedge?.delayMs).toBe(25);
    // The schedule stays the model's: the service the target runs is the target's business.
    expect(spec.model).toEqual(DEFAULT_MODEL);
    const plain = loadgenSpec({ ...base, deployed, point: { ...hedged, dims: undefined } } as typeof base & {
      deployed: typeof deployed;
    });
    expect(plain.config.hedge?.delayMs).toBe(20);
  });
});
