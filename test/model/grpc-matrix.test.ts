// The gRPC dimensions of a matrix: `transport` (http1 | grpc) and the hedger a configuration names
// (`grpcHedging` = grpc-js, predicted with the library's A6 policy); their keys, slugs and CSV columns; a
// simulated grpc-js point; and every bad input the issue lists, refused with the field and A6's rule.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { POINTS_HEADER, parsePointsCsv, rowKey } from '../../contract/index.ts';
import { A6HedgePolicy, ManualClock } from '../../library/index.ts';
import {
  buildPipeline,
  calibrationGroup,
  calibrationPoint,
  calibrationPoints,
  expandMatrix,
  grpcServiceConfig,
  MatrixInvalidError,
  parseMatrix,
  pointKey,
  pointSlug,
} from '../../model/index.ts';
import { simulateMatrix } from '../../simulator/index.ts';

const grpcJs = {
  name: 'grpc-js hedge',
  grpcHedging: { maxAttempts: 2, hedgingDelayMs: 20, nonFatalStatusCodes: ['UNAVAILABLE', 8] },
  retryThrottling: { maxTokens: 10, tokenRatio: 0.1 },
};
const base = {
  name: 'grpc',
  configs: ['no hedge', grpcJs],
  loads: [0.5],
  cancellation: ['propagate'],
  seeds: [1],
  calls: 3000,
  calibration: false,
  transport: ['http1', 'grpc'],
};

