// The point spec a load generator is started with: what the writer writes the reader reads back, and a bad
// spec is refused with a stable code and a line per bad field that names it and the fix.

import { describe, expect, it } from 'vitest';
import { checkPointSpec, type PointSpec, parsePointSpec, pointSpecJson } from '../../contract/index.ts';
import { DEFAULT_MODEL, referenceConfig } from '../../model/index.ts';

const spec: PointSpec = {
  target: 'http://127.0.0.1:8080',
  config: referenceConfig('hedge, default budget')!,
  load: 0.5,
  calls: 1000,
  seed: 1,
  warmupFraction: 0.1,
  model: DEFAULT_MODEL,
  timeScale: 5,
  run: 'r',
  slug: 's',
  maxSeconds: 40,
  replicaTargets: ['http://127.0.0.1:8081'],
  balancer: 'two-choices',
  hedgeTo: 'any',
  client: 1,
  clients: 2,
  path: '/api/x?t=1',
  warmRequests: 0,
  clockSamples: 0,
  allowAnyTarget: true,
};

describe('pointSpecJson / parsePointSpec', () => {
  it('round-trips every field, and reads a reference name as its configuration', () => {
    expect(parsePointSpec(pointSpecJson(spec))).toEqual(spec);
    const named = parsePointSpec(JSON.stringify({ ...spec, config: 'no hedge' }));
    expect(named.config).toEqual(referenceConfig('no hedge'));
    expect(named.config).not.toBe(referenceConfig('no hedge'));
  });

  it('refuses what is not JSON with HB_POINT_SPEC_INVALID', () => {
    expect(() => parsePointSpec('{"target":')).toThrowError(
      expect.objectContaining({ code: 'HB_POINT_SPEC_INVALID', message: expect.stringMatching(/not JSON/) }),
    );
  });

  it('names each bad field, its value and the fix', () => {
    const bad = { ...spec, load: 0, calls: 2.5, clients: 2, client: 2, extra: 1, hedgeTo: 'near' } as unknown;
    let err: { code?: string; issues?: string[] } = {};
    try {
      parsePointSpec(JSON.stringify(bad));
    } catch (e) {
      err = e as typeof err;
    }
    expect(err.code).toBe('HB_POINT_SPEC_INVALID');
    expect(err.issues).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^load = 0 is invalid: must be ≥ 0\.01/),
        'calls = 2.5 is invalid: must be a whole number',
        '(top level): unknown field(s) "extra"; remove them or check the spelling',
        'hedgeTo = "near" is invalid: use one of other, any',
      ]),
    );
    const { target: _, ...noTarget } = spec;
    expect(checkPointSpec(noTarget)).toEqual({ ok: false, issues: ['target: is required (string)'] });
  });

  it('checks the fields together: client of clients, gRPC, the model, through the caller’s labels', () => {
    const issues = (v: object) => {
      const r = checkPointSpec({ ...spec, ...v }, (f) => `--${f}`);
      return r.ok ? [] : r.issues;
    };
    expect(issues({ client: 2 })).toEqual([
      expect.stringMatching(/^--client = 2 is invalid: must be a whole number in 0\.\.1/),
    ]);
    expect(issues({ transport: 'grpc', replicaTargets: undefined })).toEqual([
      expect.stringMatching(/^--grpcTarget: is required with transport grpc/),
    ]);
    expect(issues({ config: { name: 'g', grpcHedging: { maxAttempts: 2, hedgingDelayMs: 20 } } })).toEqual([
      expect.stringMatching(/^--config: "g" is hedged by grpc-js \(grpcHedging\), which needs gRPC/),
    ]);
    expect(issues({ config: { name: 'x', hedge: { delayMs: -5 } } })).toEqual([
      expect.stringMatching(/^--config\.hedge\.delayMs = -5 is invalid: must be > 0/),
    ]);
    expect(issues({ model: { stragglerMinMs: 50, stragglerMaxMs: 10 } })).toEqual([
      expect.stringMatching(/^--model\.stragglerMaxMs: 10 is below stragglerMinMs 50/),
    ]);
  });
});
