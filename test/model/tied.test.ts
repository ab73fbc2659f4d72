// Tied requests as a configuration (model/tied.ts): the defaults, the mapping onto the library's hedge (the
// budget and the adaptive limit apply to the copies), the dilated clock, and bad input — each refused with one
// message naming the field and the fix, by the matrix and by buildPipeline.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkPointSpec } from '../../contract/index.ts';
import { ConfigError, ManualClock } from '../../library/index.ts';
import {
  buildPipeline,
  checkTiedReplicas,
  DEFAULT_MODEL,
  dilateConfig,
  expandMatrix,
  type HedgeConfig,
  MatrixInvalidError,
  parseMatrix,
  peerCancelCopies,
  pointKey,
  resolveTied,
  tiedHedgeOptions,
} from '../../model/index.ts';

const base = {
  name: 'x',
  loads: [0.5],
  cancellation: ['ignore'],
  seeds: [1],
  calls: 100,
  replicas: [2, 4],
};
const tied = (t: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  name: 'tied',
  tied: t,
  ...extra,
});

function issuesOf(json: unknown): string[] {
  try {
    parseMatrix(json, 'test.json');
  } catch (e) {
    expect(e).toBeInstanceOf(MatrixInvalidError);
    expect((e as MatrixInvalidError).code).toBe('HB_MATRIX_INVALID');
    return [...(e as MatrixInvalidError).issues];
  }
  throw new Error('expected the matrix to be rejected');
}

describe('tied: the configuration and its mapping', () => {
  it('defaults to 2 copies cancelled on start; gapMs is the hedge delay, copies its attempts', () => {
    expect(resolveTied({ gapMs: 1 })).toEqual({ copies: 2, gapMs: 1, cancel: 'on-start' });
    expect(tiedHedgeOptions({ gapMs: 0 })).toEqual({ delayMs: 0, maxAttempts: 2 });
    expect(tiedHedgeOptions({ gapMs: 1, copies: 3, budgetPercent: 0, budgetWindowMs: 2000 })).toEqual({
      delayMs: 1,
      maxAttempts: 3,
      budgetPercent: 0,
      budgetWindowMs: 2000,
    });
    const c: HedgeConfig = { name: 't', tied: { gapMs: 1 } };
    expect(peerCancelCopies(c)).toBe(2);
    expect(peerCancelCopies({ name: 't', tied: { gapMs: 1, copies: 3 } })).toBe(3);
    // Cancelled on response, the copies are a hedge's attempts: nothing for the transport to tie.
    expect(peerCancelCopies({ name: 't', tied: { gapMs: 1, cancel: 'on-response' } })).toBe(0);
    expect(peerCancelCopies({ name: 'h', hedge: { delayMs: 1 } })).toBe(0);
  });

  it("builds the library's hedge, with its budget (the default 10 %) and an adaptive limit inside", () => {
    const p = buildPipeline({ name: 't', tied: { gapMs: 1 }, adaptiveLimit: {} }, new ManualClock());
    const h = p.hedgePolicy!;
    expect(h.settings).toMatchObject({ delayMs: 1, maxAttempts: 2, budgetPercent: 10 });
    expect(p.limitPolicy).toBeDefined();
    const nb = buildPipeline({ name: 't', tied: { gapMs: 0, budgetPercent: 0 } }, new ManualClock());
    expect(nb.hedgePolicy!.budget).toBeUndefined();
    expect(nb.hedgePolicy!.settings.delayMs).toBe(0);
  });

  it('dilates the gap and the budget window, and divides the budget rate, by k', () => {
    const d = dilateConfig({ name: 't', tied: { gapMs: 1, cancel: 'on-start' } }, 5);
    expect(d.tied).toEqual({
      gapMs: 5,
      cancel: 'on-start',
      budgetWindowMs: 50_000,
      budgetMinHedgesPerSecond: 0.2,
    });
    expect(buildPipeline(d, new ManualClock()).hedgePolicy!.settings.delayMs).toBe(5);
  });

  it('expands with correlation like a hedge, and only ever to distinct replicas (no hedgeTo variant)', () => {
    const m = parseMatrix({
      ...base,
      replicas: [2],
      configs: [tied({ gapMs: 1 })],
      correlation: [0, 0.5],
      hedgeTo: ['other', 'any'],
    });
    expect(expandMatrix(m).map(pointKey)).toEqual(['tied|0.50|ignore|1|r=2', 'tied|0.50|ignore|1|r=2|c=0.5']);
  });

  it('the preset experiments/tied.json parses', () => {
    const json = JSON.parse(readFileSync(new URL('../../experiments/tied.json', import.meta.url), 'utf8'));
    const m = parseMatrix(json);
    expect(m.configs.filter((c) => c.tied !== undefined)).toHaveLength(2);
  });
});

