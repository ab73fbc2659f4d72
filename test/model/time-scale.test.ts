// The time-scale dimension in the matrix and the one function that dilates a point (model/time-scale.ts).

import { describe, expect, it } from 'vitest';
import { GRADIENT2_DEFAULTS } from '../../library/index.ts';
import {
  dilatePoint,
  expandMatrix,
  FIDELITY_DEFAULTS,
  MatrixInvalidError,
  overrideMatrix,
  parseMatrix,
  parseTimeScale,
  pointKey,
  pointSlug,
  referenceConfig,
} from '../../model/index.ts';
import { chooseTimeScale, worstDelays } from '../../orchestrator/run/time-scale-choice.ts';

const base = {
  name: 't',
  configs: ['no hedge', 'hedge, default budget, adaptive limit'],
  loads: [0.5],
  cancellation: ['ignore'],
  seeds: [1],
  calls: 100,
};

function issues(spec: object): string[] {
  try {
    parseMatrix(spec);
  } catch (err) {
    if (err instanceof MatrixInvalidError) return [...err.issues];
    throw err;
  }
  return [];
}

describe('timeScale in the matrix', () => {
  it('is invisible at its default: no key tag, no dimension', () => {
    const pts = expandMatrix(parseMatrix(base));
    expect(pts.map((p) => p.dims)).toEqual([undefined, undefined]);
    expect(expandMatrix(parseMatrix({ ...base, timeScale: [1] }))).toEqual(pts);
  });

  it('sweeps its factors outermost, tagging keys and slugs', () => {
    const pts = expandMatrix(parseMatrix({ ...base, timeScale: [1, 5] }));
    expect(pts.map((p) => pointKey(p))).toEqual([
      'no hedge|0.50|ignore|1',
      'hedge, default budget, adaptive limit|0.50|ignore|1',
      'no hedge|0.50|ignore|1|x=5',
      'hedge, default budget, adaptive limit|0.50|ignore|1|x=5',
    ]);
    expect(pointSlug(pts[2])).toBe('no-hedge_0.50_ignore_s1_x5');
  });

  it('refuses bad factors, each with the field and the fix', () => {
    expect(issues({ ...base, timeScale: [0.5] })).toEqual([expect.stringMatching(/^timeScale.*must be/)]);
    expect(issues({ ...base, timeScale: [2000] })[0]).toMatch(/timeScale/);
    expect(issues({ ...base, timeScale: ['x'] })[0]).toMatch(/timeScale/);
    expect(issues({ ...base, timeScale: 5 })[0]).toMatch(/list of time scales .* or "auto"/);
    expect(issues({ ...base, timeScale: [5, 5] })).toEqual([
      'timeScale: 5 appears twice; list each time scale once',
    ]);
    expect(issues({ ...base, timeScale: 'auto', calibration: false })[0]).toMatch(
      /"auto" measures .* calibration is false/,
    );
  });

  it('is overridden by --time-scale, and the calibration point runs at the first k', () => {
    const m = overrideMatrix(parseMatrix(base), { timeScale: 10 });
    expect(m.timeScale).toEqual([10]);
    expect(expandMatrix(m).every((p) => p.dims?.timeScale === 10)).toBe(true);
    expect(parseTimeScale('auto')).toBe('auto');
    expect(parseTimeScale('2.5')).toBe(2.5);
    expect(parseTimeScale('0')).toBeNull();
    expect(parseTimeScale('1001')).toBeNull();
  });

  it('checks ranges on the undilated values: a 60 s budget window may dilate past 60 s', () => {
    const spec = {
      ...base,
      configs: [{ name: 'w', hedge: { delayMs: 20, budgetWindowMs: 60_000 } }],
      timeScale: [10],
    };
    const p = dilatePoint(expandMatrix(parseMatrix(spec))[0]);
    expect(p.config.hedge?.budgetWindowMs).toBe(600_000);
    expect(issues({ ...spec, configs: [{ name: 'w', hedge: { budgetWindowMs: 60_001 } }] })[0]).toMatch(
      /budgetWindowMs: must be in 1000..60000 ms/,
    );
  });
});

describe('dilatePoint', () => {
  it('multiplies every duration and divides every rate, filling in the library defaults', () => {
    const m = parseMatrix({ ...base, model: { service: { kind: 'exponential', meanMs: 4 } } });
    const [, hedged] = expandMatrix({ ...m, timeScale: [5] });
    const d = dilatePoint(hedged);
    expect(d.model.service).toEqual({ kind: 'exponential', meanMs: 20 });
    expect(d.model.medianMs).toBe(50);
    expect(d.model.stragglerMinMs).toBe(500);
    expect(d.model.stragglerMaxMs).toBe(1500);
    expect(d.model.workers).toBe(16);
    expect(d.model.sigma).toBe(0.25);
    expect(d.config.hedge).toEqual({ delayMs: 100, budgetWindowMs: 50_000, budgetMinHedgesPerSecond: 0.2 });
    expect(d.config.adaptiveLimit).toEqual({
      windowMs: GRADIENT2_DEFAULTS.windowMs * 5,
      minRttMs: GRADIENT2_DEFAULTS.minRttMs * 5,
    });
    // Its identity is unchanged: the same key as the model-time point.
    expect(pointKey(d)).toBe(pointKey(hedged));
    expect(dilatePoint(expandMatrix(m)[1])).toEqual(expandMatrix(m)[1]);
  });

  it('keeps counts: attempts and budget percent; scales grpc-js hedging delay', () => {
    const p = {
      ...expandMatrix(parseMatrix(base))[0],
      config: {
        ...referenceConfig('3 attempts, no budget')!,
      },
      dims: { timeScale: 2 },
    };
    expect(dilatePoint(p).config.hedge).toMatchObject({ maxAttempts: 3, budgetPercent: 0, delayMs: 40 });
    const g = { ...p, config: { name: 'g', grpcHedging: { maxAttempts: 3, hedgingDelayMs: 20 } } };
    expect(dilatePoint(g).config.grpcHedging).toEqual({ maxAttempts: 3, hedgingDelayMs: 40 });
  });
});

