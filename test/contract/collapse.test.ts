// The collapse verdict (analysis/collapse.ts): fires for a queue that never drains and keeps growing, not
// for a stable queue however busy, nor for a queue that sits high without growing.

import { describe, expect, it } from 'vitest';
import { detectCollapse, MIN_SAMPLES, type Timeline } from '../../contract/index.ts';

function timeline(n: number, f: (t: number) => { queue: number; inFlight: number }): Timeline {
  const tMs = new Float64Array(n);
  const queue = new Float64Array(n);
  const inFlight = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    tMs[i] = i * 10;
    const s = f(tMs[i]);
    queue[i] = s.queue;
    inFlight[i] = s.inFlight;
  }
  return { length: n, tMs, queue, inFlight };
}

const window = { startMs: 0, endMs: 9990 };

describe('detectCollapse', () => {
  it('calls a linearly growing queue that never drains a collapse, with the evidence', () => {
    const tl = timeline(1000, (t) => ({ queue: 5 + t / 20, inFlight: 21 + t / 20 }));
    const v = detectCollapse(tl, window, 16);
    expect(v.collapsed).toBe(true);
    expect(v.samples).toBe(1000);
    expect(v.queueMinSecondHalf).toBeCloseTo(5 + 5000 / 20, 6);
    expect(v.growthPerSec).toBeCloseTo(50, 6);
    expect(v.inFlightEnd).toBeGreaterThan(v.inFlightMid + 16);
    expect(v.reason).toMatch(/never drained/);
  });

  it('does not call a busy but stable queue (it drains now and then) a collapse', () => {
    const tl = timeline(1000, (t) => {
      const q = Math.max(0, 30 * Math.sin(t / 300));
      return { queue: q, inFlight: 16 + q };
    });
    const v = detectCollapse(tl, window, 16);
    expect(v.collapsed).toBe(false);
    expect(v.reason).toMatch(/drained/);
  });

  it('does not call a queue that sits high without growing a collapse', () => {
    const tl = timeline(1000, (t) => ({ queue: 100 + (t % 70 === 0 ? 5 : 0), inFlight: 116 }));
    const v = detectCollapse(tl, window, 16);
    expect(v.collapsed).toBe(false);
    expect(v.reason).toMatch(/grew by only/);
  });

  it('ignores samples outside the window and needs enough of them', () => {
    const grow = (t: number) => ({ queue: 1 + t, inFlight: 17 + t });
    expect(
      detectCollapse(timeline(2 * MIN_SAMPLES - 2, grow), { startMs: 0, endMs: 1e9 }, 16).collapsed,
    ).toBe(false);
    const v = detectCollapse(timeline(1000, grow), { startMs: 5000, endMs: 6000 }, 16);
    expect(v.samples).toBe(101);
    expect(v.collapsed).toBe(true);
    const empty = detectCollapse(timeline(0, grow), { startMs: 0, endMs: 10 }, 16);
    expect(empty.collapsed).toBe(false);
    expect(empty.reason).toMatch(/too few samples/);
  });
});