describe('tied: bad input, one message each naming the field and the fix', () => {
  it('one replica: needs replicas ≥ 2', () => {
    const [i, ...rest] = issuesOf({ ...base, replicas: [1, 2], configs: [tied({ gapMs: 1 })] });
    expect(rest).toEqual([]);
    expect(i).toMatch(/^configs\[0\]\.tied: "tied" queues its copies on distinct replicas/);
    expect(i).toMatch(/list replicas ≥ 2 only/);
    // No `replicas` at all is one replica too.
    const { replicas: _r, ...noReplicas } = base;
    expect(issuesOf({ ...noReplicas, configs: [tied({ gapMs: 1 })] })[0]).toMatch(/with 1 replica/);
  });

  it('more copies than replicas', () => {
    expect(issuesOf({ ...base, configs: [tied({ gapMs: 1, copies: 3 })] })).toEqual([
      'configs[0].tied.copies: 3 copies need 3 distinct replicas and the matrix runs "tied" with 2; lower copies to 2 or list only replicas ≥ 3',
    ]);
    // The simulator refuses such a point too, should one be made by hand.
    expect(() => checkTiedReplicas({ name: 't', tied: { gapMs: 1, copies: 3 } }, 2)).toThrow(
      /copies = 3 is invalid: needs as many replicas as copies .* Give the point replicas ≥ copies, or lower copies/,
    );
  });

  it('a negative, missing or non-numeric gap', () => {
    expect(issuesOf({ ...base, configs: [tied({ gapMs: -1 })] })).toEqual([
      'configs[0].tied.gapMs: must be ≥ 0 (ms between the copies; 0 = all at once)',
    ]);
    expect(issuesOf({ ...base, configs: [tied({})] })).toEqual([
      'configs[0].tied.gapMs: is required (number)',
    ]);
    expect(issuesOf({ ...base, configs: [tied({ gapMs: '1' })] })[0]).toMatch(
      /^configs\[0\]\.tied\.gapMs: must be a number ≥ 0/,
    );
    expect(() => resolveTied({ gapMs: -1 }, 'config "t".tied')).toThrow(ConfigError);
    expect(() => resolveTied({ gapMs: -1 }, 'config "t".tied')).toThrow(
      /config "t"\.tied\.gapMs = -1 is invalid: must be a number ≥ 0/,
    );
  });

  it('a foreign target: it cannot cancel between its servers', () => {
    const issues = issuesOf({
      ...base,
      replicas: undefined,
      configs: [tied({ gapMs: 1 })],
      target: { url: 'http://127.0.0.1:9/work' },
    });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^configs\[0\]\.tied: .* a foreign target \(target\.url\) cannot cancel/);
    expect(issues[0]).toMatch(/Remove tied .* or the target$/);
  });

  it("beside grpc-js's grpcHedging", () => {
    const issues = issuesOf({
      ...base,
      replicas: [2],
      transport: ['grpc'],
      configs: [tied({ gapMs: 1 }, { grpcHedging: { maxAttempts: 2, hedgingDelayMs: 20 } })],
    });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^configs\[0\]: config "tied"\.tied = .* cannot sit beside grpcHedging/);
    expect(issues[0]).toMatch(/Drop tied, or grpcHedging/);
  });

  it('beside hedge in one configuration', () => {
    const issues = issuesOf({ ...base, configs: [tied({ gapMs: 1 }, { hedge: { delayMs: 20 } })] });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^configs\[0\]: config "tied"\.hedge = .* cannot sit beside tied/);
    expect(issues[0]).toMatch(/Drop hedge, or tied/);
  });

  it('copies out of range, an unknown cancel, an unknown field', () => {
    expect(issuesOf({ ...base, configs: [tied({ gapMs: 1, copies: 1 })] })).toEqual([
      'configs[0].tied.copies: must be ≥ 2 (1 copy is a plain call: drop `tied`)',
    ]);
    expect(issuesOf({ ...base, configs: [tied({ gapMs: 1, cancel: 'never' })] })[0]).toMatch(
      /^configs\[0\]\.tied\.cancel: use one of on-start, on-response/,
    );
    expect(issuesOf({ ...base, configs: [tied({ gapMs: 1, delayMs: 3 })] })[0]).toMatch(
      /^configs\[0\]\.tied: unknown field\(s\) "delayMs"/,
    );
  });
});