describe('"auto": the smallest k at which the harness is quiet', () => {
  const t = FIDELITY_DEFAULTS;
  const quiet = { sendLagP99Ms: 0.3, transitP99Ms: 0.8, holdOvershootP99Ms: 0.2, responseDelayP99Ms: 1 };
  it('keeps the undilated clock when every delay is well under its threshold, even 1.7× higher', () => {
    expect(chooseTimeScale(quiet, t)).toMatchObject({ k: 1, quiet: true });
  });
  it('dilates until the loudest delay fits with room for the next run’s drift, and says which one it was', () => {
    // 5.5 ms × 1.7 = 9.35 ms: over 0.8 × 2 × 5 = 8 ms at k = 5, under 16 ms at k = 10.
    const c = chooseTimeScale({ ...quiet, transitP99Ms: 5.5 }, t);
    expect(c.k).toBe(10);
    expect(c.reason).toMatch(
      /^time scale 10: transit p99 here 5.5 ms = 0.55 model-ms \(0.93 at a 1.7× higher reading\) against fidelity.transitP99Ms = 2 ms; /,
    );
  });
  it('chooses for the run that follows the probe: a k the reading alone allows, but a worse minute would not, is not taken', () => {
    // 7 ms fits k = 5 (7 ÷ 5 ≤ 0.8 × 2); 1.7 × 7 = 11.9 ms would not, and fits k = 10.
    const near = chooseTimeScale({ ...quiet, transitP99Ms: 7 }, t);
    expect(near).toMatchObject({ k: 10, readingK: 5 });
    expect(near.reason).toMatch(
      /; the reading alone would allow 5, but this machine may read 1.7× higher on the run that follows, and 10 holds that too$/,
    );
    // 4.5 ms fits k = 5 with room for 1.7 × 4.5 = 7.65 ms: no smaller k to mention.
    expect(chooseTimeScale({ ...quiet, transitP99Ms: 4.5 }, t)).toMatchObject({ k: 5 });
    expect(chooseTimeScale({ ...quiet, transitP99Ms: 4.5 }, t).readingK).toBeUndefined();
    expect(chooseTimeScale({ ...quiet, transitP99Ms: 9.8 }, t)).toMatchObject({ k: 20, readingK: 10 });
    expect(chooseTimeScale({ ...quiet, sendLagP99Ms: 500 }, t).readingK).toBeUndefined();
  });
  it('takes the ladder top and says so when nothing is quiet enough', () => {
    const c = chooseTimeScale({ ...quiet, sendLagP99Ms: 500 }, t);
    expect(c).toMatchObject({ k: 20, quiet: false });
    expect(c.reason).toMatch(/still above 80 % of it at the ladder's largest k/);
  });
  it('ignores what was not measured', () => {
    const none = {
      sendLagP99Ms: null,
      transitP99Ms: null,
      holdOvershootP99Ms: null,
      responseDelayP99Ms: null,
    };
    expect(chooseTimeScale(none, t).k).toBe(1);
  });
  it('judges lanes measured at once by the worst of each delay, and says how many there were', () => {
    const a = { ...quiet, transitP99Ms: 4.5, sendLagP99Ms: null };
    const b = { ...quiet, transitP99Ms: 9, holdOvershootP99Ms: 0.1 };
    const w = worstDelays([a, b]);
    expect(w).toEqual({
      sendLagP99Ms: 0.3,
      transitP99Ms: 9,
      holdOvershootP99Ms: 0.2,
      responseDelayP99Ms: 1,
    });
    expect(worstDelays([a]).sendLagP99Ms).toBeNull();
    // One lane alone fits k = 5 (1.7 × 4.5 ≤ 0.8 × 2 × 5); with the other measured beside it, only k = 10 does.
    expect(chooseTimeScale(a, t).k).toBe(5);
    const c = chooseTimeScale(w, t, 2);
    expect(c).toMatchObject({ k: 10, lanes: 2 });
    expect(c.reason).toMatch(
      /^time scale 10: transit p99 here 9.0 ms = 0.90 model-ms \(1.53 at a 1.7× higher reading\) against fidelity.transitP99Ms = 2 ms, the worst of 2 lanes measured at once$/,
    );
  });
});
