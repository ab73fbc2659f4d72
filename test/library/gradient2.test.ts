// Gradient2 limit trajectories on scripted RTT sequences, hand-computed from the update rules
// (long average: mean of the first 10, then EMA with f = 2/601; decay ×0.95 when long/rtt > 2;
// app-limited when inflight < L/2; g = clamp(1.5·long/rtt, 0.5, 1); L' = 0.8·L + 0.2·(L·g + 4)).
import { describe, expect, it } from 'vitest';
import { Gradient2Limit } from '../../library/index.ts';

describe('Gradient2Limit, per sample', () => {
  it('follows the hand-computed trajectory', () => {
    const g = new Gradient2Limit({ windowed: false });
    expect(g.limit).toBe(20);
    // Ten samples of 10 ms at inflight 20: long = 10, g = min(1, 1.5) = 1, each adds 0.2 · 4 = 0.8.
    for (let i = 1; i <= 10; i++) {
      g.onSample(i, 10, 20);
      expect(g.limit).toBeCloseTo(20 + 0.8 * i, 12);
    }
    expect(g.longRtt).toBe(10);
    // 11th: 30 ms at inflight 28. long = 10·(599/601) + 30·(2/601) = 10.0665557…,
    // g = 1.5 · 10.0665557 / 30 = 0.5033278, L = 0.8·28 + 0.2·(28·0.5033278 + 4) = 26.0186356.
    g.onSample(11, 30, 28);
    expect(g.longRtt).toBeCloseTo(10.066555740432612, 12);
    expect(g.limit).toBeCloseTo(26.018635607321137, 10);
    expect(g.enforced).toBe(26);
    // 12th: 30 ms at inflight 5 < 26.02/2: app-limited, long moves to 10.1328900, the limit does not.
    g.onSample(12, 30, 5);
    expect(g.longRtt).toBeCloseTo(10.132889997535997, 12);
    expect(g.limit).toBeCloseTo(26.018635607321137, 10);
    // 13th: rtt 0 is ignored entirely (a zero would make long/rtt NaN).
    g.onSample(13, 0, 30);
    g.onSample(13, -1, 30);
    expect(g.ignored).toBe(2);
    expect(g.longRtt).toBeCloseTo(10.132889997535997, 12);
    // 14th: 1 ms at inflight 30: long = 10.1024977, long/rtt > 2 so the stored long decays to ×0.95 =
    // 9.5973728, but this sample still uses 10.1024977: g = 1 → L = 26.0186356 + 0.8.
    g.onSample(14, 1, 30);
    expect(g.longRtt).toBeCloseTo(9.597372800495606, 12);
    expect(g.limit).toBeCloseTo(26.818635607321138, 10);
  });

  it('clamps to [minLimit, maxLimit] and keeps the fraction', () => {
    const g = new Gradient2Limit({ windowed: false, maxLimit: 22 });
    for (let i = 0; i < 10; i++) g.onSample(i, 5, 40);
    expect(g.limit).toBe(22);
    const low = new Gradient2Limit({ windowed: false });
    for (let i = 0; i < 10; i++) low.onSample(i, 10, 20); // L = 28
    // 1000 ms against a long of ~10: g = 0.5, L' = 0.9·L + 0.8, down to the floor of 20.
    low.onSample(11, 1000, 28);
    expect(low.limit).toBeCloseTo(0.9 * 28.000000000000007 + 0.8, 10);
    for (let i = 0; i < 50; i++) low.onSample(12 + i, 1000, 40);
    expect(low.limit).toBe(20);
  });

  it('never turns NaN on zero RTTs (the estimate stays finite and admission stays enforced)', () => {
    const g = new Gradient2Limit({ windowed: false });
    for (let i = 0; i < 20; i++) g.onSample(i, 0, 100);
    expect(g.limit).toBe(20);
    expect(Number.isFinite(g.longRtt)).toBe(true);
    expect(g.ignored).toBe(20);
  });
});

describe('Gradient2Limit, windowed (default)', () => {
  it('updates once per window with the average RTT and the largest inflight', () => {
    const g = new Gradient2Limit();
    // First window opens at the first sample (t=100) and closes with the first sample ending after 1100.
    for (let t = 100; t <= 1000; t += 100) g.onSample(t, 10, t === 500 ? 25 : 3);
    g.onSample(1000.05, 0.05, 40); // under 0.1 ms: dropped
    expect(g.updates).toBe(0);
    expect(g.limit).toBe(20);
    // The closing sample belongs to the window: 11 samples, average (10·10 + 20)/11 = 10.90909, max inflight 30.
    // First long sample = 10.90909; g = 1 → L = 20.8.
    g.onSample(1200, 20, 30);
    expect(g.updates).toBe(1);
    expect(g.longRtt).toBeCloseTo(120 / 11, 12);
    expect(g.limit).toBeCloseTo(20.8, 12);
    expect(g.ignored).toBe(1);
    // Next window (ends at 2200): 6 samples only → discarded when the 2300 sample closes it.
    for (let t = 1300; t <= 1700; t += 100) g.onSample(t, 10, 30);
    g.onSample(2300, 10, 30);
    expect(g.updates).toBe(1);
    expect(g.limit).toBeCloseTo(20.8, 12);
    // Window ending at 3300: 40 ms samples from 2400 to 3400 (11), max inflight 20 ≥ 20.8/2.
    // long = (10.90909 + 40)/2 = 25.45455, g = 1.5 · 25.45455/40 = 0.9545455,
    // L = 0.8·20.8 + 0.2·(20.8·0.9545455 + 4) = 21.4109091.
    for (let t = 2400; t <= 3400; t += 100) g.onSample(t, 40, 20);
    expect(g.updates).toBe(2);
    expect(g.longRtt).toBeCloseTo(25.454545454545453, 12);
    expect(g.limit).toBeCloseTo(21.410909090909094, 10);
  });

  it('under a growing queue, per-sample feeding climbs to the maximum while windows hold the limit down', () => {
    // RTT grows 0.1 % per sample (10 ms → 200 ms over 30 s, a queue building up), inflight always at the limit.
    const perSample = new Gradient2Limit({ windowed: false });
    const windowed = new Gradient2Limit();
    let rtt = 10;
    for (let i = 0; i < 3000; i++) {
      const t = i * 10;
      perSample.onSample(t, rtt, perSample.enforced);
      windowed.onSample(t, rtt, windowed.enforced);
      rtt *= 1.001;
    }
    expect(perSample.limit).toBe(200);
    expect(windowed.updates).toBe(29);
    expect(windowed.limit).toBe(20);
  });
});
