// The target-side fidelity checks: a real target whose event loop is stalled by a busy loop is caught by
// its own figures (the same /stats the orchestrator stores as status.json's target_check), and each
// threshold of the matrix's `fidelity` turns into a reason that names the setting.
import { afterAll, describe, expect, it } from 'vitest';
import { fidelityReasons } from '../../analysis/judge/fidelity.ts';
import { FIDELITY_DEFAULTS } from '../../model/index.ts';
import { createTargetServer } from '../../target-server/index.ts';
import { call, createAgent } from '../target-server/http.ts';

const agent = createAgent();
afterAll(() => agent.close());

describe('fidelity checks at the target end', () => {
  it('a target whose event loop stalls 20 ms every 40 ms fails its own response-delay check', async () => {
    const s = await createTargetServer({
      log: () => {},
      workers: 4,
      model: { service: { kind: 'constant', ms: 5 } },
      mainLoopStall: { ms: 20, everyMs: 40 },
    });
    try {
      // About a second of load: the delay counts from the first /work, so the stalls must fall inside it.
      const until = performance.now() + 1_000;
      for (let k = 0; performance.now() < until; k++) {
        expect((await call(agent, `${s.url}/work?call=${k}&attempt=1`)).status).toBe(200);
      }
      const stats = s.stats();
      // The stall is there, in the target's own figures...
      expect(stats.responseDelayMs.p99).toBeGreaterThan(10);
      const reasons = fidelityReasons({ target_check: stats } as never, null, FIDELITY_DEFAULTS);
      // ...and the check says so, naming the setting a user would change.
      expect(reasons.join('\n')).toMatch(
        /target response delay p99 \d+\.\d+ ms exceeds fidelity\.responseDelayP99Ms = 5 ms/,
      );
    } finally {
      await s.close();
    }
  });

  it('every threshold is a reason of its own, and raising it clears that reason', () => {
    const status = {
      target_check: { holdErrorMs: { count: 100, p99: 2.5 }, responseDelayMs: { count: 100, p99: 1 } },
    };
    // Request transit 0.25 / 2 ms, response transit 0.25 / 2 ms (the slowest 5 %), and a response delay of
    // 4 ms that the round trip must not count again (it has its own check, and 4 ≤ 5).
    const part = (slow: number) => Float64Array.from({ length: 100 }, (_, i) => (i < 95 ? 0.25 : slow));
    const parts = { request_transit: part(2), response_transit: part(2), response_delay: part(4) };
    const attribution = { n: 100, parts } as never;
    const strict = fidelityReasons(status as never, attribution, FIDELITY_DEFAULTS);
    expect(strict).toHaveLength(2);
    expect(strict[0]).toContain('hold overshoot p99 2.50 ms exceeds fidelity.holdOvershootP99Ms = 1 ms');
    expect(strict[1]).toContain('transit p99 4.00 ms exceeds fidelity.transitP99Ms = 2 ms');
    const relaxed = { ...FIDELITY_DEFAULTS, holdOvershootP99Ms: 3, transitP99Ms: 5 };
    expect(fidelityReasons(status as never, attribution, relaxed)).toEqual([]);
    // A point without the target's figures (an older run) is not judged on them.
    expect(fidelityReasons({} as never, null, FIDELITY_DEFAULTS)).toEqual([]);
  });
});