const tmp = mkdtempSync(join(tmpdir(), 'hb-grpc-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function issues(json: unknown): string {
  try {
    parseMatrix(json);
  } catch (e) {
    expect(e).toBeInstanceOf(MatrixInvalidError);
    return (e as MatrixInvalidError).issues.join('\n');
  }
  throw new Error('expected a refusal');
}

describe('transport and hedger dimensions', () => {
  const m = parseMatrix(base);
  const points = expandMatrix(m);

  it('runs a library configuration over each transport and a grpc-js one over gRPC only', () => {
    expect(points.map(pointKey)).toEqual([
      'no hedge|0.50|propagate|1',
      'no hedge|0.50|propagate|1|t=grpc',
      'grpc-js hedge|0.50|propagate|1|t=grpc|g=grpc-js',
    ]);
    expect(points.map(pointSlug)).toEqual([
      'no-hedge_0.50_propagate_s1',
      'no-hedge_0.50_propagate_s1_tgrpc',
      'grpc-js-hedge_0.50_propagate_s1_tgrpc_ggrpc-js',
    ]);
  });

  it('a matrix without `transport` expands exactly as before', () => {
    const plain = expandMatrix(parseMatrix({ ...base, configs: ['no hedge'], transport: undefined }));
    expect(plain.map((p) => p.dims)).toEqual([undefined]);
    expect(plain.map(pointKey)).toEqual(['no hedge|0.50|propagate|1']);
  });

  it('the calibration point goes over the first transport', () => {
    const c = calibrationPoint(
      parseMatrix({ ...base, transport: ['grpc'], calibration: { load: 0.1, calls: 100 } }),
    );
    expect(c?.dims).toEqual({ transport: 'grpc' });
    expect(
      calibrationPoint(parseMatrix({ ...base, calibration: { load: 0.1, calls: 100 } }))?.dims,
    ).toBeUndefined();
  });

  it('a matrix of two transports gets a calibration point over each, each the group of its own points', () => {
    const m = parseMatrix({ ...base, timeScale: [1, 5], calibration: { load: 0.1, calls: 100 } });
    const cals = calibrationPoints(m);
    expect(cals.map(pointKey)).toEqual([
      'no hedge|0.10|propagate|1',
      'no hedge|0.10|propagate|1|t=grpc',
      'no hedge|0.10|propagate|1|x=5',
      'no hedge|0.10|propagate|1|t=grpc|x=5',
    ]);
    expect(cals.map(calibrationGroup)).toEqual(['1|http1', '1|grpc', '5|http1', '5|grpc']);
    // Every point of the matrix has its own transport's and scale's calibration point.
    const groups = new Set(cals.map(calibrationGroup));
    for (const p of expandMatrix(m)) expect(groups.has(calibrationGroup(p))).toBe(true);
    // One transport: one calibration point a scale, as before.
    expect(
      calibrationPoints(
        parseMatrix({ ...base, transport: ['grpc'], calibration: { load: 0.1, calls: 100 } }),
      ).map(pointKey),
    ).toEqual(['no hedge|0.10|propagate|1|t=grpc']);
  });

  it('a grpc-js configuration is predicted by the library A6 policy; its service config says the same', () => {
    const p = buildPipeline(grpcJs, new ManualClock());
    expect(p.steps).toHaveLength(1);
    const a6 = p.steps[0] as A6HedgePolicy;
    expect(a6).toBeInstanceOf(A6HedgePolicy);
    expect(a6.isNonFatal({ code: 14 })).toBe(true);
    expect(a6.isNonFatal({ code: 8 })).toBe(true);
    expect(a6.isNonFatal({ code: 13 })).toBe(false);
    expect(a6.throttle?.maxTokens).toBe(10);
    expect(
      JSON.parse(grpcServiceConfig('hedgebench.Target', grpcJs.grpcHedging, grpcJs.retryThrottling)),
    ).toEqual({
      methodConfig: [
        {
          name: [{ service: 'hedgebench.Target' }],
          hedgingPolicy: { maxAttempts: 2, hedgingDelay: '0.02s', nonFatalStatusCodes: [14, 8] },
        },
      ],
      retryThrottling: { maxTokens: 10, tokenRatio: 0.1 },
    });
  });

  it('a service config may name one method (the load generator hedges Work, not the Ping warm-up)', () => {
    const sc = JSON.parse(grpcServiceConfig('hedgebench.Target', grpcJs.grpcHedging, undefined, 'Work'));
    expect(sc.methodConfig[0].name).toEqual([{ service: 'hedgebench.Target', method: 'Work' }]);
    expect(sc.retryThrottling).toBeUndefined();
  });

  it('writes transport and hedger columns, and a simulated grpc-js point hedges', async () => {
    const r = await simulateMatrix(m, join(tmp, 'sim'), { threads: 0 });
    const text = readFileSync(r.pointsCsvPath, 'utf8');
    expect(text.split('\n')[0]).toBe(`${POINTS_HEADER},transport,hedger`);
    const rows = parsePointsCsv(text);
    expect(rows.map((x) => [x.transport ?? null, x.hedger ?? null])).toEqual([
      [null, null],
      ['grpc', null],
      ['grpc', 'grpc-js'],
    ]);
    expect(rows.map(rowKey)).toEqual(points.map(pointKey));
    // The simulation has no transport: the same point over either gives the same prediction.
    expect({ ...rows[1], transport: undefined }).toEqual({ ...rows[0], transport: undefined });
    expect(rows[2]!.hedge_rate!).toBeGreaterThan(0);
    expect(r.tables).toContain('grpc-js hedge · over gRPC · hedged by grpc-js');
  });
});

describe('bad gRPC input', () => {
  const withConfig = (c: object) => ({ ...base, configs: [{ name: 'g', ...c }] });
  const hedging = { maxAttempts: 2, hedgingDelayMs: 20 };
  it.each([
    [
      { grpcHedging: { ...hedging, maxAttempts: 1 } },
      /configs\[0\]\.grpcHedging\.maxAttempts: must be ≥ 2 \(gRFC A6/,
    ],
    [
      { grpcHedging: { ...hedging, hedgingDelayMs: -5 } },
      /grpcHedging\.hedgingDelayMs: must be ≥ 0 \(gRFC A6/,
    ],
    [
      { grpcHedging: { ...hedging, nonFatalStatusCodes: ['NOPE'] } },
      /nonFatalStatusCodes\[0\]: must be a gRPC status/,
    ],
    [
      { grpcHedging: hedging, retryThrottling: { maxTokens: 10, tokenRatio: 0.1234 } },
      /tokenRatio: must have at most 3 decimal places \(gRFC A6\)/,
    ],
    [
      { grpcHedging: hedging, retryThrottling: { maxTokens: 0, tokenRatio: 0.1 } },
      /maxTokens: must be in \(0, 1000\] \(gRFC A6\)/,
    ],
    [
      { grpcHedging: hedging, retryThrottling: { maxTokens: 1000.5, tokenRatio: 0.1 } },
      /maxTokens: must be in \(0, 1000\]/,
    ],
    [
      { grpcHedging: hedging, hedge: { delayMs: 20 } },
      /hedge = .*cannot sit beside grpcHedging: grpc-js hedges this configuration/,
    ],
    [{ grpcHedging: hedging, adaptiveLimit: {} }, /adaptiveLimit = .*cannot sit beside grpcHedging/],
    [
      { retryThrottling: { maxTokens: 10, tokenRatio: 0.1 } },
      /retryThrottling = .*applies to gRPC hedging only/,
    ],
  ])('%j', (config, message) => {
    expect(issues(withConfig(config))).toMatch(message);
  });

  it('a grpc-js configuration without the gRPC transport, and a bad transport list', () => {
    expect(issues({ ...base, transport: undefined })).toMatch(
      /configs\[1\]: "grpc-js hedge" is hedged by grpc-js \(grpcHedging\), which needs gRPC; add "transport": \["grpc"\]/,
    );
    expect(issues({ ...base, transport: ['http2'] })).toMatch(/transport\[0\]: must be 'http1' or 'grpc'/);
    expect(issues({ ...base, transport: ['grpc', 'grpc'] })).toMatch(/transport: 'grpc' appears twice/);
    expect(issues({ ...base, transport: [] })).toMatch(/transport: must list at least one transport/);
  });
});

describe('experiments/grpc.json', () => {
  it('runs the library configurations over both transports and the grpc-js ones over gRPC, at two loads and both modes', () => {
    const json = JSON.parse(readFileSync(new URL('../../experiments/grpc.json', import.meta.url), 'utf8'));
    const points = expandMatrix(parseMatrix(json));
    expect(points).toHaveLength(24);
    const grpcJs = points.filter((p) => p.dims?.hedger === 'grpc-js');
    expect(grpcJs).toHaveLength(8);
    for (const p of grpcJs) expect(p.dims?.transport).toBe('grpc');
    expect(new Set(points.map((p) => p.load))).toEqual(new Set([0.5, 0.95]));
    expect(
      points.filter((p) => p.config.name === 'no hedge' && p.dims?.transport === undefined),
    ).toHaveLength(4);
  });
});
