// The PUT /config body (contract/target-config.ts): what the orchestrator sends passes the schema the target
// validates with, unchanged; a malformed body is refused naming the field.
import { describe, expect, it } from 'vitest';
import { type TargetConfig, targetConfigSchema } from '../../contract/index.ts';
import { DEFAULT_MODEL } from '../../model/index.ts';
import { parseConfigPatch } from '../../target-server/config.ts';

const config: TargetConfig = {
  workers: 16,
  model: { ...DEFAULT_MODEL, service: null },
  seed: 7,
  cancellation: 'propagate',
  run: 'run-1',
  slug: 'p-0.50',
  replica: 1,
  replicas: 2,
  correlation: 0.5,
  slowReplica: 2,
  timeScale: 4,
  responseDelayMs: 1,
  tiedCopies: 2,
  peers: ['http://127.0.0.1:4001', 'http://127.0.0.1:4002'],
};

describe('the PUT /config body', () => {
  it('what the orchestrator sends reads back unchanged through JSON', () => {
    expect(targetConfigSchema.parse(JSON.parse(JSON.stringify(config)))).toEqual(config);
    expect(targetConfigSchema.parse({ run: null, slug: null })).toEqual({ run: null, slug: null });
  });

  it('a malformed body is refused naming the field', () => {
    const r = targetConfigSchema.safeParse({ ...config, model: { ...config.model, sigma: -1 } });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual(['model', 'sigma']);
    expect(r.error!.issues[0]!.message).toBe('must be ≥ 0');
    expect(targetConfigSchema.safeParse({ ...config, bogus: 1 }).success).toBe(false);
    // The target server reads the body with this schema: the same refusal, in its words.
    expect(parseConfigPatch(config)).toEqual(config);
    expect(() => parseConfigPatch({ ...config, model: { ...config.model, sigma: -1 } })).toThrow(
      'PUT /config: model.sigma must be ≥ 0',
    );
  });
});
