// The progress line's ETAs: a point the simulation predicts to collapse lasts past its schedule while its
// backlog drains (plan-simulation.ts, collapseDrains), and the ETAs count that.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadMatrixFile, planPoints } from '../../orchestrator/index.ts';
import { RunProgress } from '../../orchestrator/plan/progress-eta.ts';
import type { ProgressReporter } from '../../orchestrator/plan/progress-reporter.ts';
import { ROOT } from './fixture.ts';

const QUICK = join(ROOT, 'experiments', 'quick.json');

describe('RunProgress', () => {
  it("counts a collapsing point's drain in its own ETA and in the run's", async () => {
    const plan = planPoints(await loadMatrixFile(QUICK)).slice(0, 3);
    const seen: { etaPointMs: number; etaRunMs: number }[] = [];
    const reporter = { update: (u: (typeof seen)[number]) => seen.push(u), drop: () => {} };
    const eta = (drains: Map<string, number>) => {
      const p = new RunProgress(reporter as unknown as ProgressReporter, plan, 1, new Set(), drains);
      p.startPoint(plan[0]);
      p.status({ completed: '0' }, 0);
      return seen.at(-1)!;
    };
    const plain = eta(new Map());
    // A drain on the running point adds to both; on a later point, to the run's only.
    expect(eta(new Map([[plan[0].key, 5000]]))).toEqual({
      ...plain,
      etaPointMs: plain.etaPointMs + 5000,
      etaRunMs: plain.etaRunMs + 5000,
    });
    expect(eta(new Map([[plan[2].key, 7000]]))).toEqual({ ...plain, etaRunMs: plain.etaRunMs + 7000 });
  });
});