describe('tied on the real clock: what the point spec takes and refuses', () => {
  const spec = (tied: Record<string, unknown>, more: Record<string, unknown> = {}) => ({
    target: 'http://127.0.0.1:8080',
    replicaTargets: ['http://127.0.0.1:8081'],
    config: { name: 't', tied },
    load: 0.5,
    calls: 1000,
    seed: 1,
    warmupFraction: 0.1,
    model: DEFAULT_MODEL,
    ...more,
  });
  const issues = (v: unknown) => {
    const r = checkPointSpec(v);
    return r.ok ? [] : r.issues;
  };
  const three = ['http://127.0.0.1:8081', 'http://127.0.0.1:8082'];

  it('takes copies cancelled on start across replicas, on any balancer with as many replicas as copies', () => {
    expect(issues(spec({ gapMs: 1 }))).toEqual([]);
    expect(issues(spec({ gapMs: 1 }, { balancer: 'two-choices' }))).toEqual([]);
    expect(issues(spec({ gapMs: 0 }, { replicaTargets: three, balancer: 'random' }))).toEqual([]);
    expect(issues(spec({ gapMs: 1, copies: 3 }, { replicaTargets: three, balancer: 'round-robin' }))).toEqual(
      [],
    );
    expect(checkPointSpec(spec({ gapMs: 1, cancel: 'on-response' })).ok).toBe(true);
  });

  it('refuses what it cannot tie, one issue each naming the field and the fix', () => {
    expect(issues(spec({ gapMs: 1 }, { replicaTargets: [] }))).toEqual([
      'replicaTargets: "t" ties 2 copies on distinct replicas and the point has 1; give at least 1 replica target after the target',
    ]);
    expect(issues(spec({ gapMs: 1 }, { hedgeTo: 'any' }))).toEqual([
      'hedgeTo = "any" is invalid: "t" ties its copies, which always go to distinct replicas; drop hedgeTo (or give "other")',
    ]);
    const unpredictable = issues(spec({ gapMs: 1 }, { replicaTargets: three, balancer: 'two-choices' }));
    expect(unpredictable).toHaveLength(1);
    expect(unpredictable[0]).toMatch(
      /^balancer = "two-choices" is invalid: "two-choices" with 3 replicas cannot tie "t"/,
    );
    expect(unpredictable[0]).toMatch(/use balancer "random" .* or replicas ≤ copies \(2/);
    const grpc = issues(
      spec({ gapMs: 1 }, { replicaTargets: undefined, transport: 'grpc', grpcTarget: '127.0.0.1:9000' }),
    );
    expect(grpc).toEqual([
      expect.stringMatching(
        /^transport = "grpc" is invalid: "t" ties its copies, which cancel each other over HTTP\/1\.1 only/,
      ),
    ]);
  });
});
